// A playground run: its state, how it is sent (streamed or not) with Stop, and the local history it is saved in.
import {useInfiniteQuery} from "@tanstack/react-query";
import type {JsonBody, ClientResult, ResponseMeta, SvcClient, SvcStream} from "../../../../client/sdk/index.ts";
import {appDataLimits} from "../../../../protocol/gateway/contract.ts";
import {reportAppDataProblem} from "../../gateway/appData.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import {activeConnection, svcClientFor, queryClient} from "../../gateway/gatewayState.ts";
import {type ErrorInfo, toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {newId} from "../../ui/browser.ts";
import {withLocalTokenIds} from "./probabilities.ts";

export type RunStatus = "idle" | "running" | "done" | "stopped" | "error";

/** A run's note when the page went away while it ran: kept as stopped, with what it had received. */
export const reloadStopNote = "the page reloaded while it ran";

/** Who stopped a run, for its badge: "stopped by you", or "stopped: the page reloaded while it ran". */
export function stoppedText(run: Pick<RunState, "note">): string {
    return run.note === reloadStopNote ? `stopped: ${reloadStopNote}` : "stopped by you";
}

export type RunTiming = {
    /** `Server-Timing` of the response: server time until headers (streams: before the first token). */
    serverTimingMs?: number | null,
    /** Client-measured: until the response headers and first bytes. */
    firstByteMs?: number,
    /** Client-measured: until the first content, reasoning or tool-call text. */
    firstTokenMs?: number,
    totalMs?: number,
    attempts?: number
};

export type RunState = {
    status: RunStatus,
    /** The body that was sent; View code shows the draft, this is what the reply belongs to. */
    request?: JsonBody,
    connectionName?: string,
    /** Where the request went: a local run may wait for the engine to start. */
    connectionKind?: "local" | "remote",
    error?: ErrorInfo,
    timing: RunTiming,
    /** "retrying in 1.2 s (HTTP 503)" while the client backs off. */
    note?: string
};

export const idleRun = (): RunState => ({status: "idle", timing: {}});

export type HistoryKind = "chat" | "responses" | "completions";

/** The Decision studio's runs, by endpoint; History keeps them beside the playgrounds'. */
export type DecisionRunKind = "decisions" | "systemone";

/** One run as stored locally: what was sent, what came back, how long it took. Never a key. */
export type HistoryEntry = {
    id: string,
    kind: HistoryKind | DecisionRunKind,
    createdAt: number,
    connectionName: string,
    connectionKind: "local" | "remote",
    request: JsonBody,
    status: Exclude<RunStatus, "idle" | "running">,
    /** The reply shown at the end of the run (ChatReply or ResponsesReply; a decision run's response body as sent). */
    reply: unknown,
    error?: ErrorInfo,
    timing: RunTiming
};

/** Runs History reads at a time, newest first; "Show older runs" reads the next page. */
export const historyPageSize = appDataLimits.historyPageSize;

/** A page of History: its runs that could be read, the cursor of the next page (null: none), and how many runs are kept. */
export type HistoryPage = {entries: HistoryEntry[], next: string | null, total: number};

/**
 * What each page read so far could not read, by its cursor ("" for the first): the runs it left out for their shape, and
 * the gateway's sentences. Said together in the app's note.
 */
const pageProblems = new Map<string, {skipped: number, said: string[]}>();

/**
 * Run history in the app's database (the gateway's `/app-data/history`): runs hold images and long replies, and must
 * outlive the page's origin, which changes with the gateway's port at every launch. Kept with no bound but the disk,
 * and read a page at a time, so a long history costs a visit no more than the runs it shows.
 */
export const historyDb = {
    async add(entry: HistoryEntry): Promise<void> {
        await gatewayApi.addRun(entry);
    },
    /**
     * A page of runs, newest first, after the page whose `next` is `after` (null: the newest). A saved run that does not
     * have a run's shape is left out and reported, and the rest load.
     */
    async page(after: string | null): Promise<HistoryPage> {
        const page = await gatewayApi.runHistory({limit: historyPageSize, after});
        const saved = page.entries as unknown[];
        const entries = saved.flatMap((entry) => readHistoryEntry(entry) ?? []);
        const skipped = saved.length - entries.length;
        if (after === null) pageProblems.clear();
        pageProblems.set(after ?? "", {skipped, said: page.problems});
        reportHistoryProblems();
        return {entries, next: page.next, total: page.total};
    },
    async remove(id: string): Promise<void> {
        await gatewayApi.deleteRun(id);
    },
    async clear(): Promise<void> {
        await gatewayApi.clearHistory();
    }
};

/** The app's note about the runs History could not read: counted by the page, and said by the gateway. */
function reportHistoryProblems() {
    const pages = [...pageProblems.values()];
    const skipped = pages.reduce((sum, page) => sum + page.skipped, 0);
    const said = pages.flatMap((page) => page.said);
    const sentences = [...skipped === 0 ? [] : [`${skipped} saved run${skipped === 1 ? "" : "s"} could not be read (not a run this app saved, or cut short) and ${skipped === 1 ? "is" : "are"} not shown in History; the others are.`], ...said];
    reportAppDataProblem("history", sentences.length === 0 ? null : sentences.join(" "), said.length === 0 ? [] : [{label: "Dismiss", run: () => {
        reportAppDataProblem("history", null);
        pageProblems.clear();
        // What of the old history folder was kept aside stops being said; runs left out are said again when read again.
        void gatewayApi.acknowledgeItemProblems("run").catch(() => undefined);
    }}]);
}

const runKinds = new Set<string>(["chat", "responses", "completions", "decisions", "systemone"]);
const endStatuses = new Set<string>(["done", "stopped", "error"]);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A saved run checked against what History reads of it (id, kind, time, connection, request, status; its timing and
 * error when present); null when it does not fit. A run saved without timing reads as one with no figures.
 */
export function readHistoryEntry(value: unknown): HistoryEntry | null {
    if (!isObject(value)) return null;
    const {id, kind, createdAt, connectionName, connectionKind, request, status, timing, error} = value;
    if (typeof id !== "string" || typeof kind !== "string" || !runKinds.has(kind) || typeof createdAt !== "number" || !Number.isFinite(createdAt)) return null;
    if (typeof connectionName !== "string" || !isObject(request) || typeof status !== "string" || !endStatuses.has(status)) return null;
    if (timing !== undefined && !isObject(timing)) return null;
    if (error !== undefined && (!isObject(error) || typeof error.message !== "string")) return null;
    return {...value, connectionKind: connectionKind === "remote" ? "remote" : "local", timing: timing ?? {}} as HistoryEntry;
}

export const historyKey = ["history"] as const;

/** History's pages read so far; `fetchNextPage` reads the next older one. */
export function useHistory() {
    return useInfiniteQuery({
        queryKey: historyKey,
        queryFn: ({pageParam}) => historyDb.page(pageParam),
        initialPageParam: null as string | null,
        getNextPageParam: (last: HistoryPage) => last.next
    });
}

// One in-flight request per playground; the Stop button aborts it. Kept outside the stores because an
// AbortController is not state to render or persist.
const controllers = new Map<HistoryKind, AbortController>();

export function beginRun(kind: HistoryKind): AbortController {
    controllers.get(kind)?.abort();
    const controller = new AbortController();
    controllers.set(kind, controller);
    return controller;
}

export function stopRun(kind: HistoryKind) {
    controllers.get(kind)?.abort(new DOMException("Stopped by the user", "AbortError"));
}

export function endRun(kind: HistoryKind, controller: AbortController) {
    if (controllers.get(kind) === controller) controllers.delete(kind);
}

/** How long stream updates are gathered before the screen is redrawn: tokens can arrive thousands a second. */
const flushEveryMs = 40;

export type RunSpec<R> = {
    kind: HistoryKind,
    body: JsonBody,
    emptyReply: () => R,
    /** Folds one stream event into the reply. */
    applyEvent: (reply: R, event: JsonBody) => R,
    /** Reads a whole (non-streamed) response body. */
    fromResult: (data: JsonBody) => R,
    /** Whether the reply holds any output yet (time to first token). */
    hasOutput: (reply: R) => boolean,
    openStream: (client: SvcClient, body: JsonBody, options: {signal: AbortSignal, onOpen: (meta: ResponseMeta) => void}) => SvcStream<JsonBody>,
    callOnce: (client: SvcClient, body: JsonBody, options: {signal: AbortSignal}) => Promise<ClientResult<JsonBody>>,
    update: (patch: {reply?: R, run?: RunState}) => void
};

/**
 * Sends one playground request through the gateway, streamed or not, and keeps the screen up to date:
 * the reply as it grows, timings, and the error exactly as the server returned it. Stop aborts it and
 * keeps what arrived. Every run ends up in the local history.
 */
export async function executeRun<R>(spec: RunSpec<R>): Promise<void> {
    const connection = activeConnection();
    const controller = beginRun(spec.kind);
    const startedAt = performance.now();
    const timing: RunTiming = {};
    let reply = spec.emptyReply();
    // Local-only extensions go to the local engine alone; the body stored with the run is the one sent.
    const body = connection.kind === "local" ? withLocalTokenIds(spec.body) : spec.body;
    let run: RunState = {status: "running", request: body, connectionName: connection.name, connectionKind: connection.kind, timing};
    spec.update({reply, run});

    const client = svcClientFor(connection, {
        maxAttempts: 2,
        onRetry: ({delayMs, error}) => {
            run = {...run, note: `retrying in ${(delayMs / 1000).toFixed(1)} s (${toErrorInfo(error).message})`};
            spec.update({run});
        }
    });
    const setMeta = (meta: ResponseMeta) => {
        timing.serverTimingMs = meta.serverTimingMs;
        timing.firstByteMs = meta.durationMs;
        timing.attempts = meta.attempts;
    };

    try {
        if (body.stream === true) {
            let lastFlush = 0;
            const stream = spec.openStream(client, body, {signal: controller.signal, onOpen: setMeta});
            for await (const event of stream) {
                reply = spec.applyEvent(reply, event);
                if (timing.firstTokenMs === undefined && spec.hasOutput(reply)) timing.firstTokenMs = performance.now() - startedAt;
                const now = performance.now();
                if (now - lastFlush >= flushEveryMs) {
                    lastFlush = now;
                    spec.update({reply, run: {...run, note: undefined, timing: {...timing}}});
                }
            }
        } else {
            const {data, meta} = await spec.callOnce(client, body, {signal: controller.signal});
            setMeta(meta);
            reply = spec.fromResult(data);
        }
        run = {...run, status: "done", note: undefined};
    } catch (error) {
        run = controller.signal.aborted
            ? {...run, status: "stopped", note: undefined}
            : {...run, status: "error", note: undefined, error: toErrorInfo(error)};
    } finally {
        endRun(spec.kind, controller);
    }
    timing.totalMs = performance.now() - startedAt;
    run = {...run, timing: {...timing}};
    spec.update({reply, run});
    await saveToHistory({...spec, body}, connection, reply, run);
}

async function saveToHistory<R>(spec: RunSpec<R>, connection: ReturnType<typeof activeConnection>, reply: R, run: RunState) {
    await saveRun({
        kind: spec.kind,
        connectionName: connection.name,
        connectionKind: connection.kind,
        request: spec.body,
        status: run.status === "done" || run.status === "stopped" ? run.status : "error",
        reply,
        error: run.error,
        timing: run.timing
    });
}

/**
 * Adds a finished run to History. Never throws: History is a convenience, so a full disk or a run too big to keep must
 * not turn a finished run into a failure; the app's note says the run was not kept.
 */
export async function saveRun(run: Omit<HistoryEntry, "id" | "createdAt">): Promise<void> {
    try {
        await historyDb.add({id: newId(), createdAt: Date.now(), ...run});
        reportAppDataProblem("history-save", null);
        await queryClient.invalidateQueries({queryKey: historyKey});
    } catch (error) {
        reportAppDataProblem("history-save", `The last run could not be saved to History (${error instanceof Error ? error.message : String(error)}).`);
    }
}
