import {summarizeEntry} from "../history/summarizeEntry.ts";
import type {HistoryEntry} from "../history/types.ts";

type Props = {entry: HistoryEntry, selected: boolean, onSelect: () => void};

const time = new Intl.DateTimeFormat(undefined, {month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit"});

export function HistoryRow({entry, selected, onSelect}: Props) {
    return (
        <li>
            <button type="button" className={`history-row${selected ? " selected" : ""}`} onClick={onSelect} data-testid="history-row">
                <div className="history-row-top">
                    <span className={`badge kind-${entry.kind}`}>{entry.kind}</span>
                    <span className={`status-badge status-${entry.status}`}>{entry.status}{entry.error?.status ? ` ${entry.error.status}` : ""}</span>
                    <span className="muted small push-right">{time.format(entry.createdAt)}</span>
                </div>
                <div className="history-row-text">{summarizeEntry(entry)}</div>
                <div className="muted small">{entry.connectionName}{entry.timing.totalMs !== undefined ? ` · ${Math.round(entry.timing.totalMs)} ms` : ""}</div>
            </button>
        </li>
    );
}
