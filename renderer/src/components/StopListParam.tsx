import {useState} from "react";
import type {ParamSpec} from "../params/types.ts";

type Props = {spec: ParamSpec, value: string[] | undefined, onChange: (value: string[] | undefined) => void};

/** `\n` and `\t` typed in the box mean a newline and a tab: stop sequences are mostly about those. */
const unescape = (text: string) => text.replace(/\\n/g, "\n").replace(/\\t/g, "\t");

/** Stop sequences as removable chips; Enter adds the typed one. */
export function StopListParam({spec, value, onChange}: Props) {
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
