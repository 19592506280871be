import type {QuestionFormat} from "../model/types.ts";

type Props = {format: QuestionFormat, onChange: (format: QuestionFormat) => void, testId: string};

const formats: Array<{id: QuestionFormat, label: string}> = [
    {id: "decisions", label: "/v1/decisions"},
    {id: "systemone", label: "/v1/systemone"}
];

/** Which endpoint the set is written for; the draft keeps what the other format needs for a switch back. */
export function FormatSwitch({format, onChange, testId}: Props) {
    return (
        <div className="segmented" role="radiogroup" aria-label="Endpoint format" data-testid={testId}>
            {formats.map((item) => (
                <button key={item.id} type="button" role="radio" aria-checked={format === item.id} className={format === item.id ? "active" : ""}
                    data-testid={`${testId}-${item.id}`} onClick={() => onChange(item.id)}>{item.label}</button>
            ))}
        </div>
    );
}
