import {randomUUID} from "node:crypto";
import {isEngineAdminPath} from "../../protocol/admin/routes.ts";
import {ApiError} from "../../protocol/errors.ts";
import {type AnyUsage, type MeteredTokens, meteredTokens} from "../../protocol/usage.ts";
import {bearerToken, missingKeyMessage, type RequestGate, type RequestMeter, unauthorized} from "../http/gate.ts";
import type {RequestContext} from "../http/HttpServer.ts";
import {baseHeaders} from "../http/replies.ts";
import {closeIfBodyUnread} from "../http/requests.ts";
import {AdminAccess, createAdminHandler} from "./adminRoutes.ts";
import type {ServiceBackend} from "./backend.ts";
import {costMicros} from "./billing.ts";
import {hashKey, keyMatches} from "./keys.ts";
import {keyLookup} from "../../protocol/admin/contract.ts";
import {type QueueProbe, ServiceMetrics} from "./metrics.ts";

export type ServiceGateOptions = {
    /** The service store (SQLite or PostgreSQL: backend.ts); without one, only the static keys (or none) guard the server. */
    backend?: ServiceBackend,
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
    queues: QueueProbe[],
    /** The `front` label of every metric, which tells several fronts of one database apart in Prometheus. */
    front?: string
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
    private readonly backend?: ServiceBackend;
    private readonly staticKeys: Buffer[];
    private readonly access: AdminAccess;
    private readonly keyActivationMs: number;
    private readonly holdTokens: number;
    private readonly admin?: (context: RequestContext) => Promise<void>;
    private workspaceMode: boolean;

    private constructor(options: ServiceGateOptions, workspaceMode: boolean) {
        this.backend = options.backend;
        this.staticKeys = (options.apiKeys ?? []).map(hashKey);
        this.access = new AdminAccess(options.adminKey);
        this.keyActivationMs = options.keyActivationMs ?? 0;
        this.holdTokens = options.holdTokens;
        this.metrics = new ServiceMetrics(options);
        if (this.backend != null) this.admin = createAdminHandler(this.backend, this.keyActivationMs);
        this.workspaceMode = workspaceMode;
        this.keyed = this.staticKeys.length > 0 || workspaceMode;
    }

    /** The gate, once the store has said whether it holds a workspace (the mode, and the browser policy, at start). */
    public static async create(options: ServiceGateOptions): Promise<ServiceGate> {
        return new ServiceGate(options, await options.backend?.hasWorkspaces() ?? false);
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

    public async admit(context: RequestContext): Promise<RequestMeter> {
        this.metrics.observe(context);
        if (await this.inWorkspaceMode()) return this.admitWorkspaceKey(context);
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
        return this.workspaceMode ? "workspaces" : this.staticKeys.length > 0 ? "static keys" : "open";
    }

    /** Workspaces are never deleted, so once on, workspace mode stays on; until then each request looks again. */
    private async inWorkspaceMode(): Promise<boolean> {
        if (!this.workspaceMode && this.backend != null) this.workspaceMode = await this.backend.hasWorkspaces();
        return this.workspaceMode;
    }

    /**
     * Spec §5 rule 4 and §7: 401 for a missing, malformed, unknown, revoked or still-activating key; then 402, then 429.
     * The key, workspace, price and limit are read from the store for every request (on PostgreSQL in the same
     * statement that takes the hold), so a revocation or rotation made through any front or the CLI holds from the
     * next request on every front.
     */
    private async admitWorkspaceKey(context: RequestContext): Promise<RequestMeter> {
        const backend = this.backend!;
        const token = bearerToken(context.req);
        if (token == null) throw unauthorized(missingKeyMessage);
        const lookup = keyLookup(token);
        if (lookup == null) throw unauthorized("malformed API key: keys start with ck_ (spec §5) and are used exactly as they were issued");
        const model = context.modelSegment;
        const {key, workspace, price, limit, hold} = await backend.admit({token, lookup, model, holdTokens: this.holdTokens,
            keyActivationMs: this.keyActivationMs, now: Date.now()});
        // The client left while the store answered: its response's close has passed, so nothing else would release.
        if (context.signal.aborted) {
            backend.release(hold);
            throw new Error("the client closed the connection during admission");
        }
        // A response that ends without settling (an error, a dropped client) lets its hold go uncharged.
        context.res.once("close", () => backend.release(hold));
        const requestId = randomUUID();
        const endpoint = context.url.pathname.slice(model.length + 1);
        return meterOnce(async (tokens) => {
            this.metrics.countTokens(model, tokens);
            await backend.settle(hold, {requestId, traceId: context.traceId, workspaceId: workspace.id, keyId: key.id, model, endpoint, tokens,
                costMicros: costMicros(model, tokens, price)}, limit);
        });
    }

    /** Open and static-key modes charge nothing; the usage still feeds the token metrics. */
    private countingMeter(model: string): RequestMeter {
        return meterOnce((tokens) => this.metrics.countTokens(model, tokens));
    }
}

/** A meter that settles once: the routes report usage once, and a second report must never charge twice. */
function meterOnce(settle: (tokens: MeteredTokens) => void | Promise<void>): RequestMeter {
    let settled = false;
    return {
        settle(usage: AnyUsage) {
            if (settled) return;
            settled = true;
            return settle(meteredTokens(usage));
        }
    };
}
