import {useEffect, useState} from "react";
import type {ParamSpec} from "../params/types.ts";

type Props = {spec: ParamSpec, value: number | undefined, onChange: (value: number | undefined) => void};

/**
 * A number field; bounded real-valued parameters (temperature, top_p, penalties) also get a slider.
 * The text is kept as typed until it parses, so "0." or "-" can be on the way to a number.
 */
export function NumberParam({spec, value, onChange}: Props) {
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
