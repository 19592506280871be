import type {DraftQuestion, QuestionFormat} from "../model/types.ts";

type Props = {question: DraftQuestion, format: QuestionFormat, onChange: (patch: Pick<DraftQuestion, "trueDescription" | "falseDescription">) => void};

/** What true and false mean: `noul` criteria on /v1/systemone; kept but not sent on /v1/decisions. */
export function PredicateCriteriaEditor({question, format, onChange}: Props) {
    const fields = (
        <div className="criteria-grid">
            <label>
                <span className="muted small">true means</span>
                <input className="input input-sm" value={question.trueDescription} placeholder="optional" data-testid="pred-true"
                    onChange={(event) => onChange({trueDescription: event.target.value, falseDescription: question.falseDescription})} />
            </label>
            <label>
                <span className="muted small">false means</span>
                <input className="input input-sm" value={question.falseDescription} placeholder="optional" data-testid="pred-false"
                    onChange={(event) => onChange({trueDescription: question.trueDescription, falseDescription: event.target.value})} />
            </label>
        </div>
    );
    if (format === "systemone") return fields;
    return (
        <details className="criteria-details">
            <summary className="muted small">What true / false mean (sent on /v1/systemone only)</summary>
            {fields}
        </details>
    );
}
