import type {ClientResult, JsonBody, ResponseMeta, SvcClient, SvcStream} from "../../../client/sdk/index.ts";
import {activeConnection} from "../gateway/activeConnection.ts";
import {svcClientFor} from "../gateway/svcClientFor.ts";
import {historyDb} from "../history/historyDb.ts";
import {historyKey} from "../history/useHistory.ts";
import type {HistoryKind} from "../history/types.ts";
import {queryClient} from "../state/queryClient.ts";
import {newId} from "../utils/newId.ts";
import {beginRun, endRun} from "./runControllers.ts";
import {toErrorInfo} from "./toErrorInfo.ts";
import type {RunState, RunTiming} from "./types.ts";

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
    let run: RunState = {status: "running", request: spec.body, connectionName: connection.name, timing};
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
        if (spec.body.stream === true) {
            let lastFlush = 0;
            const stream = spec.openStream(client, spec.body, {signal: controller.signal, onOpen: setMeta});
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
            const {data, meta} = await spec.callOnce(client, spec.body, {signal: controller.signal});
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
    await saveToHistory(spec, connection, reply, run);
}

async function saveToHistory<R>(spec: RunSpec<R>, connection: ReturnType<typeof activeConnection>, reply: R, run: RunState) {
    try {
        await historyDb.add({
            id: newId(),
            kind: spec.kind,
            createdAt: Date.now(),
            connectionName: connection.name,
            connectionKind: connection.kind,
            request: spec.body,
            status: run.status === "done" || run.status === "stopped" ? run.status : "error",
            reply,
            error: run.error,
            timing: run.timing
        });
        await queryClient.invalidateQueries({queryKey: historyKey});
    } catch (error) {
        // History is a convenience; a full or blocked IndexedDB must not turn a finished run into a failure.
        console.warn("Could not save the run to history:", error);
    }
}
