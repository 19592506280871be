import type {ErrorInfo} from "../runs/types.ts";

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
