import {ApiError} from "../../protocol/errors.ts";
import type {ChatMessage, ChatCompletion, ChatCompletionChunk} from "../../protocol/chat/types.ts";
import {type RetryOptions, retryPolicy, withRetry} from "./retry.ts";
import {modelIds} from "../../protocol/limits.ts";
import {readFirstBytes, readJsonBody, runAttempt, type Attempt, streamBytes, responseMeta} from "./http.ts";
import {parseSse, type ParsedSseEvent} from "../../base/common/sse.ts";
import {readChatChunks, readResponsesEvents} from "./streams.ts";
import type {TextCompletion} from "../../protocol/completions.ts";
import type {DecisionsRequest, DecisionsResponse, SystemoneRequest, SystemoneResponse} from "../../protocol/decisions/types.ts";
import type {ModelList, ModelObject} from "../../protocol/models/types.ts";
import type {ResponseObject, ResponseStreamEvent} from "../../protocol/responses/types.ts";

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

/** Endpoint paths under the service root (spec §4): the model segment comes before `/v1`. */
export const apiPaths = {
    chatCompletions: `/${modelIds.chat}/v1/chat/completions`,
    responses: `/${modelIds.chat}/v1/responses`,
    completions: `/${modelIds.chat}/v1/completions`,
    models: `/${modelIds.chat}/v1/models`,
    decisions: `/${modelIds.decision}/v1/decisions`,
    systemone: `/${modelIds.decision}/v1/systemone`
} as const;

/**
 * A streamed answer: iterate it with `for await`. The request is sent when iteration starts, and only
 * once; `meta` is filled in as soon as the first bytes arrived. Leaving the loop early (break, throw)
 * cancels the download; pass an AbortSignal in the options to stop it from elsewhere.
 */
export class SvcStream<T> implements AsyncIterable<T> {
    /** Status, timings and headers of the response; null until the stream opened. */
    public meta: ResponseMeta | null = null;
    private started = false;
    private readonly start: (setMeta: (meta: ResponseMeta) => void) => AsyncGenerator<T, void, undefined>;

    public constructor(start: (setMeta: (meta: ResponseMeta) => void) => AsyncGenerator<T, void, undefined>) {
        this.start = start;
    }

    public [Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
        if (this.started) throw new Error("An SvcStream can be iterated only once; call the stream method again for a new request");
        this.started = true;
        return this.start((meta) => {
            this.meta = meta;
        });
    }

    /** Reads the whole stream into an array (tests, or callers that only want the final state). */
    public async toArray(): Promise<T[]> {
        const items: T[] = [];
        for await (const item of this) items.push(item);
        return items;
    }
}

type Decode<T> = (events: AsyncIterable<ParsedSseEvent>, status: number) => AsyncGenerator<T, void, undefined>;

/**
 * Talks to any server of the svc API (spec §4) from Node or a browser, with fetch only. Non-stream
 * calls resolve to `{data, meta}`; stream calls return an SvcStream to iterate. Failures throw an
 * ApiError (HttpApiError) for HTTP errors or a TransportError for timeouts and broken connections,
 * after the spec §7 retries. Type parameters let callers name the response shape they expect.
 */
export class SvcClient {
    public readonly baseUrl: string;
    private readonly options: SvcClientOptions;
    private readonly fetchImpl: FetchLike;

    public constructor(options: SvcClientOptions) {
        if (!options.baseUrl) throw new TypeError("SvcClient needs a baseUrl, e.g. http://127.0.0.1:8080");
        this.options = options;
        this.baseUrl = options.baseUrl.replace(/\/+$/, "");
        // Called through globalThis: browsers throw "Illegal invocation" for a detached fetch.
        this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    }

    public chatCompletions<T = ChatCompletion>(body: ChatCompletionBody, options: RequestOptions = {}): Promise<ClientResult<T>> {
        return this.postJson<T>(apiPaths.chatCompletions, body, options, "streamChatCompletions");
    }

    public streamChatCompletions<T = ChatCompletionChunk>(body: ChatCompletionBody, options: StreamOptions = {}): SvcStream<T> {
        return this.openStream<T>(apiPaths.chatCompletions, body, options, readChatChunks);
    }

    public completions<T = TextCompletion>(body: CompletionBody, options: RequestOptions = {}): Promise<ClientResult<T>> {
        return this.postJson<T>(apiPaths.completions, body, options, "streamCompletions");
    }

    public streamCompletions<T = TextCompletion>(body: CompletionBody, options: StreamOptions = {}): SvcStream<T> {
        return this.openStream<T>(apiPaths.completions, body, options, readChatChunks);
    }

    public responses<T = ResponseObject>(body: ResponsesBody, options: RequestOptions = {}): Promise<ClientResult<T>> {
        return this.postJson<T>(apiPaths.responses, body, options, "streamResponses");
    }

    public streamResponses<T extends {type: string} = ResponseStreamEvent>(body: ResponsesBody, options: StreamOptions = {}): SvcStream<T> {
        return this.openStream<T>(apiPaths.responses, body, options, readResponsesEvents<T>);
    }

