// Who may call the gateway. Any program on this machine can fetch the gateway's pages, so no page carries a
// credential. A browser signs in once with the launch token in the address (`/?token=...`, as Jupyter does) and gets an
// HttpOnly, SameSite=Strict cookie that the page's script cannot read; Electron main sets that cookie on the window's
// session before it loads the page. Scripts and tests may send the launch token as the `X-Gateway-Token` header.
import {randomBytes} from "node:crypto";
import type {IncomingMessage, ServerResponse} from "node:http";
import {GatewayError} from "../api/answers.ts";
import {tokensEqual} from "./proxy.ts";

/** How a request proved it may call the gateway. */
export type GatewayCredential = "header" | "cookie";

export type SessionCookie = {name: string, value: string};

export class GatewaySession {
    /** The launch token: in the sign-in address `npm run web` prints, and the `X-Gateway-Token` header's value. */
    public readonly token = randomBytes(32).toString("hex");
    /** The cookie's value: a secret of its own, so the cookie is no use as the header and the token never sits in a cookie jar. */
    private readonly secret = randomBytes(32).toString("hex");
    private readonly port: () => number;

    /** `port`: the gateway's, read when needed (it is known once the server listens). */
    public constructor(port: () => number) {
        this.port = port;
    }

    /**
     * The session cookie, named after the port: browsers keep cookies by host, not port, so each gateway on 127.0.0.1
     * (the app, `npm run web`, an earlier launch) has its own.
     */
    public cookie(): SessionCookie {
        return {name: `svc-gateway-${this.port()}`, value: this.secret};
    }

    /** Which credential the request carries, or undefined when it carries none that holds. */
    public credential(req: IncomingMessage): GatewayCredential | undefined {
        const header = req.headers["x-gateway-token"];
        if (tokensEqual(Array.isArray(header) ? header[0] : header, this.token)) return "header";
        const {name, value} = this.cookie();
        if (tokensEqual(readCookie(req.headers.cookie, name), value)) return "cookie";
        return undefined;
    }

    /**
     * Throws the 403 for a request without a valid credential. A cookie rides along on any request the browser makes
     * to this host, also from another local origin (127.0.0.1 on another port is the same site, so SameSite does not
     * stop it): a request that came with the cookie must come from our own page (fetch metadata and Origin).
     */
    public authenticate(req: IncomingMessage) {
        const credential = this.credential(req);
        if (credential == null)
            throw new GatewayError(403, "invalid_gateway_token", "authentication_error",
                "this request has no gateway session: open the address the app printed at start (npm run web: " +
                `http://127.0.0.1:${this.port()}/?token=...), which signs this browser in, or send the token as the X-Gateway-Token header`);
        if (credential === "cookie" && !this.fromOwnPage(req))
            throw new GatewayError(403, "cross_origin_request", "authentication_error",
                `only pages of http://127.0.0.1:${this.port()} may call the gateway with its session`);
    }

    /**
     * `GET <page>?token=<launch token>`: sets the session cookie and redirects to the same page without the token, so
     * the token leaves the address bar at once and is in no page. A wrong token is a 403 and sets nothing.
     */
    public signIn(res: ServerResponse, url: URL, offered: string) {
        if (!tokensEqual(offered, this.token))
            throw new GatewayError(403, "invalid_gateway_token", "authentication_error",
                "the token in this address is not this launch's: open the address the app printed at this start");
        const rest = new URLSearchParams(url.searchParams);
        rest.delete("token");
        const query = rest.toString();
        const {name, value} = this.cookie();
        res.writeHead(302, {
            "Location": url.pathname + (query === "" ? "" : `?${query}`),
            "Set-Cookie": `${name}=${value}; Path=/; HttpOnly; SameSite=Strict`,
            "Cache-Control": "no-store",
            "Referrer-Policy": "no-referrer",
            "Content-Length": 0
        });
        res.end();
    }

    private fromOwnPage(req: IncomingMessage): boolean {
        const site = req.headers["sec-fetch-site"];
        if (site != null && site !== "same-origin" && site !== "none") return false;
        const origin = req.headers.origin;
        const port = this.port();
        return origin == null || origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
    }
}

/** The value of cookie `name` in a `Cookie` header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
    for (const pair of header?.split(";") ?? []) {
        const at = pair.indexOf("=");
        if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
    }
    return undefined;
}
