import type {ParamSpec} from "../params/types.ts";

type Props = {spec: ParamSpec, value: string | undefined, onChange: (value: string | undefined) => void};

export function EnumParam({spec, value, onChange}: Props) {
    return (
        <select className="input" value={value ?? ""} data-testid={`param-${spec.key}`} aria-label={spec.label}
            onChange={(event) => onChange(event.target.value || undefined)}>
            <option value="">— not sent</option>
            {spec.options?.map((option) => <option key={option} value={option}>{option}</option>)}
        </select>
    );
}
