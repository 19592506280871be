import type {ResponsesReply} from "../responses/types.ts";
import {useStickToBottom} from "../utils/useStickToBottom.ts";

/** The Responses events as they arrived (spec 6.2), newest at the bottom. */
export function EventsList({reply}: {reply: ResponsesReply}) {
    const scroll = useStickToBottom<HTMLDivElement>(reply.eventCount);
    if (reply.eventCount === 0) return null;
    const hidden = reply.eventCount - reply.events.length;
    return (
        <details className="events" open data-testid="responses-events">
            <summary>Events <span className="muted">· {reply.eventCount}</span></summary>
            <div className="events-list" ref={scroll.ref} onScroll={scroll.onScroll}>
                {hidden > 0 && <div className="muted small">… {hidden} earlier events not shown</div>}
                {reply.events.map((row) => (
                    <div className="event-row mono" key={row.seq}>
                        <span className="event-seq">{row.seq}</span>
                        <span className={`event-type${row.type.endsWith(".delta") ? " delta" : ""}`}>{row.type}</span>
                        <span className="event-summary">{row.summary}</span>
                    </div>
                ))}
            </div>
        </details>
    );
}
