type Props = {reasoning: string | null, streaming: boolean};

/** Separated reasoning (spec 2.6), folded away by default; `null` means the server withheld it. */
export function ReasoningSection({reasoning, streaming}: Props) {
    if (reasoning === "") return null;
    return (
        <details className="reasoning" data-testid="reasoning">
            <summary>
                Reasoning
                <span className="muted">{reasoning === null ? " · withheld (include_reasoning: false)" : ` · ${reasoning.length} chars${streaming ? " · streaming" : ""}`}</span>
            </summary>
            {reasoning !== null && <pre className="reasoning-text">{reasoning}</pre>}
        </details>
    );
}
