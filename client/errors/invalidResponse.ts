import {HttpApiError} from "./HttpApiError.ts";

/** A 2xx whose body breaks the protocol (not JSON, not an event stream); never retried. */
export function invalidResponse(status: number, message: string, text: string, headers?: Record<string, string>): HttpApiError {
    return new HttpApiError(status, "invalid_response", message, {type: "api_error", body: text || null, headers});
}
