import {ApiError} from "../../protocol/errors.ts";
import {formatPath, ValidationError} from "../../protocol/validation.ts";
import {MalformedJsonError} from "./requests.ts";
import type {ServerResponse} from "node:http";
import type {RequestContext} from "./HttpServer.ts";
import {settleUsage} from "./gate.ts";
import type {AnyUsage} from "../../protocol/usage.ts";

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

/**
 * Headers every response carries (spec §4): the echoed trace id. The CORS headers depend on the server's keys and the
 * request's Origin, so HttpServer sets them on the response up front (http/browserPolicy.ts).
 */
export function baseHeaders(traceId: string | undefined): Record<string, string> {
    return traceId != null ? {"X-Client-Trace-Id": traceId} : {};
}

/** `Server-Timing` for a success: processing time until the headers are ready (spec §4). */
export function serverTiming(context: RequestContext): string {
    return `total;dur=${(performance.now() - context.startedAt).toFixed(1)}`;
}

export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>) {
    const text = JSON.stringify(body);
    res.writeHead(status, {...headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text)});
    res.end(text);
}

/** A successful JSON answer with the headers of spec §4. */
export function writeSuccess(context: RequestContext, body: unknown) {
    writeJson(context.res, 200, body, {...baseHeaders(context.traceId), "Server-Timing": serverTiming(context)});
}

/**
 * A server-sent-events response whose headers are written with the first event, so `Server-Timing` measures the
 * time to the first token (spec §4) and a request that fails before any output can still answer a JSON error.
 */
export class SseStream {
    private readonly context: RequestContext;
    private started = false;

    public constructor(context: RequestContext) {
        this.context = context;
    }

    public get hasStarted() {
        return this.started;
    }

    public send(data: unknown, event?: string) {
        if (this.context.res.writableEnded || this.context.signal.aborted) return;
        this.start();
        const payload = typeof data === "string" ? data : JSON.stringify(data);
        this.context.res.write((event != null ? `event: ${event}\n` : "") + `data: ${payload}\n\n`);
    }

    /**
     * Ends a chat or completions stream (spec 6.1): the usage charged first (§2.3, §7), whether or not the client
     * asked to see it, then the usage chunk `usageChunk` builds when it did, then `[DONE]`.
     */
    public async finish<U extends AnyUsage>(usage: U, usageChunk?: (usage: U) => unknown) {
        await settleUsage(this.context, usage);
        if (usageChunk != null) this.send(usageChunk(usage));
        this.send("[DONE]");
        this.end();
    }

    public end() {
        this.start();
        if (!this.context.res.writableEnded) this.context.res.end();
    }

    private start() {
        if (this.started) return;
        this.started = true;
        this.context.res.writeHead(200, {
            ...baseHeaders(this.context.traceId),
            "Server-Timing": serverTiming(this.context),
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-cache",
            "Connection": "keep-alive",
            "X-Accel-Buffering": "no"
        });
        this.context.res.flushHeaders();
    }
}
