// The response cache: answers kept by what was sent, so that running an edited experiment or scoring job again sends
// only the requests that changed. Browser-safe: the interface and the key here; the SQLite implementation is
// node/SqliteResponseCache.ts, and the app reaches one through its gateway.
import {stableStringify} from "../../protocol/decisions/stableStringify.ts";
import type {ClientResult, ResponseMeta} from "../sdk/SvcClient.ts";

/** The calls whose answers are cached: the endpoints experiments and scoring send to. */
export type CachedEndpoint = "chatCompletions" | "responses" | "decisions" | "systemone";

/** What identifies an answer: everything that decides it, as sent. */
export type ResponseCacheKeyParts = {
    endpoint: CachedEndpoint,
    /** The server: its base URL (trailing slashes removed: connectionCacheId), or `profile:<id>` for the app's connections. */
    connection: string,
    /**
     * The model behind the connection when the body does not name it (an app variant's model on the local engine);
     * null when the connection alone decides it. A server restarted on another model at the same URL is not seen.
     */
    model: string | null,
    /** The request body exactly as sent; compared as stable JSON (key order does not matter). */
    body: Record<string, unknown>,
    /** The sampling seed; default the body's `seed` field, null when it has none. */
    seed?: number | null,
    /** Which of the repeated askings of one request this is (0: the first). */
    repeat?: number
};

/** The default bound of a response cache: 256 MiB of answers, the least recently used dropped first beyond it. */
export const defaultResponseCacheBytes = 256 * 1024 * 1024;

/** An answer as the cache keeps it: the response body as the server sent it, and how long it took then. */
export type CachedResponse = {body: unknown, durationMs: number, storedAt: number};

/**
 * Answers kept by key (responseCacheKey). Only successful answers are put; an implementation may drop any entry
 * at any time (a size bound), so a `get` may miss what was put.
 */
export interface ResponseCache {
    get(key: string): Promise<CachedResponse | undefined>;
    put(key: string, value: CachedResponse): Promise<void>;
}

/** The cache key of a request: stable JSON of its parts, versioned so that a change of the key's shape misses old entries. */
export function responseCacheKey(parts: ResponseCacheKeyParts): string {
    const seed = parts.seed !== undefined ? parts.seed : typeof parts.body.seed === "number" ? parts.body.seed : null;
    return stableStringify({v: 1, endpoint: parts.endpoint, connection: parts.connection, model: parts.model, seed, repeat: parts.repeat ?? 0, body: parts.body});
}

/** A connection's part of the key: a base URL without trailing slashes, or `profile:<id>`. */
export function connectionCacheId(connection: {baseUrl: string} | {profile: string}): string {
    return "profile" in connection ? `profile:${connection.profile}` : connection.baseUrl.replace(/\/+$/, "");
}

/** Where a unit's calls go, for their keys. */
export type CacheScope = {connection: string, model: string | null, repeat?: number};

type CachedCaller = {[method in CachedEndpoint]: (body: Record<string, unknown>, options?: unknown) => Promise<ClientResult<unknown>>};

const endpoints: readonly CachedEndpoint[] = ["chatCompletions", "responses", "decisions", "systemone"];

/**
 * The calls of one unit of work (an experiment's cell, a scoring row) through a cache: each call is answered from
 * the cache when it holds the request's answer (nothing is sent; its meta says 0 attempts and the duration the
 * answer first took), else sent. Answers that were sent are kept only by `keep()`, which the runner calls once the
 * unit's result is stored and succeeded: a failed unit, or an answer that did not fit what was asked, is never
 * cached. A cache that cannot be read or written costs a request later, never the unit.
 */
export class CachedCalls {
    private readonly received: Array<{key: string, value: CachedResponse}> = [];
    private sent = 0;
    private hits = 0;

    public constructor(private readonly cache: ResponseCache) {}

    /** True when every call of the unit was answered from the cache (and there was at least one). */
    public get answeredFromCache(): boolean {
        return this.hits > 0 && this.sent === 0;
    }

    /** `caller` with its cached endpoints going through the cache, keyed with `scope`; other methods are left out. */
    public wrap<C>(caller: C, scope: CacheScope): C {
        const source = caller as unknown as Partial<CachedCaller>;
        const wrapped: Partial<CachedCaller> = {};
        for (const endpoint of endpoints) {
            const call = source[endpoint];
            if (typeof call !== "function") continue;
            wrapped[endpoint] = async (body, options) => {
                const key = responseCacheKey({endpoint, connection: scope.connection, model: scope.model, body, repeat: scope.repeat});
                const hit = await this.cache.get(key).catch(() => undefined);
                if (hit !== undefined) {
                    this.hits++;
                    return {data: hit.body, meta: cachedMeta(hit)};
                }
                this.sent++;
                const result = await call.call(caller, body, options);
                this.received.push({key, value: {body: result.data, durationMs: result.meta.durationMs, storedAt: Date.now()}});
                return result;
            };
        }
        return wrapped as unknown as C;
    }

    /** Puts the answers this unit's calls received from servers; call it once the unit succeeded. */
    public async keep(): Promise<void> {
        const received = this.received.splice(0);
        for (const {key, value} of received) await this.cache.put(key, value).catch(() => undefined);
    }
}

/** The meta of an answer from the cache: nothing was sent (0 attempts); the duration is the one it first took. */
function cachedMeta(hit: CachedResponse): ResponseMeta {
    return {status: 200, serverTimingMs: null, traceId: null, headers: {}, attempts: 0, durationMs: hit.durationMs};
}
