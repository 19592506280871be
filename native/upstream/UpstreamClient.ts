import {ApiError} from "../../protocol/errors.ts";
import {parseRetryAfter} from "../../base/common/retryAfter.ts";
import {closedBeforeAnswer, UpstreamPool, type UpstreamPoolOptions} from "./upstreamPool.ts";

/** `svc-studio serve --upstream`: the OpenAI-compatible engine this server fronts (vLLM, SGLang, llama-server). */
export type UpstreamOptions = {
    /** Its OpenAI base URL, e.g. `http://vllm:8000/v1`. */
    baseUrl: string,
    /** The model name it serves to send in every body; the first of its `/models` when absent. */
    model?: string,
    /** Bearer key it wants (read from the environment variable `--upstream-key-env` names, never from argv). */
    apiKey?: string,
    /**
     * A local copy of the upstream's model as GGUF (only its vocabulary and chat template are read): decision
     * prompts and label tokens are then tokenized here exactly as the local engine does, and sent as token ids.
     */
    tokenizerPath?: string,
    /** Connections to it and requests waiting for one (upstreamPool.ts has the defaults and why). */
    pool?: UpstreamPoolOptions
};

/** Seconds a 429 or 503 from the upstream asks to wait when it sends no usable `Retry-After` (spec §7: honour it). */
const defaultRetryAfterSeconds = 1;

/**
 * Talks to the upstream engine: JSON posts and streams with its key, every failure turned into the spec's errors
 * (§7) before it reaches a route, so a client of this server never sees the upstream's own envelope or a 500.
 * Requests carry the route's abort signal: a client that goes away cancels the upstream request too. They go through
 * a pool of this client's own (upstreamPool.ts), not the process's global fetch dispatcher.
 */
export class UpstreamClient {
    /** The OpenAI base URL, without a trailing slash. */
    public readonly baseUrl: string;
    /** The server root, for the engine's own endpoints beside `/v1` (llama-server's `/props`, `/tokenize`). */
    public readonly rootUrl: string;
    private readonly apiKey?: string;
    /** The connections to the upstream, and the requests waiting for one (the `/metrics` queue depth). */
    public readonly pool: UpstreamPool;
    /** Requests being answered through the upstream now (the `/metrics` busy gauge of the fronted model). */
    public active = 0;

    public constructor({baseUrl, apiKey, pool}: Pick<UpstreamOptions, "baseUrl" | "apiKey" | "pool">) {
        this.baseUrl = baseUrl.replace(/\/+$/, "");
        this.rootUrl = this.baseUrl.replace(/\/v1$/, "");
        this.apiKey = apiKey;
        this.pool = new UpstreamPool(new URL(this.baseUrl), pool);
    }

    /** Closes the pool's kept connections. */
    public close() {
        this.pool.close();
    }

    /** POSTs `body` to `{baseUrl}{path}` and returns the response once its status is a success; else throws the mapped ApiError. */
    public async post(path: string, body: unknown, signal: AbortSignal): Promise<Response> {
        return this.send(this.baseUrl + path, {method: "POST", body: JSON.stringify(body)}, signal);
    }

    public async postJson<T>(path: string, body: unknown, signal: AbortSignal): Promise<T> {
        return readJson<T>(await this.post(path, body, signal), this.baseUrl + path);
    }

    /** GETs a JSON document by absolute URL (the probe reads `/models` and `/props`). */
    public async getJson<T>(url: string, signal: AbortSignal): Promise<T> {
        return readJson<T>(await this.send(url, {method: "GET"}, signal), url);
    }

    /** Runs one route's whole exchange with the upstream, counted in `active` until it ends (streams included). */
    public async track<T>(work: () => Promise<T>): Promise<T> {
        this.active++;
        try {
            return await work();
        } finally {
            this.active--;
        }
    }

