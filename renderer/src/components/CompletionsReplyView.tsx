import {useCompletionsStore} from "../state/useCompletionsStore.ts";
import {useRevealWhenRunning} from "../utils/useRevealWhenRunning.ts";
import {ApiErrorView} from "./ApiErrorView.tsx";
import {RunStats} from "./RunStats.tsx";

export function CompletionsReplyView() {
    const reply = useCompletionsStore((state) => state.reply);
    const run = useCompletionsStore((state) => state.run);
    const reveal = useRevealWhenRunning<HTMLElement>(run.status);
    if (run.status === "idle") return <div className="reply-empty muted">Run to see the completion here.</div>;
    const streaming = run.status === "running";
    return (
        <section className="reply card" data-testid="completions-reply" ref={reveal}>
            <div className="reply-title">
                <h3>Completion</h3>
                {run.status === "stopped" && <span className="badge badge-warn">stopped by you · partial text</span>}
            </div>
            {reply.choices.map((choice) => (
                <div className="choice" key={choice.index}>
                    <div className="choice-head">
                        {reply.choices.length > 1 && <span className="muted">choice {choice.index}</span>}
                        {choice.finishReason && <span className="badge">finish_reason: {choice.finishReason}</span>}
                    </div>
                    <div className="reply-text" data-testid="completion-text">
                        {choice.content}
                        {streaming && choice.finishReason === null && <span className="caret" aria-hidden="true" />}
                    </div>
                </div>
            ))}
            {run.error && <ApiErrorView error={run.error} />}
            {!streaming && <RunStats run={run} usage={reply.usage} />}
        </section>
    );
}
