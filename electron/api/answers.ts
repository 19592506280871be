import {ApiError} from "../../protocol/errors.ts";
import type {ServerResponse} from "node:http";
import type {GatewayRouteName} from "../../protocol/gateway/routes.ts";

/**
 * An ApiError for the gateway's own codes (`invalid_gateway_token`, `no_remote_connection`, ...), which the
 * protocol's code->type table does not know: the gateway contract names their `type` explicitly.
 */
export class GatewayError extends ApiError {
    public override readonly type: string;

    public constructor(status: number, code: string, type: string, message: string) {
        super(status, code, message);
        this.name = "GatewayError";
        this.type = type;
    }
}

/**
 * A JSON answer from the gateway itself: no CORS headers (other origins must not read it) and never cached,
 * since state and errors change from one call to the next.
 */
export function writeJson(res: ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(status, {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Length": Buffer.byteLength(text),
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff"
    });
    res.end(text);
}

/** One call of a `/gateway/api` route: its URL parameters (still URL-encoded), query, and a reader for its JSON body. */
export type GatewayCall = {
    params: Record<string, string>,
    query: URLSearchParams,
    readBody: () => Promise<unknown>,
    /** Streams the raw body into `file` (created 0600), refused with a 413 past `maxBytes`; answers its size. The gateway gives it; a test calling a JSON route may not. */
    saveBody?: (file: string, maxBytes: number) => Promise<number>
};

/** A JSON answer, or a file sent as a download (removed once sent when `removeAfter`). */
export type GatewayAnswer = {status: number, body: unknown, file?: {path: string, name: string, contentType: string, removeAfter: boolean}};

/** Handlers by route name (protocol/gateway/routes.ts); the gateway writes each answer as JSON. */
export type GatewayHandlers = Partial<Record<GatewayRouteName, (call: GatewayCall) => Promise<GatewayAnswer>>>;
