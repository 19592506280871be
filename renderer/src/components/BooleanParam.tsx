import type {ParamSpec} from "../params/types.ts";

type Props = {spec: ParamSpec, value: boolean | undefined, onChange: (value: boolean | undefined) => void};

const choices: Array<{label: string, value: boolean | undefined}> = [{label: "—", value: undefined}, {label: "true", value: true}, {label: "false", value: false}];

/** Not sent / true / false: for the API "false" and "left out" can differ (include_reasoning defaults to true). */
export function BooleanParam({spec, value, onChange}: Props) {
    return (
        <div className="segmented" role="radiogroup" aria-label={spec.label} data-testid={`param-${spec.key}`}>
            {choices.map((choice) => (
                <button
                    key={choice.label}
                    type="button"
                    role="radio"
                    aria-checked={value === choice.value}
                    title={choice.value === undefined ? "Not sent (server default)" : undefined}
                    className={value === choice.value ? "active" : ""}
                    onClick={() => onChange(choice.value)}
                >
                    {choice.label}
                </button>
            ))}
        </div>
    );
}
