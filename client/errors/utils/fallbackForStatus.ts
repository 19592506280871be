// The spec §7 code and type a status stands for, used when the body names none (some 5xx have no body).
const byStatus: Record<number, {code: string, type: string}> = {
    400: {code: "invalid_request", type: "invalid_request_error"},
    401: {code: "invalid_api_key", type: "authentication_error"},
    402: {code: "insufficient_quota", type: "insufficient_quota"},
    404: {code: "not_found", type: "invalid_request_error"},
    408: {code: "request_timeout", type: "invalid_request_error"},
    413: {code: "payload_too_large", type: "invalid_request_error"},
    422: {code: "validation_error", type: "invalid_request_error"},
    429: {code: "rate_limit_exceeded", type: "rate_limit_exceeded"},
    502: {code: "upstream_error", type: "api_error"},
    503: {code: "service_unavailable", type: "api_error"}
};

export function fallbackForStatus(status: number): {code: string, type: string} {
    return byStatus[status] ?? (status >= 500
        ? {code: "server_error", type: "api_error"}
        : {code: `http_${status}`, type: "invalid_request_error"});
}
