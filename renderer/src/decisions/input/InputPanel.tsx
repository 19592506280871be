import {AutoTextarea} from "../../components/AutoTextarea.tsx";
import {JsonEditor} from "../../components/JsonEditor.tsx";
import {useDecisionInputStore, type InputMode} from "../state/useDecisionInputStore.ts";
import {useQuestionSetStore} from "../state/useQuestionSetStore.ts";
import {DecisionImages} from "./DecisionImages.tsx";
import {TableRowInput} from "./TableRowInput.tsx";
import {useResolvedInput} from "./useResolvedInput.ts";

const modes: Array<{id: InputMode, label: string}> = [
    {id: "text", label: "Text"},
    {id: "json", label: "JSON state"},
    {id: "row", label: "Table row"}
];

/** What the questions are asked about: text, a JSON state or a table row, plus up to 8 images. */
export function InputPanel() {
    const mode = useDecisionInputStore((state) => state.mode);
    const text = useDecisionInputStore((state) => state.text);
    const jsonText = useDecisionInputStore((state) => state.jsonText);
    const set = useDecisionInputStore((state) => state.set);
    const format = useQuestionSetStore((state) => state.draft.format);
    const resolved = useResolvedInput();
    return (
        <section className="card input-panel" data-testid="input-panel">
            <div className="card-title-row">
                <h3>Input</h3>
                <div className="segmented" role="radiogroup" aria-label="Input kind">
                    {modes.map((item) => (
                        <button key={item.id} type="button" role="radio" aria-checked={mode === item.id} className={mode === item.id ? "active" : ""}
                            data-testid={`input-mode-${item.id}`} onClick={() => set({mode: item.id})}>{item.label}</button>
                    ))}
                </div>
                <span className="muted small push-right">
                    {format === "decisions" ? "sent as `input` (a JSON state as stable JSON text)" : "sent as `state`"}
                </span>
            </div>
            {mode === "text" && <AutoTextarea className="tall" value={text} onChange={(event) => set({text: event.target.value})} placeholder="The text to evaluate" aria-label="Input text" data-testid="input-text" />}
            {mode === "json" && (
                <JsonEditor path="inmemory://svc/decision-state.json" value={jsonText} onChange={(value) => set({jsonText: value})} height={160}
                    error={resolved.error} label="JSON state" testId="input-json" />
            )}
            {mode === "row" && <TableRowInput />}
            <DecisionImages />
        </section>
    );
}