    private async send(url: string, init: {method: string, body?: string}, signal: AbortSignal): Promise<Response> {
        const headers: Record<string, string> = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"};
        if (this.apiKey != null) headers.Authorization = `Bearer ${this.apiKey}`;
        let response: Response;
        try {
            response = await this.pool.request(url, {...init, headers}, signal);
        } catch (error) {
            if (error instanceof ApiError) throw error;
            // A deadline of our own (the probe's) passing is the upstream not answering: a 502 like any other failure.
            if (signal.aborted && (signal.reason as Error | undefined)?.name === "TimeoutError")
                throw new ApiError(502, "upstream_error", `the upstream engine at ${new URL(url).origin} did not answer in time; retry with backoff`);
            if (signal.aborted) throw signal.reason ?? error;
            // A new connection closed before answering, while the upstream answers this front's other requests: it
            // takes no more work now (its accept queue or its own connection limit is full), which is spec §7's 429.
            if (closedBeforeAnswer(error) && this.pool.answering > 0)
                throw new ApiError(429, "service_busy", `the upstream engine at ${new URL(url).origin} is saturated: it closed a new connection ` +
                    `while answering ${this.pool.answering} others; retry after 1 s`, {retryAfter: 1});
            throw unreachable(url, error);
        }
        if (!response.ok) {
            const text = await response.text().catch(() => "");
            throw upstreamStatusError(response.status, text, response.headers.get("retry-after"));
        }
        return response;
    }
}

async function readJson<T>(response: Response, url: string): Promise<T> {
    const text = await response.text();
    try {
        return JSON.parse(text) as T;
    } catch {
        throw new ApiError(502, "upstream_error", `the upstream engine answered ${url} with a body that is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
    }
}

/** Spec §7: the model service cannot be reached (refused, reset, DNS) is a 502 `upstream_error`, retried with backoff. */
export function unreachable(url: string, error: unknown): ApiError {
    const {code, cause} = error as {code?: string, cause?: {code?: string, message?: string}};
    const detail = code ?? cause?.code ?? cause?.message ?? (error as Error).message;
    return new ApiError(502, "upstream_error", `the upstream engine at ${new URL(url).origin} cannot be reached (${detail}); retry with backoff`);
}

/** The upstream's own error message, whatever its envelope (OpenAI's `{error: {message}}`, vLLM's, llama-server's). */
function upstreamMessage(text: string): string {
    try {
        const body = JSON.parse(text) as {error?: {message?: unknown} | string, message?: unknown, detail?: unknown};
        const message = typeof body.error === "string" ? body.error : body.error?.message ?? body.message ?? body.detail;
        if (message != null) return typeof message === "string" ? message : JSON.stringify(message);
    } catch {
        // Not JSON: the text itself, cut short.
    }
    return text.slice(0, 300) || "(no body)";
}

/**
 * An upstream error status as the spec's error (§7). Our own validation ran first, so a 400/413/422 from the
 * upstream is something only it can know (its context window, its model's limits): a 400 `request_rejected`
 * naming the upstream's reason. 429 and 503 keep their meaning and their `Retry-After`. Its 401/403/404 are this
 * server's misconfiguration (key, model name), not the caller's, so they are a 502 like its other failures.
 */
export function upstreamStatusError(status: number, text: string, retryAfterHeader: string | null): ApiError {
    const message = upstreamMessage(text);
    const retryAfter = () => {
        const seconds = parseRetryAfter(retryAfterHeader);
        return seconds == null ? defaultRetryAfterSeconds : Math.ceil(seconds);
    };
    if (status === 400 || status === 413 || status === 422)
        return new ApiError(400, "request_rejected", `the upstream engine refused the request: ${message}`);
    if (status === 429)
        return new ApiError(429, "service_busy", `the upstream engine is busy: ${message}`, {retryAfter: retryAfter()});
    if (status === 503)
        return new ApiError(503, "service_unavailable", `the upstream engine is unavailable: ${message}`, {retryAfter: retryAfter()});
    if (status === 401 || status === 403)
        return new ApiError(502, "upstream_error", `the upstream engine refused this server's key (HTTP ${status}: ${message}); check --upstream-key-env`);
    return new ApiError(502, "upstream_error", `the upstream engine failed with HTTP ${status}: ${message}`);
}
