import {useQueryClient} from "@tanstack/react-query";
import {historyDb} from "../history/historyDb.ts";
import {openHistoryEntry} from "../history/openHistoryEntry.ts";
import {replyText} from "../history/replyText.ts";
import type {HistoryEntry} from "../history/types.ts";
import {historyKey} from "../history/useHistory.ts";
import {elideDataUrls} from "../viewCode/elideDataUrls.ts";
import {ApiErrorView} from "./ApiErrorView.tsx";
import {RunStats} from "./RunStats.tsx";

/** One stored run: request, reply, timings; re-open it in its playground or delete it. */
export function HistoryDetail({entry}: {entry: HistoryEntry}) {
    const client = useQueryClient();
    const usage = (entry.reply as {usage?: Record<string, unknown>} | null)?.usage;
    const text = replyText(entry);
    return (
        <div className="history-detail card" data-testid="history-detail">
            <div className="card-title-row">
                <h3>{entry.kind} run</h3>
                <span className="muted small">{new Date(entry.createdAt).toLocaleString()} · {entry.connectionName}</span>
                <div className="push-right row-gap">
                    <button type="button" className="btn btn-primary btn-sm" onClick={() => openHistoryEntry(entry)} data-testid="history-open">Open in playground</button>
                    <button type="button" className="btn btn-sm" onClick={async () => {
                        await historyDb.remove(entry.id);
                        await client.invalidateQueries({queryKey: historyKey});
                    }}>Delete</button>
                </div>
            </div>
            {entry.error && <ApiErrorView error={entry.error} />}
            {text && <><div className="card-label">Reply</div><div className="reply-text">{text}</div></>}
            <RunStats run={{status: entry.status, timing: entry.timing}} usage={usage} />
            <div className="card-label">Request</div>
            <pre className="code-block small-code">{JSON.stringify(elideDataUrls(entry.request), null, 2)}</pre>
        </div>
    );
}
