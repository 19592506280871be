import {ApiError, HttpApiError, TransportError} from "../../../client/sdk/index.ts";
import type {ErrorInfo} from "./types.ts";

/** What the error view shows: the status, code, type and message exactly as the server sent them. */
export function toErrorInfo(error: unknown): ErrorInfo {
    if (error instanceof HttpApiError)
        return {status: error.status, code: error.code, type: error.type, message: error.message, param: error.param, body: error.body};
    if (error instanceof ApiError) return {status: error.status, code: error.code, type: error.type, message: error.message, param: error.param};
    if (error instanceof TransportError) return {code: error.kind, type: "transport_error", message: error.message};
    return {message: error instanceof Error ? error.message : String(error)};
}
