// The hook through which the server's service side (native/service: workspaces, keys, credits, rate limits,
// metrics) sees each request, kept to an interface so HttpServer knows nothing of stores or prices.
import type {IncomingMessage} from "node:http";
import type {AnyUsage} from "../../protocol/usage.ts";
import {ApiError} from "../../protocol/errors.ts";
import type {RequestContext} from "./HttpServer.ts";

/** Where a request's usage goes when its response completes (spec §2.3, §7 "Charging"). */
export interface RequestMeter {
    /**
     * Records the request's usage, once: a second call is ignored. Routes call it just before the response's last
     * bytes (the JSON body, or the stream's final events), and wait for it, so a client that holds a complete answer
     * was charged. A store over the network (PostgreSQL) answers later, or fails with the 503 that then replaces the answer.
     */
    settle(usage: AnyUsage): void | Promise<void>
}

/** Who may call and what a call costs; HttpServer asks it about every request past the browser policy. */
export interface RequestGate {
    /** True when callers must present a key (spec §5), so browsers are trusted as the spec says (BrowserPolicy). */
    readonly keyed: boolean,
    /** Whether `url` is one of the gate's own routes (admin API, /metrics), which it answers itself through `handle`. */
    owns(url: URL): boolean,
    /** Answers one of the gate's own routes, authorizing the caller itself; reads the body, if any, itself. */
    handle(context: RequestContext): Promise<void>,
    /**
     * Throws the 401, 402 or 429 of spec §7 for a call that may not run; otherwise the meter its route reports
     * usage to. Nothing is charged for a request whose meter is never settled (a 429, a 502, a dropped client).
     */
    admit(context: RequestContext): RequestMeter | Promise<RequestMeter>
}

/** Spec §7: the 401 of a missing, malformed, unknown or revoked key. */
export function unauthorized(message: string): ApiError {
    return new ApiError(401, "invalid_api_key", message);
}

/** The 401 message for a request without a well-formed `Authorization: Bearer` header. */
export const missingKeyMessage = "missing or malformed Authorization header; send Authorization: Bearer <API_KEY>";

/** The `Authorization: Bearer <key>` value (spec §5 rule 1), or undefined when the header is missing or malformed. */
export function bearerToken(req: IncomingMessage): string | undefined {
    const value = req.headers.authorization;
    return /^Bearer\s+(\S+)\s*$/i.exec(Array.isArray(value) ? value[0] : value ?? "")?.[1];
}

/** Reports a finished request's usage to its meter, if it has one; resolves once it is charged. */
export async function settleUsage(context: RequestContext, usage: AnyUsage) {
    await context.meter?.settle(usage);
}
