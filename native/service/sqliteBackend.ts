import type {RateLimit} from "../../protocol/admin/contract.ts";
import {activateWorkspace, addCredits, createOrganization, createWorkspace, hasWorkspaces, listOrganizations, listWorkspaces, requireWorkspace} from "./accounts.ts";
import {type AdmissionRequest, admitInSteps} from "./admission.ts";
import type {Admission, ServiceBackend, WorkspaceFunds} from "./backend.ts";
import {type Charge, type Hold, Ledger} from "./billing.ts";
import {createKey, findKey, listKeys, revokeKey, rotateKey} from "./keys.ts";
import {getPrice, getRateLimit, listPrices, listRateLimits, setPrice, setRateLimit} from "./pricing.ts";
import {RateLimiter} from "./rateLimits.ts";
import {ServiceStore} from "./store.ts";
import {usageReport} from "./usageReports.ts";

/**
 * The service store in one SQLite file, for one server (and the CLI beside it): the synchronous functions of
 * accounts.ts, keys.ts, pricing.ts and usageReports.ts behind the asynchronous interface. Holds and rate-limit
 * buckets live in this process (Ledger, RateLimiter): with one server there is nobody to share them with, and
 * everything on a request's path stays a synchronous call on the one event loop.
 */
export class SqliteBackend implements ServiceBackend {
    public readonly kind = "sqlite";
    public readonly location: string;
    public readonly store: ServiceStore;
    private readonly ledger: Ledger;
    private readonly limiter = new RateLimiter();

    public constructor(store: ServiceStore) {
        this.store = store;
        this.location = store.filePath;
        this.ledger = new Ledger(store);
    }

    /** Opens (creating, migrating) `<dataDir>/service.db`; a server passes `backgroundCheckpoints` (store.ts). */
    public static open(dataDir: string, options?: {backgroundCheckpoints?: boolean}): SqliteBackend {
        return new SqliteBackend(ServiceStore.open(dataDir, options));
    }

    public async migrate() {
        // Opening migrated already; the version is the schema's.
        const version = this.store.db.pragma("user_version", {simple: true}) as number;
        return {from: version, to: version};
    }

    public close() {
        return this.store.close();
    }

    public async createOrganization(name: string) { return createOrganization(this.store, name); }
    public async listOrganizations() { return listOrganizations(this.store); }
    public async createWorkspace(organizationRef: string, name: string) { return createWorkspace(this.store, organizationRef, name); }
    public async listWorkspaces() { return listWorkspaces(this.store); }
    public async requireWorkspace(ref: string) { return requireWorkspace(this.store, ref); }
    public async activateWorkspace(ref: string) { return activateWorkspace(this.store, ref); }
    public async addCredits(ref: string, amountMicros: number, options?: {note?: string}) { return addCredits(this.store, ref, amountMicros, options); }
    public async setPrice(price: Parameters<typeof setPrice>[1]) { return setPrice(this.store, price); }
    public async getPrice(model: string) { return getPrice(this.store, model); }
    public async listPrices() { return listPrices(this.store); }
    public async setRateLimit(limit: RateLimit) { return setRateLimit(this.store, limit); }
    public async listRateLimits(workspaceId?: string) { return listRateLimits(this.store, workspaceId); }
    public async createKey(input: Parameters<typeof createKey>[1], activationMs?: number) { return createKey(this.store, input, activationMs); }
    public async rotateKey(id: string, activationMs?: number) { return rotateKey(this.store, id, activationMs); }
    public async revokeKey(id: string, activationMs?: number) { return revokeKey(this.store, id, activationMs); }
    public async listKeys(filter?: {workspaceId?: string, userId?: string}, activationMs?: number) { return listKeys(this.store, filter, activationMs); }
    public async usageReport(query: Parameters<typeof usageReport>[1]) { return usageReport(this.store, query); }

    public async hasWorkspaces() {
        return hasWorkspaces(this.store);
    }

    public async admission(lookup: string, model: string): Promise<Admission | undefined> {
        const key = findKey(this.store, lookup);
        if (key == null) return undefined;
        const workspace = this.store.statement("SELECT id, activated_at AS activatedAt, balance_micros AS balanceMicros FROM workspaces WHERE id = ?")
            .get(key.workspaceId) as WorkspaceFunds;
        return {key, workspace, price: getPrice(this.store, model), limit: getRateLimit(this.store, workspace.id, model)};
    }

    public admit(request: AdmissionRequest) {
        return admitInSteps(this, request);
    }

    public async reserve(workspace: WorkspaceFunds, micros: number, limit?: RateLimit): Promise<Hold> {
        const hold = this.ledger.reserve(workspace, micros);
        try {
            if (limit != null) this.limiter.admit(limit);
        } catch (error) {
            this.ledger.release(hold);
            throw error;
        }
        return hold;
    }

    public release(hold: Hold) {
        this.ledger.release(hold);
    }

    public async settle(hold: Hold, charge: Charge, limit: RateLimit): Promise<boolean> {
        const charged = this.ledger.settle(hold, charge);
        const {tokens} = charge;
        this.limiter.spend(limit, tokens.uncachedInputTokens + tokens.cachedInputTokens + tokens.outputTokens);
        return charged;
    }
}
