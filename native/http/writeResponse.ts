import type {ServerResponse} from "node:http";
import type {RequestContext} from "./RequestContext.ts";

/** Headers every response carries (spec §4): CORS for browsers and the echoed trace id. */
export function baseHeaders(traceId: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Expose-Headers": "Server-Timing, X-Client-Trace-Id, Retry-After"
    };
    if (traceId != null) headers["X-Client-Trace-Id"] = traceId;
    return headers;
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