    public listModels<T = ModelList>(options: RequestOptions = {}): Promise<ClientResult<T>> {
        return this.requestJson<T>("GET", apiPaths.models, undefined, options);
    }

    public retrieveModel<T = ModelObject>(model = "svc-1", options: RequestOptions = {}): Promise<ClientResult<T>> {
        return this.requestJson<T>("GET", `${apiPaths.models}/${encodeURIComponent(model)}`, undefined, options);
    }

    public decisions<T = DecisionsResponse>(body: DecisionsRequest, options: RequestOptions = {}): Promise<ClientResult<T>> {
        return this.requestJson<T>("POST", apiPaths.decisions, body, options);
    }

    public systemone<T = SystemoneResponse>(body: SystemoneRequest, options: RequestOptions = {}): Promise<ClientResult<T>> {
        return this.requestJson<T>("POST", apiPaths.systemone, body, options);
    }

    private postJson<T>(path: string, body: JsonBody, options: RequestOptions, streamMethod: string): Promise<ClientResult<T>> {
        // A `stream: true` body would come back as SSE that this method cannot return.
        if (body.stream === true) return Promise.reject(new TypeError(`body.stream is true: use ${streamMethod}() for streaming`));
        return this.requestJson<T>("POST", path, body, options);
    }

    private async requestJson<T>(method: "GET" | "POST", path: string, body: JsonBody | undefined, options: RequestOptions): Promise<ClientResult<T>> {
        const startedAt = performance.now();
        const {value: attempt, attempts} = await this.withAttempts(method, path, body, options, "application/json", readJsonBody);
        attempt.release();
        return {data: attempt.value as T, meta: responseMeta(attempt.response, attempts, startedAt)};
    }

    private openStream<T>(path: string, body: JsonBody, options: StreamOptions, decode: Decode<T>): SvcStream<T> {
        return new SvcStream<T>((setMeta) => this.runStream(path, {...body, stream: true}, options, decode, setMeta));
    }

    private async *runStream<T>(path: string, body: JsonBody, options: StreamOptions, decode: Decode<T>, setMeta: (meta: ResponseMeta) => void): AsyncGenerator<T, void, undefined> {
        const startedAt = performance.now();
        // Retries cover everything up to the first byte; once data flowed, a failure is the caller's.
        const {value: attempt, attempts} = await this.withAttempts("POST", path, body, options, "text/event-stream", readFirstBytes);
        try {
            const meta = responseMeta(attempt.response, attempts, startedAt);
            setMeta(meta);
            options.onOpen?.(meta);
        } catch (error) {
            attempt.release();
            await attempt.value.reader.cancel().catch(() => undefined);
            throw error;
        }
        const events = parseSse(streamBytes(attempt.value, attempt.signal, attempt.release));
        yield* decode(events, attempt.response.status);
    }

    private withAttempts<V>(method: "GET" | "POST", path: string, body: JsonBody | undefined, options: RequestOptions, accept: string, consume: (response: Response) => Promise<V>): Promise<{value: Attempt<V>, attempts: number}> {
        const request = {
            fetch: this.fetchImpl,
            url: this.baseUrl + path,
            init: {method, headers: this.headersFor(options, accept, body !== undefined), body: body === undefined ? undefined : JSON.stringify(body)},
            signal: options.signal,
            timeoutMs: options.timeoutMs ?? this.options.timeoutMs
        };
        const policy = retryPolicy(mergeRetry(this.options.retry, options.retry));
        const pacer = policy.pacer;
        if (pacer === undefined) return withRetry(policy, options.signal, () => runAttempt(request, consume));
        // One rate limit covers one model of one server (spec §8): the lane is the base URL and the model segment.
        const lane = `${this.baseUrl}/${path.split("/")[1]}`;
        return withRetry(policy, options.signal, async () => {
            const ticket = await pacer.ready(lane, options.signal);
            try {
                const attempt = await runAttempt(request, consume);
                pacer.admitted(ticket);
                return attempt;
            } catch (error) {
                if (error instanceof ApiError) {
                    if (error.status === 429 && error.retryAfter != null) pacer.refused(ticket, error.retryAfter * 1000);
                    else pacer.admitted(ticket);
                }
                throw error;
            }
        });
    }

    private headersFor(options: RequestOptions, accept: string, hasBody: boolean): Headers {
        const headers = new Headers({accept});
        if (hasBody) headers.set("content-type", "application/json");
        if (this.options.apiKey) headers.set("authorization", `Bearer ${this.options.apiKey}`);
        for (const extra of [this.options.headers, options.headers])
            for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
        if (options.traceId) headers.set("x-client-trace-id", options.traceId);
        return headers;
    }
}

/** Per-call retry settings refine the client's; `false` on either side turns retries off there. */
function mergeRetry(client: RetryOptions | false | undefined, call: RetryOptions | false | undefined): RetryOptions | false {
    if (call === false) return false;
    if (call === undefined) return client ?? {};
    return {...(client || {}), ...call};
}
