import type {RateLimit} from "../../../protocol/admin/contract.ts";
import type {AdmissionRequest, AdmittedRequest} from "../admission.ts";
import type {Admission, ServiceAdminOperations, ServiceBackend, WorkspaceFunds} from "../backend.ts";
import type {Charge, Hold} from "../billing.ts";
import {PgDatabase} from "./database.ts";
import {redactedUrl} from "./databaseUrl.ts";
import {pgAdminOperations} from "./pgAdmin.ts";
import {PgMetering} from "./pgMetering.ts";

/**
 * The service store in a PostgreSQL database that several fronts (`serve --upstream --database`) and the CLI
 * share: the admin operations (pgAdmin.ts) and metering with shared holds and rate-limit buckets (pgMetering.ts)
 * over one connection pool (database.ts).
 */
export class PostgresBackend implements ServiceBackend {
    public readonly kind = "postgres";
    public readonly location: string;
    public readonly db: PgDatabase;
    private readonly admin: ServiceAdminOperations;
    private readonly metering: PgMetering;

    private constructor(url: string, db: PgDatabase, front: string, leaseMs?: number) {
        this.location = redactedUrl(url);
        this.db = db;
        this.admin = pgAdminOperations(db);
        this.metering = new PgMetering(db, {front, leaseMs});
    }

    /**
     * Connects and brings the schema up to date (under a lock: fronts starting together migrate once). `front`
     * names this process in its connections' application_name and its holds' rows.
     */
    public static async open(url: string, {front = "svc-studio", leaseMs, poolSize}: {front?: string, leaseMs?: number, poolSize?: number} = {}): Promise<PostgresBackend> {
        const db = new PgDatabase(url, {applicationName: `svc-studio ${front}`.slice(0, 63), max: poolSize});
        const backend = new PostgresBackend(url, db, front, leaseMs);
        try {
            await db.migrate();
        } catch (error) {
            await backend.close();
            throw error;
        }
        return backend;
    }

    public migrate() {
        return this.db.migrate();
    }

    public async close() {
        this.metering.stop();
        await this.db.close();
    }

    public createOrganization(name: string) { return this.admin.createOrganization(name); }
    public listOrganizations() { return this.admin.listOrganizations(); }
    public createWorkspace(organizationRef: string, name: string) { return this.admin.createWorkspace(organizationRef, name); }
    public listWorkspaces() { return this.admin.listWorkspaces(); }
    public requireWorkspace(ref: string) { return this.admin.requireWorkspace(ref); }
    public activateWorkspace(ref: string) { return this.admin.activateWorkspace(ref); }
    public addCredits(ref: string, amountMicros: number, options?: {note?: string}) { return this.admin.addCredits(ref, amountMicros, options); }
    public setPrice(price: Parameters<ServiceAdminOperations["setPrice"]>[0]) { return this.admin.setPrice(price); }
    public getPrice(model: string) { return this.admin.getPrice(model); }
    public listPrices() { return this.admin.listPrices(); }
    public setRateLimit(limit: RateLimit) { return this.admin.setRateLimit(limit); }
    public listRateLimits(workspaceId?: string) { return this.admin.listRateLimits(workspaceId); }
    public createKey(input: Parameters<ServiceAdminOperations["createKey"]>[0], activationMs?: number) { return this.admin.createKey(input, activationMs); }
    public rotateKey(id: string, activationMs?: number) { return this.admin.rotateKey(id, activationMs); }
    public revokeKey(id: string, activationMs?: number) { return this.admin.revokeKey(id, activationMs); }
    public listKeys(filter?: {workspaceId?: string, userId?: string}, activationMs?: number) { return this.admin.listKeys(filter, activationMs); }
    public usageReport(query: Parameters<ServiceAdminOperations["usageReport"]>[0]) { return this.admin.usageReport(query); }

    public hasWorkspaces() { return this.metering.hasWorkspaces(); }
    public admission(lookup: string, model: string): Promise<Admission | undefined> { return this.metering.admission(lookup, model); }
    public admit(request: AdmissionRequest): Promise<AdmittedRequest> { return this.metering.admit(request); }
    public reserve(workspace: WorkspaceFunds, micros: number, limit?: RateLimit): Promise<Hold> { return this.metering.reserve(workspace, micros, limit); }
    public release(hold: Hold) { this.metering.release(hold); }
    public settle(hold: Hold, charge: Charge, limit: RateLimit) { return this.metering.settle(hold, charge, limit); }
}
