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
    | "service_unavailable";
