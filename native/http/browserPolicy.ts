import type {IncomingMessage} from "node:http";
import {ApiError} from "../../protocol/errors.ts";

/** Host names that can only mean this machine; `[::1]` as it appears in a Host header or in URL.hostname. */
const loopbackNames = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Headers a browser may read on a CORS answer (spec §4: Server-Timing and the trace id, plus Retry-After for 429). */
const exposedHeaders = "Server-Timing, X-Client-Trace-Id, Retry-After";

export type BrowserPolicyOptions = {
    /** True when the server requires a bearer key (spec §5): then browsers are trusted as the spec says. */
    keyed: boolean,
    /** Origins (already normalised by `normaliseOrigin`) a keyless server answers CORS for, besides loopback ones. */
    corsOrigins?: string[]
};

/**
 * What the engine lets a browser do.
 *
 * With a key configured, spec §4 and §5 hold as written: CORS `*` on every answer, since a page must still present
 * the key. Without a key, anything that can reach the port could use the engine, and a web page in the user's browser
 * can reach 127.0.0.1: so only a `Host` naming the loopback is served (a DNS-rebinding page sends its own name),
 * and only loopback origins and those given with `--cors-origins` are let in. The JSON-only body rule that stops
 * "simple" cross-origin POSTs is `requireJsonBody` (requests.ts); it applies in both modes (spec §4).
 */
export class BrowserPolicy {
    private readonly keyed: boolean;
    private readonly corsOrigins: Set<string>;

    public constructor({keyed, corsOrigins = []}: BrowserPolicyOptions) {
        this.keyed = keyed;
        this.corsOrigins = new Set(corsOrigins);
    }

    /** Throws the 403 for a request a keyless server must not serve: a foreign Host, or a browser on a foreign origin. */
    public check(req: IncomingMessage) {
        if (this.keyed) return;
        if (!isLoopbackHost(req.headers.host))
            throw new ApiError(403, "invalid_host", `this server has no API key, so it only answers requests addressed to 127.0.0.1, ` +
                `localhost or [::1] (got Host ${JSON.stringify(req.headers.host ?? "")}); start it with --api-key to serve other names`);
        const origin = req.headers.origin;
        if (origin != null && !this.allowsOrigin(origin))
            throw new ApiError(403, "origin_not_allowed", `this server has no API key, so it only answers pages on loopback origins and ` +
                `those listed with --cors-origins (got Origin ${JSON.stringify(origin)})`);
    }

    /**
     * CORS headers for this request, set on the response before anything is written so that errors carry them too
     * (a page can read its own 401 or 400). `Vary: Origin` when the answer depends on the Origin, so no cache hands
     * one origin's answer to another.
     */
    public corsHeaders(req: IncomingMessage): Record<string, string> {
        if (this.keyed) return {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": exposedHeaders};
        const origin = req.headers.origin;
        if (origin == null || !this.allowsOrigin(origin)) return {"Vary": "Origin"};
        return {"Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": exposedHeaders, "Vary": "Origin"};
    }

    private allowsOrigin(origin: string): boolean {
        const normalised = normaliseOrigin(origin);
        if (normalised == null) return false;
        return loopbackNames.has(new URL(normalised).hostname) || this.corsOrigins.has(normalised);
    }
}

/** `127.0.0.1`, `localhost` or `[::1]`, with or without a port: what a Host header says when the client meant this machine. */
export function isLoopbackHost(host: string | undefined): boolean {
    if (host == null) return false;
    const match = /^(\[[^\]]*\]|[^:[\]]+)(?::\d{1,5})?$/.exec(host.toLowerCase());
    return match != null && loopbackNames.has(match[1]);
}

/**
 * An http(s) origin as browsers send it (`scheme://host[:port]`, default port dropped, lower case), or undefined for
 * anything else: `null` (sandboxed frames, file: pages), a path, a wildcard. Used for `--cors-origins` and the Origin
 * header alike, so both compare in one spelling.
 */
export function normaliseOrigin(text: string): string | undefined {
    let url: URL;
    try {
        url = new URL(text);
    } catch {
        return undefined;
    }
    const bare = url.username === "" && url.password === "" && url.pathname === "/" && url.search === "" && url.hash === "";
    return (url.protocol === "http:" || url.protocol === "https:") && bare ? url.origin : undefined;
}
