import {formatPath} from "../../../protocol/validation.ts";
import type {SystemoneErrorBody} from "../../../protocol/errors.ts";
import {HttpApiError} from "../HttpApiError.ts";
import {fallbackForStatus} from "./fallbackForStatus.ts";

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
