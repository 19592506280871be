import type {ApiKeyInfo, IssuedKey, ModelPrice, NewKey, Organization, RateLimit, UsageQuery, UsageRow, Workspace} from "../../protocol/admin/contract.ts";
import type {AdmissionRequest, AdmittedRequest} from "./admission.ts";
import type {Charge, Hold} from "./billing.ts";
import type {KeyRecord} from "./keys.ts";

// The service store as the server, the admin API and the CLI use it, whatever holds it: one SQLite file for one
// server (sqliteBackend.ts), or a PostgreSQL database that several servers share (postgres/PostgresBackend.ts). Every
// call is asynchronous so that both fit; the SQLite one answers from the same synchronous functions as before.

/** What admission reads of a workspace: whether it may serve, and its balance. */
export type WorkspaceFunds = {id: string, activatedAt: number | null, balanceMicros: number};

/** Everything a request's admission needs, read at once for its key and model. */
export type Admission = {key: KeyRecord, workspace: WorkspaceFunds, price: ModelPrice, limit: RateLimit};

/** The admin operations (svc-studio admin, /admin/v1), each checked and done in one transaction. */
export interface ServiceAdminOperations {
    createOrganization(name: string): Promise<Organization>,
    listOrganizations(): Promise<Organization[]>,
    createWorkspace(organizationRef: string, name: string): Promise<Workspace>,
    listWorkspaces(): Promise<Workspace[]>,
    /** By id, `organization/name`, or a name no other workspace has. */
    requireWorkspace(ref: string): Promise<Workspace>,
    activateWorkspace(ref: string): Promise<Workspace>,
    addCredits(ref: string, amountMicros: number, options?: {note?: string}): Promise<Workspace>,
    setPrice(price: ModelPrice): Promise<ModelPrice>,
    getPrice(model: string): Promise<ModelPrice>,
    listPrices(): Promise<ModelPrice[]>,
    setRateLimit(limit: RateLimit): Promise<RateLimit>,
    listRateLimits(workspaceId?: string): Promise<RateLimit[]>,
    createKey(input: NewKey, activationMs?: number): Promise<IssuedKey>,
    rotateKey(id: string, activationMs?: number): Promise<IssuedKey>,
    revokeKey(id: string, activationMs?: number): Promise<ApiKeyInfo>,
    listKeys(filter?: {workspaceId?: string, userId?: string}, activationMs?: number): Promise<ApiKeyInfo[]>,
    usageReport(query: UsageQuery): Promise<UsageRow[]>
}

/**
 * Metering on a request's path: admission (key, workspace, price, limit), the hold, the rate limit, the charge.
 * Nothing here is cached between requests, so a revocation, a price or a limit set anywhere holds from the next one.
 */
export interface ServiceMetering {
    /** Whether any workspace exists: the switch into workspace mode. */
    hasWorkspaces(): Promise<boolean>,
    /** The key with this lookup, its workspace, and the price and limit of `model` for it; undefined for no such key. */
    admission(lookup: string, model: string): Promise<Admission | undefined>,
    /**
     * A request's whole admission: its key read and checked (401), the most it can cost held (402), a request taken
     * from its rate buckets (429), as `admission` then `reserve` do; on PostgreSQL in one statement, one round trip.
     */
    admit(request: AdmissionRequest): Promise<AdmittedRequest>,
    /**
     * Holds `micros` of the workspace's credit, or throws the 402 (billing.ts, quotaRefusal); then, with `limit`,
     * takes one request from its buckets, or lets the hold go and throws the 429 (rateLimits.ts, rateRefusal).
     */
    reserve(workspace: WorkspaceFunds, micros: number, limit?: RateLimit): Promise<Hold>,
    /** Lets a hold go uncharged; safe to call twice. Never throws: a hold it cannot release expires. */
    release(hold: Hold): void,
    /**
     * Charges a completed request and lets its hold go, in one transaction; its tokens then go to the token
     * bucket. False when the request id was charged already.
     */
    settle(hold: Hold, charge: Charge, limit: RateLimit): Promise<boolean>
}

export interface ServiceBackend extends ServiceAdminOperations, ServiceMetering {
    readonly kind: "sqlite" | "postgres",
    /** The file, or the database URL without its password, for messages. */
    readonly location: string,
    /** Applies the migrations the store has not seen (opening did already); the schema version before and after. */
    migrate(): Promise<{from: number, to: number}>,
    close(): Promise<void>
}
