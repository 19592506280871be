// The History screen: saved runs, searchable; one opens back in its playground.
import {useQueryClient} from "@tanstack/react-query";
import {useState} from "react";
import type {JsonBody} from "../../../../client/sdk/index.ts";
import {ApiErrorView} from "../../ui/ApiErrorView.tsx";
import {ScreenErrorBoundary} from "../../ui/ScreenErrorBoundary.tsx";
import {useNavStore} from "../../ui/appState.ts";
import {draftFromChatRequest, type ChatReply} from "../playground/chat.ts";
import {draftFromCompletionsRequest} from "../playground/completions.ts";
import {draftFromResponsesRequest, type ResponsesReply} from "../playground/responses.ts";
import {AnswerCard, RunMeta} from "../decisions/RunPanel.tsx";
import {isDecisionRun, openDecisionRun, resultOfRun} from "../decisions/historyRuns.ts";
import {JsonBlock, RunStats} from "../playground/runViews.tsx";
import {historyDb, historyKey, useHistory, type HistoryEntry, type RunState} from "../playground/runs.ts";
import {useChatStore, useCompletionsStore, useResponsesStore} from "../playground/stores.ts";
import {searchHistory, summarizeEntry, replyText} from "./history.ts";

/**
 * The runs saved on this machine, newest first, read a page at a time (Show older runs reads the next); the runs shown
 * are searchable, and a selected run can be re-opened in its playground.
 */
export function HistoryScreen() {
    const {data, isLoading, hasNextPage, fetchNextPage, isFetchingNextPage} = useHistory();
    const entries = data?.pages.flatMap((page) => page.entries) ?? [];
    const total = data?.pages[0]?.total ?? 0;
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
                    <button type="button" className="btn btn-sm" disabled={total === 0} onClick={async () => {
                        if (!confirm("Delete all saved runs?")) return;
                        await historyDb.clear();
                        await client.invalidateQueries({queryKey: historyKey});
                    }}>Clear all</button>
                </div>
                <div className="muted small" data-testid="history-count">
                    {query.trim() === "" ? `${entries.length} of ${total} runs shown` : `${found.length} of the ${entries.length} runs shown match`} · all are kept on this machine
                </div>
                {isLoading && <div className="muted">Loading…</div>}
                <ul className="history-list">
                    {found.map((entry) => <HistoryRow key={entry.id} entry={entry} selected={entry.id === selected?.id} onSelect={() => setSelectedId(entry.id)} />)}
                </ul>
                {hasNextPage && (
                    <button type="button" className="btn btn-sm" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()} data-testid="history-more">
                        {isFetchingNextPage ? "Loading…" : query.trim() === "" ? "Show older runs" : "Search older runs too"}
                    </button>
                )}
                {!isLoading && total === 0 && <div className="empty-state">No runs yet. Every request you run in a playground or the Decision studio is saved here.</div>}
            </div>
            <div className="history-detail-pane">
                {selected
                    ? <ScreenErrorBoundary key={selected.id} what="This run" testId="history-detail-error"><HistoryDetail entry={selected} /></ScreenErrorBoundary>
                    : <div className="empty-state">Select a run to see it.</div>}
            </div>
        </div>
    );
}

type HistoryRowProps = {entry: HistoryEntry, selected: boolean, onSelect: () => void};

const time = new Intl.DateTimeFormat(undefined, {month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit"});

export function HistoryRow({entry, selected, onSelect}: HistoryRowProps) {
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

/** One stored run: request, reply (a decision run's answers and response), timings; re-open it in its screen or delete it. */
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
                    <button type="button" className="btn btn-primary btn-sm" onClick={() => openHistoryEntry(entry)} data-testid="history-open">
                        {isDecisionRun(entry) ? "Open in Decision studio" : "Open in playground"}</button>
                    <button type="button" className="btn btn-sm" onClick={async () => {
                        await historyDb.remove(entry.id);
                        await client.invalidateQueries({queryKey: historyKey});
                    }}>Delete</button>
                </div>
            </div>
            {entry.error && <ApiErrorView error={entry.error} />}
            {text && <><div className="card-label">Reply</div><div className="reply-text">{text}</div></>}
            {isDecisionRun(entry) ? <DecisionRun entry={entry} /> : <RunStats run={{timing: entry.timing, request: entry.request}} usage={usage} />}
            <JsonBlock label="Request" value={entry.request} testId="history-request" />
            {isDecisionRun(entry) && entry.reply != null && <JsonBlock label={entry.status === "error" ? "Error response" : "Response"} value={entry.reply} testId="history-response" />}
        </div>
    );
}

/** A decision run's figures and answers as the Decision studio shows them. */
function DecisionRun({entry}: {entry: Parameters<typeof resultOfRun>[0]}) {
    const result = resultOfRun(entry);
    return (
        <>
            <RunMeta result={result} />
            {result.views && (
                <div className="answer-grid" data-testid="history-answers">
                    {result.views.map((view) => <AnswerCard key={view.name} view={view} format={entry.kind} />)}
                </div>
            )}
        </>
    );
}

/** Puts a stored run back in its playground or the Decision studio: the request to edit or re-run, and the reply it got. */
export function openHistoryEntry(entry: HistoryEntry) {
    if (entry.kind === "decisions" || entry.kind === "systemone") return openDecisionRun({...entry, kind: entry.kind});
    const run: RunState = {status: entry.status, request: entry.request, connectionName: entry.connectionName, error: entry.error, timing: entry.timing};
    const body = entry.request as JsonBody;
    if (entry.kind === "chat") useChatStore.getState().loadDraft(draftFromChatRequest(body), entry.reply as ChatReply, run);
    if (entry.kind === "responses") useResponsesStore.getState().loadDraft(draftFromResponsesRequest(body), entry.reply as ResponsesReply, run);
    if (entry.kind === "completions") useCompletionsStore.getState().loadDraft(draftFromCompletionsRequest(body), entry.reply as ChatReply, run);
    useNavStore.getState().go(entry.kind);
}
