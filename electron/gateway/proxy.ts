import {timingSafeEqual} from "node:crypto";
import http, {type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse} from "node:http";
import https from "node:https";
import {GatewayError} from "../api/answers.ts";

/** Constant-time comparison, so the token cannot be guessed byte by byte from response timings. */
export function tokensEqual(given: string | undefined, expected: string): boolean {
    if (given == null) return false;
    const a = Buffer.from(given, "utf8");
    const b = Buffer.from(expected, "utf8");
    return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * DNS-rebinding guard: a page on evil.example that rebinds its name to 127.0.0.1 still sends
 * `Host: evil.example:PORT`, so only the two loopback spellings of our own port are accepted.
 */
export function isAllowedHost(host: string | undefined, port: number): boolean {
    if (host == null) return false;
    const value = host.toLowerCase();
    return value === `127.0.0.1:${port}` || value === `localhost:${port}`;
}

/** A request path below a proxy prefix, checked; the query as sent. */
export type ForwardedPath = {path: string, query: string};

/**
 * The part of the request target below `prefix` (`/local` or `/remote`), read from the raw target before the WHATWG
 * parser turns `\` into `/` and resolves dot segments. Anything that could name another host once joined to a base
 * URL (`//host`, `\host`, `%2f`, `%5c`) or climb out of the prefix (`.` and `..` segments, percent-encoded or not, or
 * a target that only reaches the prefix through them) is a 400. The API has no such paths.
 */
export function forwardedPath(rawTarget: string, prefix: string): ForwardedPath {
    const queryAt = rawTarget.indexOf("?");
    const rawPath = queryAt < 0 ? rawTarget : rawTarget.slice(0, queryAt);
    const path = rawPath.slice(prefix.length);
    const segments = path.split("/").slice(1);
    const belowPrefix = rawPath.startsWith(prefix) && (path === "" || path.startsWith("/"));
    // An empty segment is `//`; one is allowed last, as a trailing slash.
    const emptySegment = segments.slice(0, -1).includes("");
    const dotSegment = segments.some((segment) => [".", ".."].includes(segment.replace(/%2e/gi, ".")));
    if (!belowPrefix || emptySegment || dotSegment || /\\|%2f|%5c/i.test(path))
        throw new GatewayError(400, "invalid_path", "invalid_request_error",
            `${prefix}/... paths may not hold empty segments (//), backslashes, encoded slashes or dot segments; got ${JSON.stringify(rawPath)}`);
    return {path, query: queryAt < 0 ? "" : rawTarget.slice(queryAt)};
}

/**
 * `base` (the engine's origin, or a remote profile's base URL) with `forwarded` appended to its path. The path is set
 * on a copy of `base`, never resolved against it, so whatever it holds it cannot change the scheme, host or port.
 */
export function upstreamUrl(base: string, {path, query}: ForwardedPath): URL {
    const target = new URL(base);
    target.pathname = target.pathname.replace(/\/$/, "") + path;
    target.search = query;
    return target;
}

/** Headers that describe one hop, not the message; RFC 9110 §7.6.1. */
const hopByHop = new Set(["connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection",
    "te", "trailer", "transfer-encoding", "upgrade"]);

/**
 * Request headers the renderer must not pass on: the gateway token and any Authorization (the gateway alone
 * decides what credential goes upstream), browser context (cookies, origin, referer, fetch metadata) and
 * accept-encoding, so streams arrive uncompressed and are relayed chunk by chunk.
 */
const droppedRequestHeaders = new Set(["host", "x-gateway-token", "x-svc-connection", "authorization", "cookie", "origin", "referer",
    "accept-encoding"]);

export type ProxyOptions = {
    /** Absolute URL to send the request to (path and query already joined). */
    target: URL,
    /** Added after the renderer's headers are filtered, e.g. the remote's Authorization. */
    addHeaders?: Record<string, string>,
    /** Builds the error answered when the upstream cannot be reached before any byte was sent back. */
    unreachable: (error: Error) => Error
};

/**
 * Forwards `req` to `target` and relays the answer: status and headers (minus hop-by-hop, cookies and CORS),
 * then the body piped byte for byte, so SSE streams reach the renderer untouched and unbuffered. When the
 * renderer hangs up, the upstream request is destroyed so the engine stops generating.
 */
export function proxyRequest(req: IncomingMessage, res: ServerResponse, {target, addHeaders = {}, unreachable}: ProxyOptions): Promise<void> {
    return new Promise((resolve, reject) => {
        const transport = target.protocol === "https:" ? https : http;
        const upstream = transport.request(target, {
            method: req.method,
            headers: {...requestHeaders(req.headers), ...addHeaders}
        });
        let answered = false;

        res.on("close", () => {
            if (!res.writableFinished) upstream.destroy();
            resolve();
        });
        upstream.on("response", (answer) => {
            answered = true;
            res.writeHead(answer.statusCode ?? 502, answer.statusMessage, responseHeaders(answer.headers));
            res.flushHeaders();
            answer.pipe(res);
            answer.on("error", () => res.destroy());
        });
        upstream.on("error", (error) => {
            if (!answered && !res.headersSent) reject(unreachable(error));
            else res.destroy();
        });
        req.pipe(upstream);
    });
}

function requestHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
    const out: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(headers)) {
        if (value == null || hopByHop.has(name) || droppedRequestHeaders.has(name) || name.startsWith("sec-")) continue;
        out[name] = value;
    }
    return out;
}

/**
 * CORS headers are dropped too: the renderer is same-origin and needs none, and a proxied answer must not be
 * readable by other origins. Set-Cookie from a remote would land on the gateway's origin, so it goes as well.
 */
function responseHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
    const out: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(headers)) {
        if (value == null || hopByHop.has(name) || name === "set-cookie" || name.startsWith("access-control-")) continue;
        out[name] = value;
    }
    return out;
}
