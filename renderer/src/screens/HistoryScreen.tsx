import {useQueryClient} from "@tanstack/react-query";
import {useState} from "react";
import {HistoryDetail} from "../components/HistoryDetail.tsx";
import {HistoryRow} from "../components/HistoryRow.tsx";
import {historyDb, maxHistoryEntries} from "../history/historyDb.ts";
import {searchHistory} from "../history/searchHistory.ts";
import {historyKey, useHistory} from "../history/useHistory.ts";

/** Every run saved on this machine, searchable; a selected run can be re-opened in its playground. */
export function HistoryScreen() {
    const {data: entries = [], isLoading} = useHistory();
    const client = useQueryClient();
    const [query, setQuery] = useState("");
    const [selectedId, setSelectedId] = useState<string | null>(null);
    const found = searchHistory(entries, query);
    const selected = found.find((entry) => entry.id === selectedId) ?? found[0];
    return (
        <div className="page history-page" data-testid="history-screen">
            <div className="history-list-pane">
                <div className="history-tools">
                    <input className="input" type="search" placeholder="Search requests, replies, errors…" value={query} onChange={(event) => setQuery(event.target.value)}
                        data-testid="history-search" aria-label="Search history" />
                    <button type="button" className="btn btn-sm" disabled={entries.length === 0} onClick={async () => {
                        if (!confirm("Delete all saved runs?")) return;
                        await historyDb.clear();
                        await client.invalidateQueries({queryKey: historyKey});
                    }}>Clear all</button>
                </div>
                <div className="muted small">{found.length} of {entries.length} runs · the latest {maxHistoryEntries} are kept on this machine</div>
                {isLoading && <div className="muted">Loading…</div>}
                <ul className="history-list">
                    {found.map((entry) => <HistoryRow key={entry.id} entry={entry} selected={entry.id === selected?.id} onSelect={() => setSelectedId(entry.id)} />)}
                </ul>
                {!isLoading && entries.length === 0 && <div className="empty-state">No runs yet. Every request you run in a playground is saved here.</div>}
            </div>
            <div className="history-detail-pane">
                {selected ? <HistoryDetail entry={selected} /> : <div className="empty-state">Select a run to see it.</div>}
            </div>
        </div>
    );
}
