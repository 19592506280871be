import {ApiError} from "../../protocol/errors/ApiError.ts";
import {formatPath, ValidationError} from "../../protocol/validation/ValidationError.ts";
import {MalformedJsonError} from "./readJsonBody.ts";

export type FormattedError = {status: number, body: unknown, headers?: Record<string, string>};

/** Turns whatever a handler threw into a status and body; each endpoint family may bring its own. */
export type ErrorFormatter = (error: unknown) => FormattedError;

/** The `{error:{message,type,code}}` envelope of spec §7 used by every `svc-1` endpoint. */
export const formatApiError: ErrorFormatter = (error) => {
    const apiError = toApiError(error);
    const headers: Record<string, string> = {};
    if (apiError.retryAfter != null) headers["Retry-After"] = String(apiError.retryAfter);
    return {status: apiError.status, body: apiError.toEnvelope(), headers};
};

export function toApiError(error: unknown): ApiError {
    if (error instanceof ApiError) return error;
    if (error instanceof ValidationError) {
        const message = error.problems.map((problem) => `${formatPath(problem.path)}: ${problem.message}`).join("; ");
        return new ApiError(400, error.code ?? "invalid_request", message);
    }
    if (error instanceof MalformedJsonError) return new ApiError(400, "invalid_request", error.message);
    console.error("internal error:", error);
    return new ApiError(500, "internal_error", "the server hit an internal error; it has been logged");
}
