import {ApiError, type ApiErrorOptions, type SystemoneErrorBody} from "../../protocol/errors.ts";

export type HttpApiErrorOptions = ApiErrorOptions & {
    /** The `type` the server sent; ApiError otherwise derives it from the code. */
    type?: string,
    /** `/v1/decisions`: the error's reference string. */
    ref?: string,
    /** `/v1/systemone` 422: one entry per problem, with its `loc` path. */
    detail?: SystemoneErrorBody["detail"],
    /** The parsed JSON body, the raw text when it was not JSON, or null when empty. */
    body?: unknown,
    /** Response headers, lower-case names. */
    headers?: Record<string, string>
};

/**
 * An ApiError read back from a server's response: the spec §7 fields plus what a UI needs to show the
 * failure as the server sent it (raw body, 422 details, headers, echoed trace id).
 */
export class HttpApiError extends ApiError {
    public readonly ref?: string;
    public readonly detail?: SystemoneErrorBody["detail"];
    public readonly body: unknown;
    public readonly headers: Record<string, string>;
    public readonly traceId: string | null;

    public constructor(status: number, code: string, message: string, options: HttpApiErrorOptions = {}) {
        super(status, code, message, options);
        this.name = "HttpApiError";
        // ApiError maps code -> type for the server side; a client must report the type it was given.
        if (options.type !== undefined)
            Object.defineProperty(this, "type", {value: options.type, enumerable: true});
        this.ref = options.ref;
        this.detail = options.detail;
        this.body = options.body ?? null;
        this.headers = options.headers ?? {};
        this.traceId = this.headers["x-client-trace-id"] ?? null;
    }
}
