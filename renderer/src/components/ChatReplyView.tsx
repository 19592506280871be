import {useChatStore} from "../state/useChatStore.ts";
import {useRevealWhenRunning} from "../utils/useRevealWhenRunning.ts";
import {ApiErrorView} from "./ApiErrorView.tsx";
import {ChoiceView} from "./ChoiceView.tsx";
import {RunStats} from "./RunStats.tsx";

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
                {run.status === "stopped" && <span className="badge badge-warn" data-testid="stopped-badge">stopped by you · partial reply</span>}
            </div>
            {reply.choices.length === 0 && streaming && <div className="muted">Waiting for the first token…</div>}
            {reply.choices.map((choice) => (
                <ChoiceView key={choice.index} choice={choice} showIndex={reply.choices.length > 1} streaming={streaming && choice.finishReason === null}
                    canKeep={!streaming} />
            ))}
            {run.error && <ApiErrorView error={run.error} />}
            {run.status !== "running" && <RunStats run={run} usage={reply.usage} />}
        </section>
    );
}
