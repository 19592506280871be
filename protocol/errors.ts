
/** The error envelope of spec §7, shared by every `svc-1` endpoint and `/v1/decisions`. */
export type ErrorEnvelope = {
    error: {
        message: string,
        type: string,
        code: string,
        /** `/v1/decisions` only: the top-level field at fault, or null for a whole-body problem. */
        param?: string | null,
        /** `/v1/decisions` only: a reference string. */
        ref?: string
    },
    /** Present on the JSON-mode 400 for unsatisfiable output, whose generations are charged. */
    usage?: unknown
};

/** The 422 body of `/v1/systemone` (spec §7). */
export type SystemoneErrorBody = {
    detail: Array<{loc: Array<string | number>, msg: string, type: "value_error" | "json_invalid" | string}>
};

export type ErrorCode =
    | "invalid_request"
    | "max_output_tokens_exceeded"
    | "request_rejected"
    | "invalid_api_key"
    | "insufficient_quota"
    | "not_found"
    | "request_timeout"
    | "payload_too_large"
    | "rate_limit_exceeded"
    | "service_busy"
    | "upstream_error"
    | "service_unavailable"
    /** A fault of the server itself (a bug), answered 500. */
    | "internal_error";

const typeByCode: Record<ErrorCode, string> = {
    invalid_request: "invalid_request_error",
    max_output_tokens_exceeded: "invalid_request_error",
    request_rejected: "invalid_request_error",
    invalid_api_key: "authentication_error",
    insufficient_quota: "insufficient_quota",
    not_found: "invalid_request_error",
    request_timeout: "invalid_request_error",
    payload_too_large: "invalid_request_error",
    rate_limit_exceeded: "rate_limit_exceeded",
    service_busy: "rate_limit_exceeded",
    upstream_error: "api_error",
    service_unavailable: "api_error",
    internal_error: "api_error"
};

/**
 * Spec §7 types 5xx as `api_error`; a code without its own row takes its class from the status, so a 5xx is
 * never `invalid_request_error` (500s carried that type).
 */
function typeOf(status: number, code: string): string {
    return Object.hasOwn(typeByCode, code) ? typeByCode[code as ErrorCode] : status >= 500 ? "api_error" : "invalid_request_error";
}

export type ApiErrorOptions = {
    param?: string | null,
    usage?: unknown,
    /** Seconds, sent as `Retry-After` on 429. */
    retryAfter?: number
};

/** An error with the status, code and type of spec §7; the server writes it, the client reads it back. */
export class ApiError extends Error {
    public readonly status: number;
    public readonly code: ErrorCode | string;
    public readonly type: string;
    public readonly param?: string | null;
    public readonly usage?: unknown;
    public readonly retryAfter?: number;

    public constructor(status: number, code: ErrorCode | string, message: string, options: ApiErrorOptions = {}) {
        super(message);
        this.name = "ApiError";
        this.status = status;
        this.code = code;
        this.type = typeOf(status, code);
        this.param = options.param;
        this.usage = options.usage;
        this.retryAfter = options.retryAfter;
    }

    public toEnvelope(): ErrorEnvelope {
        const error: ErrorEnvelope["error"] = {message: this.message, type: this.type, code: this.code};
        if (this.param !== undefined) error.param = this.param;
        const envelope: ErrorEnvelope = {error};
        if (this.usage !== undefined) envelope.usage = this.usage;
        return envelope;
    }
}

