import {apiErrorFromBody} from "../../errors/utils/apiErrorFromBody.ts";
import type {HttpApiError} from "../../errors/HttpApiError.ts";

/**
 * An error sent inside a stream that had already started (`data: {"error": {...}}`). The HTTP status
 * was 2xx by then, so the status comes from a numeric `code` when the server gives one (vLLM does),
 * else 500: the server failed mid-answer.
 */
export function inStreamError(payload: Record<string, unknown>, headers?: Record<string, string>): HttpApiError {
    const error = payload.error as Record<string, unknown>;
    const status = typeof error.code === "number" && error.code >= 400 && error.code <= 599 ? error.code : 500;
    // A numeric code is not a spec §7 code; apiErrorFromBody then takes the code the status stands for.
    return apiErrorFromBody({status, statusLine: "Error in stream", json: payload, text: JSON.stringify(payload), headers});
}
