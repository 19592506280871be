import type {ChatMessage} from "../protocol/chat/types.ts";
import type {RetryOptions} from "./retry/retryPolicy.ts";

/** Any JSON object. */
export type JsonBody = Record<string, unknown>;

// protocol/ types the chat-family requests only in their validated form, so the wire bodies here name
// the required fields (spec 2.1, 2.4) and leave every other field open: the server is the validator.
export type ChatCompletionBody = {model: string, messages: ChatMessage[], [field: string]: unknown};
export type CompletionBody = {model: string, prompt: string | string[], [field: string]: unknown};
export type ResponsesBody = {model: string, input: string | unknown[], [field: string]: unknown};

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export type SvcClientOptions = {
    /** Service root, e.g. `http://127.0.0.1:8080` or a gateway prefix `http://127.0.0.1:5000/local`. */
    baseUrl: string,
    /** Sent as `Authorization: Bearer <apiKey>` (spec §5). */
    apiKey?: string,
    /** Extra headers on every call. */
    headers?: Record<string, string>,
    /** Defaults to the global fetch; inject one for proxies or tests. */
    fetch?: FetchLike,
    /** Retry settings of spec §7; `false` sends every request once. */
    retry?: RetryOptions | false,
    /** Per-attempt limit until the whole body (or, for streams, the first byte) has arrived. */
    timeoutMs?: number
};

export type RequestOptions = {
    signal?: AbortSignal,
    /** Sent as `X-Client-Trace-Id`; the server echoes it (spec §4). */
    traceId?: string,
    headers?: Record<string, string>,
    timeoutMs?: number,
    retry?: RetryOptions | false
};

export type StreamOptions = RequestOptions & {
    /** Called once the stream is open (first byte read), with the meta of its response. */
    onOpen?: (meta: ResponseMeta) => void
};

/** What a UI shows next to a result: status, timings, trace id, raw headers. */
export type ResponseMeta = {
    status: number,
    /** From `Server-Timing` (`total;dur=12.3`): server time until headers, ms; null when absent. */
    serverTimingMs: number | null,
    /** The `X-Client-Trace-Id` the server echoed; null when it echoed none. */
    traceId: string | null,
    /** Response headers, lower-case names. */
    headers: Record<string, string>,
    /** Attempts made, retries included. */
    attempts: number,
    /** Client-measured ms from the call until the body (streams: the first byte), retries included. */
    durationMs: number
};

export type ClientResult<T> = {data: T, meta: ResponseMeta};
