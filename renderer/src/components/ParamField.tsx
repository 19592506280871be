import {checkParam} from "../params/checkParam.ts";
import type {ParamSpec, ParamValue} from "../params/types.ts";
import {BooleanParam} from "./BooleanParam.tsx";
import {EnumParam} from "./EnumParam.tsx";
import {NumberParam} from "./NumberParam.tsx";
import {StopListParam} from "./StopListParam.tsx";

type Props = {spec: ParamSpec, value: ParamValue, onChange: (value: ParamValue) => void, inactive?: boolean};

/** One request parameter: its control, the spec's rule as a hint, and a warning when the value breaks it. */
export function ParamField({spec, value, onChange, inactive}: Props) {
    const warning = checkParam(spec, value);
    return (
        <div className={`param${value === undefined ? " is-unset" : ""}${inactive ? " is-inactive" : ""}`}>
            <div className="param-head">
                <label className="param-label mono" title={spec.help}>{spec.label}</label>
                {value !== undefined && (
                    <button type="button" className="link-btn" onClick={() => onChange(undefined)} aria-label={`Reset ${spec.label}`}>reset</button>
                )}
            </div>
            {spec.kind === "boolean" && <BooleanParam spec={spec} value={value as boolean | undefined} onChange={onChange} />}
            {spec.kind === "enum" && <EnumParam spec={spec} value={value as string | undefined} onChange={onChange} />}
            {spec.kind === "stopList" && <StopListParam spec={spec} value={value as string[] | undefined} onChange={onChange} />}
            {(spec.kind === "integer" || spec.kind === "number") && <NumberParam spec={spec} value={value as number | undefined} onChange={onChange} />}
            {warning
                ? <div className="field-warning" data-testid={`param-${spec.key}-warning`}>{spec.label} {warning}; the server will reject it</div>
                : <div className="param-help">{inactive ? `Sent only with ${spec.requires}: true. ` : ""}{spec.help}</div>}
        </div>
    );
}
