import type {ResponseMeta, FetchLike} from "./SvcClient.ts";
import {TransportError, invalidResponse, readApiError} from "./errors.ts";
import {abortReason} from "../../base/common/sleep.ts";
import {ApiError} from "../../protocol/errors.ts";

/** Copies response headers into a plain object (lower-case names) that a UI store can serialise. */
export function headersToRecord(headers: Headers): Record<string, string> {
    const record: Record<string, string> = {};
    headers.forEach((value, name) => {
        record[name.toLowerCase()] = value;
    });
    return record;
}

/**
 * Reads the `Server-Timing` header (spec §4) into milliseconds: the `total` metric when there is one,
 * otherwise the first metric that carries `dur`. Null when the header is absent or has no duration.
 * Format (W3C Server Timing): `metric;dur=12.3;desc="x", other;dur=4`.
 */
export function parseServerTiming(header: string | null | undefined): number | null {
    if (!header) return null;
    let first: number | null = null;
    for (const metric of header.split(",")) {
        const [rawName, ...params] = metric.split(";");
        const name = rawName.trim().toLowerCase();
        if (!name) continue;
        const dur = readDuration(params);
        if (dur === null) continue;
        if (name === "total") return dur;
        first ??= dur;
    }
    return first;
}

function readDuration(params: string[]): number | null {
    for (const param of params) {
        const equals = param.indexOf("=");
        if (equals < 0 || param.slice(0, equals).trim().toLowerCase() !== "dur") continue;
        const value = Number(param.slice(equals + 1).trim().replace(/^"|"$/g, ""));
        return Number.isFinite(value) && value >= 0 ? value : null;
    }
    return null;
}

/** The meta a UI shows next to a result; `startedAt` is a `performance.now()` reading. */
export function responseMeta(response: Response, attempts: number, startedAt: number): ResponseMeta {
    return {
        status: response.status,
        serverTimingMs: parseServerTiming(response.headers.get("server-timing")),
        traceId: response.headers.get("x-client-trace-id"),
        headers: headersToRecord(response.headers),
        attempts,
        durationMs: performance.now() - startedAt
    };
}

export type OpenedStream = {reader: ReadableStreamDefaultReader<Uint8Array>, first: Uint8Array};

/**
 * Reads a stream's first bytes; until they arrive the stream counts as not started, so a broken or
 * empty body is a transient network failure that may be retried (after them, nothing is retried).
 */
export async function readFirstBytes(response: Response): Promise<OpenedStream> {
    const type = response.headers.get("content-type") ?? "";
    // A server that ignored `stream: true` answers JSON; say so instead of reporting an empty stream.
    if (/^application\/json/i.test(type)) {
        const text = await response.text();
        throw invalidResponse(response.status, "Expected an event stream, got a JSON body", text, headersToRecord(response.headers));
    }
    if (!response.body) throw new TransportError("network", "The stream response has no body");
    const reader = response.body.getReader();
    for (;;) {
        const {done, value} = await reader.read();
        if (done) throw new TransportError("network", "The stream closed before sending any data");
        if (value && value.byteLength > 0) return {reader, first: value};
    }
}

/** Reads a 2xx body as JSON; a body that is not JSON is a protocol error, not a retryable one. */
export async function readJsonBody(response: Response): Promise<unknown> {
    const text = await response.text();
    try {
        return JSON.parse(text);
    } catch {
        throw invalidResponse(response.status, `Expected a JSON body, got: ${text.slice(0, 200) || "(empty)"}`, text, headersToRecord(response.headers));
    }
}

/**
 * Yields the first bytes already read, then the rest of the body. An abort cancels the reader even when
 * an injected fetch ignores signals; a connection that breaks later is an `interrupted` TransportError.
 * `release` runs once, however the reading ends.
 */
export async function* streamBytes(opened: OpenedStream, signal: AbortSignal, release: () => void): AsyncGenerator<Uint8Array, void, undefined> {
    const {reader} = opened;
    const onAbort = () => {
        reader.cancel(abortReason(signal)).catch(() => undefined);
    };
    signal.addEventListener("abort", onAbort, {once: true});
    let finished = false;
    try {
        yield opened.first;
        for (;;) {
            let result: ReadableStreamReadResult<Uint8Array>;
            try {
                result = await reader.read();
            } catch (error) {
                finished = true;
                if (signal.aborted) throw abortReason(signal);
                throw new TransportError("interrupted", "The stream broke off", {cause: error});
            }
            if (signal.aborted) {
                finished = true;
                throw abortReason(signal);
            }
            if (result.done) {
                finished = true;
                return;
            }
            if (result.value.byteLength > 0) yield result.value;
        }
    } finally {
        signal.removeEventListener("abort", onAbort);
        if (!finished) await reader.cancel().catch(() => undefined);
        release();
    }
}

export type AttemptRequest = {
    fetch: FetchLike,
    url: string,
    init: RequestInit,
    /** The caller's signal: aborting it ends the attempt and, for streams, the reading afterwards. */
    signal?: AbortSignal,
    /** Limit for fetch plus `consume`; not for what is read after `consume` returns. */
    timeoutMs?: number
};

export type Attempt<T> = {
    value: T,
    response: Response,
    /** Aborts when the caller's signal does; a stream reader watches it after `consume` returned. */
    signal: AbortSignal,
    /** Unhooks the caller's signal; call it when the response is fully read. */
    release: () => void
};

/**
 * One HTTP attempt: fetch, turn a non-2xx into an ApiError, then `consume` (read the JSON body, or a
 * stream's first bytes) under the timeout. Failures come out classified for the retry policy: the
 * caller's abort reason as is, ApiError as is, TransportError for timeouts and broken connections.
 */
export async function runAttempt<T>(request: AttemptRequest, consume: (response: Response) => Promise<T>): Promise<Attempt<T>> {
    const {signal: userSignal} = request;
    if (userSignal?.aborted) throw abortReason(userSignal);
    const controller = new AbortController();
    const onUserAbort = () => controller.abort(abortReason(userSignal!));
    userSignal?.addEventListener("abort", onUserAbort, {once: true});
    const release = () => userSignal?.removeEventListener("abort", onUserAbort);

    let timedOut = false;
    const timer = request.timeoutMs != null && request.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort(new TransportError("timeout", `No response within ${request.timeoutMs} ms`));
        }, request.timeoutMs)
        : undefined;

    try {
        const response = await request.fetch(request.url, {...request.init, signal: controller.signal});
        if (!response.ok) throw await readApiError(response);
        const value = await consume(response);
        return {value, response, signal: controller.signal, release};
    } catch (error) {
        release();
        // Closes whatever is left of the connection (an unread body) before a retry opens another.
        if (!controller.signal.aborted) controller.abort();
        if (userSignal?.aborted) throw abortReason(userSignal);
        if (timedOut) throw new TransportError("timeout", `No response within ${request.timeoutMs} ms`, {cause: error});
        if (error instanceof ApiError || error instanceof TransportError) throw error;
        if (error instanceof DOMException && error.name === "AbortError") throw error;
        throw new TransportError("network", `Request to ${request.url} failed: ${describe(error)}`, {cause: error});
    } finally {
        clearTimeout(timer);
    }
}

function describe(error: unknown): string {
    if (!(error instanceof Error)) return String(error);
    // Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, ...) is on the cause.
    const cause = (error as {cause?: unknown}).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}
