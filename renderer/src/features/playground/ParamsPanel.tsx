// The Parameters panel of a playground: one field per parameter spec.
import {useEffect, useState} from "react";
import {activeConnection, useGatewayState} from "../../gateway/gatewayState.ts";
import {type ParamSpec, type ParamTarget, type ParamValue, type ParamValues, checkParam, specsForTarget} from "./params.ts";

type ParamsPanelProps = {specs: readonly ParamSpec[], values: ParamValues, onChange: (key: string, value: ParamValue) => void};

/** The rules' target: the active connection, and for the local engine the context of the model it runs. */
export function useParamTarget(): ParamTarget {
    const {data: gateway} = useGatewayState();
    return activeConnection(gateway).kind === "remote" ? {kind: "remote"} : {kind: "local", contextSize: gateway?.engine.contextSize};
}

/** Every parameter of a playground, grouped as the spec groups them, with the limits of the server it talks to. */
export function ParamsPanel({specs: allSpecs, values, onChange}: ParamsPanelProps) {
    const specs = specsForTarget(allSpecs, useParamTarget());
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

type ParamFieldProps = {spec: ParamSpec, value: ParamValue, onChange: (value: ParamValue) => void, inactive?: boolean};

/** One request parameter: its control, the spec's rule as a hint, and a warning when the value breaks it. */
export function ParamField({spec, value, onChange, inactive}: ParamFieldProps) {
    const warning = checkParam(spec, value);
    return (
        <div className={`param${value === undefined ? " is-unset" : ""}${inactive ? " is-inactive" : ""}`}>
            <div className="param-head">
                <label className="param-label mono" title={spec.help}>{spec.label}</label>
                {value !== undefined && (
                    <button type="button" className="link-btn" onClick={() => onChange(undefined)} aria-label={`Reset ${spec.label}`}>reset</button>
                )}
            </div>
            {(spec.kind === "boolean" || spec.kind === "include") && <BooleanParam spec={spec} value={value as boolean | undefined} onChange={onChange} />}
            {spec.kind === "enum" && <EnumParam spec={spec} value={value as string | undefined} onChange={onChange} />}
            {spec.kind === "stopList" && <StopListParam spec={spec} value={value as string[] | undefined} onChange={onChange} />}
            {spec.kind === "logitBias" && <LogitBiasParam spec={spec} value={value as string | undefined} onChange={onChange} />}
            {(spec.kind === "integer" || spec.kind === "number") && <NumberParam spec={spec} value={value as number | undefined} onChange={onChange} />}
            {warning
                ? <div className="field-warning" data-testid={`param-${spec.key}-warning`}>{spec.label} {warning}; the server will reject it</div>
                : <div className="param-help" data-testid={`param-${spec.key}-help`}>{inactive ? `Sent only with ${spec.requires}: true. ` : ""}{spec.help}</div>}
        </div>
    );
}

type NumberParamProps = {spec: ParamSpec, value: number | undefined, onChange: (value: number | undefined) => void};

/**
 * A number field; bounded real-valued parameters (temperature, top_p, penalties) also get a slider.
 * The text is kept as typed until it parses, so "0." or "-" can be on the way to a number.
 */
export function NumberParam({spec, value, onChange}: NumberParamProps) {
    const [text, setText] = useState(value === undefined ? "" : String(value));
    useEffect(() => {
        // Follow outside changes (a preset, a history re-open, the slider) unless the text already means this value.
        if (value === undefined ? text !== "" : Number(text) !== value || text.trim() === "") setText(value === undefined ? "" : String(value));
    }, [value]);
    const slider = spec.kind === "number" && spec.min !== undefined && spec.max !== undefined;
    const commit = (next: string) => {
        setText(next);
        if (next.trim() === "") return onChange(undefined);
        const parsed = Number(next);
        if (Number.isFinite(parsed)) onChange(parsed);
    };
    const unreadable = text.trim() !== "" && !Number.isFinite(Number(text));
    return (
        <div className="number-param">
            {slider && (
                <input
                    type="range"
                    min={spec.min}
                    max={spec.max}
                    step={spec.step ?? 0.01}
                    value={value ?? spec.min}
                    className={value === undefined ? "unset" : ""}
                    aria-label={`${spec.label} slider`}
                    onChange={(event) => commit(event.target.value)}
                />
            )}
            <input
                type="text"
                inputMode="decimal"
                className="input mono"
                placeholder="default"
                value={text}
                data-testid={`param-${spec.key}`}
                aria-label={spec.label}
                onChange={(event) => commit(event.target.value)}
            />
            {unreadable && <span className="field-warning inline">not a number: not applied</span>}
        </div>
    );
}

type LogitBiasParamProps = {spec: ParamSpec, value: string | undefined, onChange: (value: string | undefined) => void};

/** `logit_bias` as "token id: bias" pairs (ids from the probabilities view's token readout or a tokenizer). */
export function LogitBiasParam({spec, value, onChange}: LogitBiasParamProps) {
    return (
        <textarea className="input mono" rows={2} placeholder="e.g. 1234: -100, 567: 5" value={value ?? ""} data-testid={`param-${spec.key}`}
            aria-label={spec.label} onChange={(event) => onChange(event.target.value.trim() === "" ? undefined : event.target.value)} />
    );
}

type BooleanParamProps = {spec: ParamSpec, value: boolean | undefined, onChange: (value: boolean | undefined) => void};

const choices: Array<{label: string, value: boolean | undefined}> = [{label: "—", value: undefined}, {label: "true", value: true}, {label: "false", value: false}];

/** Not sent / true / false: for the API "false" and "left out" can differ (include_reasoning defaults to true). */
export function BooleanParam({spec, value, onChange}: BooleanParamProps) {
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

type EnumParamProps = {spec: ParamSpec, value: string | undefined, onChange: (value: string | undefined) => void};

export function EnumParam({spec, value, onChange}: EnumParamProps) {
    return (
        <select className="input" value={value ?? ""} data-testid={`param-${spec.key}`} aria-label={spec.label}
            onChange={(event) => onChange(event.target.value || undefined)}>
            <option value="">— not sent</option>
            {spec.options?.map((option) => <option key={option} value={option}>{option}</option>)}
        </select>
    );
}

type StopListParamProps = {spec: ParamSpec, value: string[] | undefined, onChange: (value: string[] | undefined) => void};

/** `\n` and `\t` typed in the box mean a newline and a tab: stop sequences are mostly about those. */
const unescape = (text: string) => text.replace(/\\n/g, "\n").replace(/\\t/g, "\t");

/** Stop sequences as removable chips; Enter adds the typed one. */
export function StopListParam({spec, value, onChange}: StopListParamProps) {
    const [text, setText] = useState("");
    const list = value ?? [];
    const add = () => {
        if (!text) return;
        onChange([...list, unescape(text)]);
        setText("");
    };
    return (
        <div className="stop-list">
            <div className="chips">
                {list.map((stop, index) => (
                    <span className="chip mono" key={`${index}-${stop}`}>
                        {JSON.stringify(stop)}
                        <button type="button" aria-label={`Remove stop ${JSON.stringify(stop)}`}
                            onClick={() => onChange(list.length === 1 ? undefined : list.filter((_, at) => at !== index))}>×</button>
                    </span>
                ))}
            </div>
            <input className="input mono" placeholder={list.length ? "add another…" : "e.g. \\n\\n, then Enter"} value={text} data-testid={`param-${spec.key}`}
                aria-label={spec.label}
                onChange={(event) => setText(event.target.value)}
                onKeyDown={(event) => {
                    if (event.key === "Enter") {
                        event.preventDefault();
                        add();
                    }
                }}
                onBlur={add} />
        </div>
    );
}
