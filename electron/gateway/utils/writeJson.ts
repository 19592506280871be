import type {ServerResponse} from "node:http";

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
