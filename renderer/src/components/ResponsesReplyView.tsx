import {useResponsesStore} from "../state/useResponsesStore.ts";
import {useRevealWhenRunning} from "../utils/useRevealWhenRunning.ts";
import {useStickToBottom} from "../utils/useStickToBottom.ts";
import {ApiErrorView} from "./ApiErrorView.tsx";
import {EventsList} from "./EventsList.tsx";
import {ReasoningSection} from "./ReasoningSection.tsx";
import {RunStats} from "./RunStats.tsx";

export function ResponsesReplyView() {
    const reply = useResponsesStore((state) => state.reply);
    const run = useResponsesStore((state) => state.run);
    const reveal = useRevealWhenRunning<HTMLElement>(run.status);
    const scroll = useStickToBottom<HTMLDivElement>(reply.outputText);
    if (run.status === "idle") return <div className="reply-empty muted">Run to see the events and the output text here.</div>;
    const streaming = run.status === "running";
    return (
        <section className="reply card" data-testid="responses-reply" ref={reveal}>
            <div className="reply-title">
                <h3>Output</h3>
                {reply.status && <span className="badge">status: {reply.status}</span>}
                {run.status === "stopped" && <span className="badge badge-warn">stopped by you · partial output</span>}
            </div>
            <ReasoningSection reasoning={reply.reasoningText} streaming={streaming} />
            <div className="reply-text scrolling" data-testid="responses-output" ref={scroll.ref} onScroll={scroll.onScroll}>
                {reply.outputText}
                {streaming && <span className="caret" aria-hidden="true" />}
            </div>
            <EventsList reply={reply} />
            {run.error && <ApiErrorView error={run.error} />}
            {!streaming && <RunStats run={run} usage={reply.usage} />}
        </section>
    );
}
