import {ApiError} from "../errors/ApiError.ts";
import type {ErrorEnvelope, SystemoneErrorBody} from "../errors/types.ts";
import {formatPath, ValidationError} from "../validation/ValidationError.ts";

// Error bodies of the decision endpoints (spec 7). A request problem (ValidationError, or the SyntaxError of
// JSON.parse on a malformed body) is a 400 `invalid_request` envelope with `param` and `ref` on /v1/decisions
// and a 422 `{detail: [...]}` body on /v1/systemone. An ApiError (413, 429, 502, ...) keeps its status and
// envelope on both endpoints (spec 8: an oversized body is 413 on both). Anything else is an internal error
// whose message is not leaked.

export type DecisionErrorResponse<Body> = {status: number, body: Body, retryAfter?: number};

/** 422 `loc` follows the FastAPI convention the `detail`/`loc`/`msg`/`type` shape comes from: "body" first. */
const locRoot = "body";

export function decisionsErrorResponse(error: unknown, options: {ref?: string} = {}): DecisionErrorResponse<ErrorEnvelope> {
    const ref = options.ref ?? newRef();
    if (error instanceof SyntaxError)
        return {status: 400, body: {error: {message: `body: malformed JSON: ${error.message}`, type: "invalid_request_error", code: "invalid_request", param: null, ref}}};
    if (error instanceof ValidationError) {
        const first = error.path[0];
        // Spec 7 names `request_rejected` for an image that cannot be read; every other problem is invalid_request.
        const code = error.code ?? "invalid_request";
        return {status: 400, body: {error: {message: error.message, type: "invalid_request_error", code, param: typeof first === "string" ? first : null, ref}}};
    }
    if (error instanceof ApiError) {
        const envelope = error.toEnvelope();
        return {status: error.status, body: {...envelope, error: {...envelope.error, param: envelope.error.param ?? null, ref}}, retryAfter: error.retryAfter};
    }
    return {status: 500, body: {error: {message: "internal error", type: "api_error", code: "internal_error", param: null, ref}}};
}

export function systemoneErrorResponse(error: unknown): DecisionErrorResponse<SystemoneErrorBody | ErrorEnvelope> {
    if (error instanceof SyntaxError)
        return {status: 422, body: {detail: [{loc: [locRoot], msg: `JSON decode error: ${error.message}`, type: "json_invalid"}]}};
    if (error instanceof ValidationError)
        return {status: 422, body: {detail: error.problems.map((problem) => ({loc: [locRoot, ...problem.path], msg: `${formatPath(problem.path)}: ${problem.message}`, type: "value_error"}))}};
    if (error instanceof ApiError) return {status: error.status, body: error.toEnvelope(), retryAfter: error.retryAfter};
    return {status: 500, body: {error: {message: "internal error", type: "api_error", code: "internal_error"}}};
}

/** A reference the client can quote; random, as the pure protocol layer keeps no request log of its own. */
function newRef(): string {
    return `req_${globalThis.crypto.randomUUID().replaceAll("-", "")}`;
}
