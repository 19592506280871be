import {ApiError, type ApiErrorOptions, type SystemoneErrorBody} from "../../protocol/errors.ts";
import {formatPath} from "../../protocol/validation.ts";
import {headersToRecord} from "./http.ts";
import {parseRetryAfter} from "../../base/common/retryAfter.ts";

export type HttpApiErrorOptions = ApiErrorOptions & {
    /** The `type` the server sent; ApiError otherwise derives it from the code. */
    type?: string,
    /** `/v1/decisions`: the error's reference string. */
    ref?: string,
    /** `/v1/systemone` 422: one entry per problem, with its `loc` path. */
    detail?: SystemoneErrorBody["detail"],
    /** The parsed JSON body, the raw text when it was not JSON, or null when empty. */
    body?: unknown,
    /** Response headers, lower-case names. */
    headers?: Record<string, string>
};

/**
 * An ApiError read back from a server's response: the spec §7 fields plus what a UI needs to show the
 * failure as the server sent it (raw body, 422 details, headers, echoed trace id).
 */
export class HttpApiError extends ApiError {
    public readonly ref?: string;
    public readonly detail?: SystemoneErrorBody["detail"];
    public readonly body: unknown;
    public readonly headers: Record<string, string>;
    public readonly traceId: string | null;

    public constructor(status: number, code: string, message: string, options: HttpApiErrorOptions = {}) {
        super(status, code, message, options);
        this.name = "HttpApiError";
        // ApiError maps code -> type for the server side; a client must report the type it was given.
        if (options.type !== undefined)
            Object.defineProperty(this, "type", {value: options.type, enumerable: true});
        this.ref = options.ref;
        this.detail = options.detail;
        this.body = options.body ?? null;
        this.headers = options.headers ?? {};
        this.traceId = this.headers["x-client-trace-id"] ?? null;
    }
}

/**
 * A request that got no HTTP answer: the connection failed (`network`), the client's own timeout fired
 * (`timeout`), or a stream broke off before its end (`interrupted`). Spec §7 treats the first two as
 * transient; an interrupted stream is not retried because its first bytes were already delivered.
 */
export class TransportError extends Error {
    public readonly kind: "network" | "timeout" | "interrupted";

    public constructor(kind: TransportError["kind"], message: string, options: {cause?: unknown} = {}) {
        super(message, options.cause === undefined ? undefined : {cause: options.cause});
        this.name = "TransportError";
        this.kind = kind;
    }
}

/** A 2xx whose body breaks the protocol (not JSON, not an event stream); never retried. */
export function invalidResponse(status: number, message: string, text: string, headers?: Record<string, string>): HttpApiError {
    return new HttpApiError(status, "invalid_response", message, {type: "api_error", body: text || null, headers});
}

// The spec §7 code and type a status stands for, used when the body names none (some 5xx have no body).
const byStatus: Record<number, {code: string, type: string}> = {
    400: {code: "invalid_request", type: "invalid_request_error"},
    401: {code: "invalid_api_key", type: "authentication_error"},
    402: {code: "insufficient_quota", type: "insufficient_quota"},
    404: {code: "not_found", type: "invalid_request_error"},
    408: {code: "request_timeout", type: "invalid_request_error"},
    413: {code: "payload_too_large", type: "invalid_request_error"},
    422: {code: "validation_error", type: "invalid_request_error"},
    429: {code: "rate_limit_exceeded", type: "rate_limit_exceeded"},
    502: {code: "upstream_error", type: "api_error"},
    503: {code: "service_unavailable", type: "api_error"}
};

export function fallbackForStatus(status: number): {code: string, type: string} {
    return byStatus[status] ?? (status >= 500
        ? {code: "server_error", type: "api_error"}
        : {code: `http_${status}`, type: "invalid_request_error"});
}

const snippetLength = 300;

