import type {RequestContext} from "./RequestContext.ts";
import {baseHeaders, serverTiming} from "./writeResponse.ts";

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
