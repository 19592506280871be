// The chat reply: each choice with its reasoning, text and tool calls (answerable as tool messages).
import {useState} from "react";
import {ApiErrorView} from "../../ui/ApiErrorView.tsx";
import {WorkspaceKeyAdvice} from "../workspace/appKey.tsx";
import {AddRunToDataset} from "../datasets/AddRunToDataset.tsx";
import type {ChoiceState, ToolCall} from "./chat.ts";
import {useRevealWhenRunning, RunStats, useStickToBottom, ReasoningSection, WaitingForOutput} from "./runViews.tsx";
import {logitBiasAdder, useChatStore} from "./stores.ts";
import {TokenProbabilities} from "./TokenProbabilities.tsx";
import {stoppedText} from "./runs.ts";

/** The latest chat reply: choices as they stream in, then usage and timings, or the API's error. */
export function ChatReplyView() {
    const reply = useChatStore((state) => state.reply);
    const run = useChatStore((state) => state.run);
    const reveal = useRevealWhenRunning<HTMLElement>(run.status);
    if (run.status === "idle") return <div className="reply-empty muted">Run the conversation to see the reply here.</div>;
    const streaming = run.status === "running";
    return (
        <section className="reply card" data-testid="chat-reply" ref={reveal}>
            <div className="reply-title">
                <h3>Reply</h3>
                {reply.model && <span className="muted mono small">{reply.model}</span>}
                {reply.id && <span className="muted mono small">{reply.id}</span>}
                {run.status === "stopped" && <span className="badge badge-warn" data-testid="stopped-badge">{stoppedText(run)} · partial reply</span>}
            </div>
            {reply.choices.length === 0 && streaming && <WaitingForOutput run={run} />}
            {reply.choices.map((choice) => (
                <ChoiceView key={choice.index} choice={choice} showIndex={reply.choices.length > 1} streaming={streaming && choice.finishReason === null}
                    canKeep={!streaming} usage={reply.usage} choiceCount={reply.choices.length} />
            ))}
            {run.error && <><ApiErrorView error={run.error} /><WorkspaceKeyAdvice error={run.error} /></>}
            {run.status !== "running" && <RunStats run={run} usage={reply.usage} />}
            {run.status === "done" && <AddRunToDataset request={run.request} reply={reply.choices[0]?.content ?? ""} />}
        </section>
    );
}

const addChatLogitBias = logitBiasAdder(useChatStore);

/** `usage` and `choiceCount`: the reply's, which the token view compares its count with. */
type ChoiceViewProps = {choice: ChoiceState, showIndex: boolean, streaming: boolean, canKeep: boolean, usage?: Record<string, unknown>, choiceCount: number};

/** One choice of a chat reply: reasoning, answer text, tool calls, finish reason. */
export function ChoiceView({choice, showIndex, streaming, canKeep, usage, choiceCount}: ChoiceViewProps) {
    const scroll = useStickToBottom<HTMLDivElement>(choice.content);
    return (
        <div className="choice" data-testid="choice">
            <div className="choice-head">
                {showIndex && <span className="muted">choice {choice.index}</span>}
                {choice.finishReason && <span className={`badge finish-${choice.finishReason}`} data-testid="finish-reason">finish_reason: {choice.finishReason}</span>}
                {canKeep && (
                    <button type="button" className="link-btn push-right" onClick={() => useChatStore.getState().keepReply(choice.content, choice.toolCalls)}>
                        Add to conversation
                    </button>
                )}
            </div>
            <ReasoningSection reasoning={choice.reasoning} streaming={streaming} />
            {(choice.content || choice.toolCalls.length === 0) && (
                <div className="reply-text scrolling" data-testid="reply-text" ref={scroll.ref} onScroll={scroll.onScroll} tabIndex={0} role="region"
                    aria-label={showIndex ? `Reply text of choice ${choice.index}` : "Reply text"}>
                    {choice.content}
                    {streaming && <span className="caret" aria-hidden="true" />}
                    {!choice.content && !streaming && <span className="muted">(empty content)</span>}
                </div>
            )}
            {!streaming && <TokenProbabilities scores={choice.tokens} onBias={addChatLogitBias} usage={usage} choices={choiceCount} />}
            {choice.toolCalls.map((call) => <ToolCallAnswer key={call.id || call.function.name} call={call} allCalls={choice.toolCalls} />)}
        </div>
    );
}

type ToolCallAnswerProps = {call: ToolCall, allCalls: ToolCall[]};

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
export function ToolCallAnswer({call, allCalls}: ToolCallAnswerProps) {
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
                {!argumentsValid && <span className="badge badge-warn" title="Forcing is an instruction, not a guarantee: the model may still write arguments that are not valid JSON">arguments are not valid JSON</span>}
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
