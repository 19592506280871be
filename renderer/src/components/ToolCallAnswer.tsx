import {useState} from "react";
import type {ToolCall} from "../chat/types.ts";
import {useChatStore} from "../state/useChatStore.ts";

type Props = {call: ToolCall, allCalls: ToolCall[]};

function pretty(argumentsText: string): string {
    try {
        return JSON.stringify(JSON.parse(argumentsText), null, 2);
    } catch {
        return argumentsText;
    }
}

/**
 * One tool call of a reply (spec 2.5) and a box to answer it: the answer is added to the conversation as
 * a `tool` message with this call's id, after the assistant message that carries the calls.
 */
export function ToolCallAnswer({call, allCalls}: Props) {
    const [result, setResult] = useState("");
    const [sent, setSent] = useState(false);
    let argumentsValid = true;
    try {
        JSON.parse(call.function.arguments);
    } catch {
        argumentsValid = false;
    }
    return (
        <div className="tool-call" data-testid="tool-call">
            <div className="tool-call-head">
                <span className="badge badge-accent">tool call</span>
                <span className="mono strong">{call.function.name}</span>
                <span className="mono muted">{call.id}</span>
                {!argumentsValid && <span className="badge badge-warn" title="Forcing is an instruction, not a guarantee (spec 2.5)">arguments are not valid JSON</span>}
            </div>
            <pre className="code-inline">{pretty(call.function.arguments)}</pre>
            <div className="tool-answer">
                <input className="input mono" placeholder='Tool result, e.g. {"temperature": 21}' value={result} aria-label={`Result for ${call.id}`}
                    onChange={(event) => setResult(event.target.value)} />
                <button type="button" className="btn btn-sm" disabled={sent}
                    onClick={() => {
                        useChatStore.getState().answerToolCall(allCalls, call.id, result);
                        setSent(true);
                    }}>
                    {sent ? "Added" : "Answer as tool message"}
                </button>
            </div>
        </div>
    );
}
