import {randomUUID} from "node:crypto";
import {isEngineAdminPath} from "../../protocol/admin/routes.ts";
import {ApiError} from "../../protocol/errors.ts";
import {type AnyUsage, type MeteredTokens, meteredTokens} from "../../protocol/usage.ts";
import {bearerToken, missingKeyMessage, type RequestGate, type RequestMeter, unauthorized} from "../http/gate.ts";
import type {RequestContext} from "../http/HttpServer.ts";
import {baseHeaders} from "../http/replies.ts";
import {closeIfBodyUnread} from "../http/requests.ts";
import {hasWorkspaces} from "./accounts.ts";
import {AdminAccess, createAdminHandler} from "./adminRoutes.ts";
import {costMicros, holdMicros, Ledger} from "./billing.ts";
import {findKey, hashKey, keyMatches, keyState} from "./keys.ts";
import {keyLookup} from "../../protocol/admin/contract.ts";
import {type QueueProbe, ServiceMetrics} from "./metrics.ts";
import {getPrice, getRateLimit} from "./pricing.ts";
import {RateLimiter} from "./rateLimits.ts";
import type {ServiceStore} from "./store.ts";

export type ServiceGateOptions = {
    /** The service database; without one, only the static keys (or none) guard the server. */
    store?: ServiceStore,
    /** `--api-key`: static keys, used while the store holds no workspace. */
    apiKeys?: string[],
    /** `--admin-key`: lets non-loopback callers use the admin API and /metrics. */
    adminKey?: string,
    /** Spec §5 rule 4 and §8: how long a created or rotated key may still fail (default 0 locally). */
    keyActivationMs?: number,
    /** The most tokens one request can process (the largest context window served): the size of its hold. */
    holdTokens: number,
    /** `{model}{path}` of every API route, the metrics' endpoint labels. */
    endpoints: string[],
    queues: QueueProbe[]
};

/**
 * The service side of the server, in three modes: open (no key; loopback only, BrowserPolicy), static
 * keys (`--api-key`), and workspace mode, on as soon as the store holds a workspace, where every request is checked
 * against the store (spec §5, §7: 401, 402, 429) and charged by the ledger when it completes (§2.3). It also
 * serves the admin API and /metrics to whoever AdminAccess lets in.
 */
export class ServiceGate implements RequestGate {
    public readonly keyed: boolean;
    public readonly metrics: ServiceMetrics;
    private readonly store?: ServiceStore;
    private readonly staticKeys: Buffer[];
    private readonly access: AdminAccess;
    private readonly keyActivationMs: number;
    private readonly holdTokens: number;
    private readonly ledger?: Ledger;
    private readonly limiter = new RateLimiter();
    private readonly admin?: (context: RequestContext) => Promise<void>;
    private workspaceMode = false;

    public constructor(options: ServiceGateOptions) {
        this.store = options.store;
        this.staticKeys = (options.apiKeys ?? []).map(hashKey);
        this.access = new AdminAccess(options.adminKey);
        this.keyActivationMs = options.keyActivationMs ?? 0;
        this.holdTokens = options.holdTokens;
        this.metrics = new ServiceMetrics(options);
        if (this.store != null) {
            this.ledger = new Ledger(this.store);
            this.admin = createAdminHandler(this.store, this.keyActivationMs);
        }
        this.keyed = this.staticKeys.length > 0 || this.inWorkspaceMode();
    }

    public owns(url: URL): boolean {
        return isEngineAdminPath(url.pathname);
    }

    public async handle(context: RequestContext) {
        this.metrics.observe(context);
        const {req, res, url} = context;
        // Only admin POSTs read a body; any other is left unread and its connection closed.
        if (req.method !== "POST") closeIfBodyUnread(req, res);
        this.access.check(req);
        if (url.pathname === "/metrics") {
            if (req.method !== "GET") throw new ApiError(405, "method_not_allowed", `${req.method} is not allowed on /metrics`);
            const {contentType, text} = await this.metrics.render();
            res.writeHead(200, {...baseHeaders(context.traceId), "Content-Type": contentType, "Cache-Control": "no-store"}).end(text);
            return;
        }
        if (this.admin == null) throw new ApiError(404, "not_found", "this server has no service database (start it with --data-dir)");
        await this.admin(context);
    }

