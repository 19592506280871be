import type {ParamSpec, ParamValue, ParamValues} from "../params/types.ts";
import {ParamField} from "./ParamField.tsx";

type Props = {specs: readonly ParamSpec[], values: ParamValues, onChange: (key: string, value: ParamValue) => void};

/** Every parameter of a playground, grouped as the spec groups them. */
export function ParamsPanel({specs, values, onChange}: Props) {
    const groups = [...new Set(specs.map((spec) => spec.group))];
    return (
        <div className="params-panel">
            {groups.map((group) => (
                <section key={group} className="param-group">
                    <h4 className="group-title">{group}</h4>
                    {specs.filter((spec) => spec.group === group).map((spec) => (
                        <ParamField key={spec.key} spec={spec} value={values[spec.key]} onChange={(value) => onChange(spec.key, value)}
                            inactive={spec.requires !== undefined && values[spec.requires] !== true} />
                    ))}
                </section>
            ))}
        </div>
    );
}
