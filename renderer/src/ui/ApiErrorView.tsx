// Errors as the API returned them: the plain-data ErrorInfo (kept in history too) and the view that shows one.
import {ApiError, HttpApiError, TransportError} from "../../../client/sdk/index.ts";

/** An API error as the server returned it (spec §7), or a transport failure; plain data, so history can keep it. */
export type ErrorInfo = {
    status?: number,
    code?: string,
    type?: string,
    message: string,
    param?: string | null,
    /** The response body as received (JSON, text, or null). */
    body?: unknown
};

/** What the error view shows: the status, code, type and message exactly as the server sent them. */
export function toErrorInfo(error: unknown): ErrorInfo {
    if (error instanceof HttpApiError)
        return {status: error.status, code: error.code, type: error.type, message: error.message, param: error.param, body: error.body};
    if (error instanceof ApiError) return {status: error.status, code: error.code, type: error.type, message: error.message, param: error.param};
    if (error instanceof TransportError) return {code: error.kind, type: "transport_error", message: error.message};
    return {message: error instanceof Error ? error.message : String(error)};
}

/** An error exactly as the API returned it (spec §7): status, code, type, message, and the raw body. */
export function ApiErrorView({error}: {error: ErrorInfo}) {
    return (
        <div className="api-error" role="alert" data-testid="api-error">
            <div className="api-error-head">
                {error.status !== undefined && <span className="badge badge-danger" data-testid="api-error-status">HTTP {error.status}</span>}
                {error.code && <span className="mono" data-testid="api-error-code">code: {error.code}</span>}
                {error.type && <span className="mono muted" data-testid="api-error-type">type: {error.type}</span>}
                {error.param && <span className="mono muted">param: {error.param}</span>}
            </div>
            <div className="api-error-message" data-testid="api-error-message">{error.message}</div>
            {error.body !== undefined && error.body !== null && (
                <details className="api-error-body">
                    <summary>Response body</summary>
                    <pre>{typeof error.body === "string" ? error.body : JSON.stringify(error.body, null, 2)}</pre>
                </details>
            )}
        </div>
    );
}
