import type {IncomingMessage} from "node:http";
import {adminPrefix, adminTable, type AdminRouteName, type AdminRouteTypes} from "../../protocol/admin/routes.ts";
import type {KeyOwner, UsageGroup} from "../../protocol/admin/contract.ts";
import {ApiError} from "../../protocol/errors.ts";
import type {RequestContext} from "../http/HttpServer.ts";
import {bearerToken, unauthorized} from "../http/gate.ts";
import {isLoopbackHost, normaliseOrigin} from "../http/browserPolicy.ts";
import {baseHeaders, writeJson} from "../http/replies.ts";
import {readJsonBody, requireJsonBody} from "../http/requests.ts";
import type {ServiceBackend} from "./backend.ts";
import {hashKey, keyMatches} from "./keys.ts";
import {ServiceStoreError} from "./store.ts";
import {adminKeyEnvVar} from "../cli/engineKeyEnv.ts";

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (`::ffff:127.0.0.1`), as Node reports a socket's peer. */
export function isLoopbackAddress(address: string | undefined): boolean {
    if (address == null) return false;
    const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
    return address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Who may use the admin API and `/metrics` (never open to the network). With an admin key, whoever
 * presents it (compared in constant time). Without one, only this machine: a loopback peer, a Host naming the
 * loopback (a DNS-rebinding page sends its own name) and no Origin but a loopback one, since a web page in the
 * user's browser is also a loopback peer and, once the server is keyed, CORS would let it read the answer.
 */
export class AdminAccess {
    private readonly keyHash?: Buffer;

    public constructor(adminKey: string | undefined) {
        this.keyHash = adminKey != null && adminKey !== "" ? hashKey(adminKey) : undefined;
    }

    public check(req: IncomingMessage) {
        if (this.keyHash != null) {
            const token = bearerToken(req);
            if (token == null || !keyMatches(token, this.keyHash))
                throw unauthorized("the admin API needs the admin key: send Authorization: Bearer <admin key>");
            return;
        }
        const origin = req.headers.origin;
        const originHost = origin == null ? undefined : normaliseOrigin(origin) && new URL(normaliseOrigin(origin)!).host;
        if (!isLoopbackAddress(req.socket.remoteAddress) || !isLoopbackHost(req.headers.host) || (origin != null && !isLoopbackHost(originHost)))
            throw new ApiError(403, "admin_forbidden", "the admin API answers this machine only (a loopback address, Host and Origin); " +
                `to reach it from elsewhere, start the server with --admin-key or $${adminKeyEnvVar}`);
    }
}

/** Admin bodies are a few fields; anything larger is not an admin call. */
const maxBodyBytes = 64 * 1024;

type Handler<N extends AdminRouteName> = (body: Body, params: Record<string, string>, query: URLSearchParams) => Promise<AdminRouteTypes[N]["answer"]>;
type Body = Record<string, unknown>;

/**
 * The admin API (protocol/admin/routes.ts) over the store: the same operations as `svc-studio admin`, for the app.
 * The caller is authorized before this runs (AdminAccess above).
 */
export function createAdminHandler(store: ServiceBackend, keyActivationMs: number) {
    const workspaceFilter = (query: URLSearchParams) => query.get("workspace") ?? undefined;
    const handlers: {[N in AdminRouteName]: Handler<N>} = {
        organizations: async () => ({organizations: await store.listOrganizations()}),
        createOrganization: async (body) => ({organization: await store.createOrganization(text(body, "name"))}),
        workspaces: async () => ({workspaces: await store.listWorkspaces()}),
        createWorkspace: async (body) => ({workspace: await store.createWorkspace(text(body, "organizationId"), text(body, "name"))}),
        activateWorkspace: async (_, {id}) => ({workspace: await store.activateWorkspace(id)}),
        addCredits: async (body, {id}) => ({workspace: await store.addCredits(id, integer(body, "amountMicros"), {note: optional(body, "note", "string")})}),
        prices: async () => ({prices: await store.listPrices()}),
        setPrice: async (body) => ({price: await store.setPrice({
            model: text(body, "model"),
            inputMicrosPerMillion: integer(body, "inputMicrosPerMillion"),
            cachedInputMicrosPerMillion: integer(body, "cachedInputMicrosPerMillion"),
            outputMicrosPerMillion: integer(body, "outputMicrosPerMillion")
        })}),
        rateLimits: async (_, __, query) => ({rateLimits: await store.listRateLimits(workspaceFilter(query))}),
        setRateLimit: async (body) => ({rateLimit: await store.setRateLimit({
            workspaceId: text(body, "workspaceId"),
            model: text(body, "model"),
            requestsPerMinute: optional(body, "requestsPerMinute", "number") ?? null,
            tokensPerMinute: optional(body, "tokensPerMinute", "number") ?? null
        })}),
        keys: async (_, __, query) => ({keys: await store.listKeys({workspaceId: workspaceFilter(query), userId: query.get("user") ?? undefined}, keyActivationMs)}),
        createKey: (body) => store.createKey({
            workspaceId: text(body, "workspaceId"),
            name: optional(body, "name", "string"),
            owner: optional(body, "owner", "object") as KeyOwner | undefined,
            visibility: optional(body, "visibility", "string") as "private" | "shared" | undefined
        }, keyActivationMs),
        rotateKey: (_, {id}) => store.rotateKey(id, keyActivationMs),
        revokeKey: async (_, {id}) => ({key: await store.revokeKey(id, keyActivationMs)}),
        usage: async (body) => ({rows: await store.usageReport({
            workspaceId: optional(body, "workspaceId", "string"),
            keyId: optional(body, "keyId", "string"),
            groupBy: groups(body),
            since: optional(body, "since", "string"),
            until: optional(body, "until", "string")
        })})
    };

    return async (context: RequestContext) => {
        const {req, res, url} = context;
        const route = adminTable.match(req.method ?? "", url.pathname.slice(adminPrefix.length));
        if (route == null) throw new ApiError(404, "not_found", `no admin endpoint ${req.method} ${url.pathname}`);
        let body: Body = {};
        if (req.method === "POST") {
            requireJsonBody(req);
            const parsed = await readJsonBody(req, {maxBytes: maxBodyBytes, timeoutMs: 10_000});
            if (parsed == null || typeof parsed !== "object" || Array.isArray(parsed)) throw invalid("the body must be a JSON object");
            body = parsed as Body;
        }
        const params = Object.fromEntries(Object.entries(route.params).map(([name, value]) => [name, decodeParam(value)]));
        let answer: unknown;
        try {
            answer = await (handlers[route.name] as Handler<AdminRouteName>)(body, params, url.searchParams);
        } catch (error) {
            throw toApiError(error);
        }
        writeJson(res, route.name.startsWith("create") ? 201 : 200, answer, {...baseHeaders(context.traceId), "Cache-Control": "no-store"});
    };
}

/** Store faults as API errors: a missing thing 404, a clash 409, a bad value 400. */
function toApiError(error: unknown): unknown {
    if (!(error instanceof ServiceStoreError)) return error;
    const status = {not_found: 404, conflict: 409, invalid: 400, schema_too_new: 500}[error.code];
    return new ApiError(status, error.code === "invalid" ? "invalid_request" : error.code, error.message);
}

function invalid(message: string) {
    return new ApiError(400, "invalid_request", message);
}

function decodeParam(value: string): string {
    try {
        return decodeURIComponent(value);
    } catch {
        throw invalid(`not a URL-encoded path segment: ${JSON.stringify(value)}`);
    }
}

function groups(body: Body): UsageGroup[] {
    const value = body.groupBy ?? [];
    if (!Array.isArray(value) || !value.every((group) => typeof group === "string")) throw invalid("groupBy: a list of key, model, day is required");
    return value as UsageGroup[];
}

function text(body: Body, name: string): string {
    const value = body[name];
    if (typeof value !== "string") throw invalid(`${name}: a string is required`);
    return value;
}

function integer(body: Body, name: string): number {
    const value = body[name];
    if (!Number.isSafeInteger(value)) throw invalid(`${name}: a whole number is required`);
    return value as number;
}

function optional<T extends "string" | "number" | "object">(body: Body, name: string, type: T): (T extends "string" ? string : T extends "number" ? number : object) | undefined {
    const value = body[name];
    if (value == null) return undefined;
    if (typeof value !== type) throw invalid(`${name}: must be a ${type}`);
    return value as never;
}