    public admit(context: RequestContext): RequestMeter {
        this.metrics.observe(context);
        if (this.inWorkspaceMode()) return this.admitWorkspaceKey(context);
        if (this.staticKeys.length > 0) {
            const token = bearerToken(context.req);
            if (token == null) throw unauthorized(missingKeyMessage);
            // Every key is compared, so the time taken says nothing about which one matched.
            if (!this.staticKeys.map((hash) => keyMatches(token, hash)).includes(true)) throw unauthorized("the API key is not valid");
        }
        return this.countingMeter(context.modelSegment);
    }

    /** Which of the three modes holds now, for the start-up line. */
    public get mode(): "open" | "static keys" | "workspaces" {
        return this.inWorkspaceMode() ? "workspaces" : this.staticKeys.length > 0 ? "static keys" : "open";
    }

    /** Workspaces are never deleted, so once on, workspace mode stays on; until then each request looks again. */
    private inWorkspaceMode(): boolean {
        if (!this.workspaceMode && this.store != null) this.workspaceMode = hasWorkspaces(this.store);
        return this.workspaceMode;
    }

    /** Spec §5 rule 4 and §7: 401 for a missing, malformed, unknown, revoked or still-activating key; then 402, then 429. */
    private admitWorkspaceKey(context: RequestContext): RequestMeter {
        const store = this.store!, ledger = this.ledger!;
        const token = bearerToken(context.req);
        if (token == null) throw unauthorized(missingKeyMessage);
        const lookup = keyLookup(token);
        if (lookup == null) throw unauthorized("malformed API key: keys start with ck_ (spec §5) and are used exactly as they were issued");
        const key = findKey(store, lookup);
        if (key == null || !keyMatches(token, key.secretHash)) throw unauthorized("the API key is not valid");
        const state = keyState(key, this.keyActivationMs);
        if (state === "revoked") throw unauthorized("the API key has been revoked");
        if (state === "activating")
            throw unauthorized(`the API key was created or rotated less than ${Math.ceil(this.keyActivationMs / 1000)} s ago and is not active yet; retry shortly`);

        const model = context.modelSegment;
        const workspace = store.statement("SELECT id, activated_at AS activatedAt, balance_micros AS balanceMicros FROM workspaces WHERE id = ?")
            .get(key.workspaceId) as {id: string, activatedAt: number | null, balanceMicros: number};
        const price = getPrice(store, model);
        const limit = getRateLimit(store, workspace.id, model);
        const hold = ledger.reserve(workspace, holdMicros(model, this.holdTokens, price));
        try {
            this.limiter.admit(limit);
        } catch (error) {
            ledger.release(hold);
            throw error;
        }
        // A response that ends without settling (an error, a dropped client) lets its hold go uncharged.
        context.res.once("close", () => ledger.release(hold));
        const requestId = randomUUID();
        const endpoint = context.url.pathname.slice(model.length + 1);
        return meterOnce((tokens) => {
            this.metrics.countTokens(model, tokens);
            ledger.settle(hold, {requestId, traceId: context.traceId, workspaceId: workspace.id, keyId: key.id, model, endpoint, tokens,
                costMicros: costMicros(model, tokens, price)});
            this.limiter.spend(limit, tokens.uncachedInputTokens + tokens.cachedInputTokens + tokens.outputTokens);
        });
    }

    /** Open and static-key modes charge nothing; the usage still feeds the token metrics. */
    private countingMeter(model: string): RequestMeter {
        return meterOnce((tokens) => this.metrics.countTokens(model, tokens));
    }
}

/** A meter that settles once: the routes report usage once, and a second report must never charge twice. */
function meterOnce(settle: (tokens: MeteredTokens) => void): RequestMeter {
    let settled = false;
    return {
        settle(usage: AnyUsage) {
            if (settled) return;
            settled = true;
            settle(meteredTokens(usage));
        }
    };
}