export type ErrorSource = {
    status: number,
    /** Shown when the body says nothing, e.g. `HTTP 503 Service Unavailable`. */
    statusLine: string,
    /** The parsed JSON body, or undefined when the body was empty or not JSON. */
    json: unknown,
    text: string,
    headers?: Record<string, string>,
    retryAfter?: number
};

/**
 * Builds the ApiError a body stands for: the `{error: {...}}` envelope, the `{detail: [...]}` 422 body
 * of `/v1/systemone`, or anything else (a 5xx with an HTML page or no body), classified by status.
 */
export function apiErrorFromBody(source: ErrorSource): HttpApiError {
    const fallback = fallbackForStatus(source.status);
    const common = {
        headers: source.headers,
        body: source.json === undefined ? (source.text || null) : source.json,
        retryAfter: source.retryAfter
    };

    const envelope = readEnvelope(source.json);
    if (envelope) {
        return new HttpApiError(source.status, envelope.code ?? fallback.code, envelope.message ?? source.statusLine, {
            ...common,
            type: envelope.type ?? fallback.type,
            param: envelope.param,
            ref: envelope.ref,
            usage: (source.json as {usage?: unknown}).usage
        });
    }

    const detail = readDetail(source.json);
    if (detail) return new HttpApiError(source.status, fallback.code, detail.message, {...common, type: fallback.type, detail: detail.items});

    const snippet = source.text.trim().slice(0, snippetLength);
    return new HttpApiError(source.status, fallback.code, snippet ? `${source.statusLine}: ${snippet}` : source.statusLine, {...common, type: fallback.type});
}

type Envelope = {message?: string, type?: string, code?: string, param?: string | null, ref?: string};

function readEnvelope(body: unknown): Envelope | null {
    if (!isObject(body) || !isObject(body.error)) return null;
    const error = body.error;
    return {
        message: stringOr(error.message),
        type: stringOr(error.type),
        code: stringOr(error.code),
        param: typeof error.param === "string" || error.param === null ? error.param : undefined,
        ref: stringOr(error.ref)
    };
}

function readDetail(body: unknown): {message: string, items?: SystemoneErrorBody["detail"]} | null {
    if (!isObject(body)) return null;
    // FastAPI-style servers send a plain string detail for errors other than validation.
    if (typeof body.detail === "string") return {message: body.detail};
    if (!Array.isArray(body.detail)) return null;
    const items = body.detail.filter(isObject).map((item) => ({
        loc: Array.isArray(item.loc) ? item.loc.filter((part): part is string | number => typeof part === "string" || typeof part === "number") : [],
        msg: typeof item.msg === "string" ? item.msg : JSON.stringify(item.msg),
        type: typeof item.type === "string" ? item.type : "value_error"
    }));
    const message = items.map((item) => `${formatPath(item.loc)}: ${item.msg}`).join("; ") || "Unprocessable request";
    return {message, items};
}

function isObject(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}

function stringOr(value: unknown): string | undefined {
    return typeof value === "string" ? value : undefined;
}

/**
 * Turns a non-2xx response into an ApiError (spec §7), whatever its body: the `{error: {...}}`
 * envelope, the `{detail: [...]}` 422 body of `/v1/systemone`, or a 5xx with no JSON at all.
 * Status and `Retry-After` (seconds or HTTP date, as seconds) are always kept: retries decide on them.
 */
export async function readApiError(response: Response, now: number = Date.now()): Promise<HttpApiError> {
    const text = await readTextQuietly(response);
    return apiErrorFromBody({
        status: response.status,
        statusLine: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
        json: parseJson(text),
        text,
        headers: headersToRecord(response.headers),
        retryAfter: parseRetryAfter(response.headers.get("retry-after"), now) ?? undefined
    });
}

async function readTextQuietly(response: Response): Promise<string> {
    try {
        return await response.text();
    } catch {
        // The body broke off; the status alone still classifies the error.
        return "";
    }
}

function parseJson(text: string): unknown {
    if (!text.trim()) return undefined;
    try {
        return JSON.parse(text);
    } catch {
        return undefined;
    }
}
