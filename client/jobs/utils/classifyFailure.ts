import {ApiError} from "../../../protocol/errors.ts";
import {TransportError} from "../../errors/TransportError.ts";
import type {RowError} from "../types.ts";

/**
 * What a request failure (after the spec §7 retries) means for a job:
 * - `row`: the server refused this row's request (400, 413, 422): stored as the row's error, the job goes on;
 * - `fatal`: every other row would fail the same way (401 key, 402 credit, 404 URL) or the service stayed
 *   unavailable through the retries (408, 429, 5xx, network, timeout): the job stops, resumable later.
 */
export function classifyFailure(error: unknown): {kind: "row" | "fatal", error: RowError} {
    if (error instanceof ApiError) {
        const rowError = {status: error.status, code: error.code, message: error.message};
        return {kind: error.status === 400 || error.status === 413 || error.status === 422 ? "row" : "fatal", error: rowError};
    }
    if (error instanceof TransportError) return {kind: "fatal", error: {status: null, code: error.kind, message: error.message}};
    return {kind: "fatal", error: {status: null, code: "client_error", message: error instanceof Error ? error.message : String(error)}};
}
