import {mkdtemp, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import type {ModelPrice} from "../../../protocol/admin/contract.ts";
import {activateWorkspace, addCredits, createOrganization, createWorkspace} from "../../../native/service/accounts.ts";
import {createKey} from "../../../native/service/keys.ts";
import {setPrice} from "../../../native/service/pricing.ts";
import {ServiceStore} from "../../../native/service/store.ts";

/** Prices with distinct rates per kind, so a bill that mixes them up shows (micro-units per million tokens). */
export const testPrices: ModelPrice[] = [
    {model: "svc-1", inputMicrosPerMillion: 3_000_000, cachedInputMicrosPerMillion: 500_000, outputMicrosPerMillion: 7_000_000},
    {model: "svc-1-decision", inputMicrosPerMillion: 2_000_000, cachedInputMicrosPerMillion: 1_000_000, outputMicrosPerMillion: 0}
];

/** A fresh data folder and the test's own connection to its database, as `svc-studio admin` would open it. */
export async function openTeamStore(): Promise<{dataDir: string, store: ServiceStore, remove(): Promise<void>}> {
    const dataDir = await mkdtemp(path.join(tmpdir(), "svc-team-"));
    const store = ServiceStore.open(dataDir);
    return {dataDir, store, remove: async () => {
        await store.close();
        await rm(dataDir, {recursive: true, force: true});
    }};
}

/** An organization with a workspace, activated with `credits` (micro-units) unless told otherwise, and one key. */
export function addWorkspace(store: ServiceStore, {organization = "acme", name, credits = 10_000_000, activate = true}: {organization?: string, name: string, credits?: number, activate?: boolean}) {
    const organizationId = store.db.prepare("SELECT id FROM organizations WHERE name = ?").pluck().get(organization) as string | undefined
        ?? createOrganization(store, organization).id;
    const workspace = createWorkspace(store, organizationId, name);
    if (activate) activateWorkspace(store, workspace.id);
    if (credits > 0) addCredits(store, workspace.id, credits);
    const {key, secret} = createKey(store, {workspaceId: workspace.id, name: `${name}-key`});
    return {workspaceId: workspace.id, keyId: key.id, secret};
}

export function setTestPrices(store: ServiceStore) {
    for (const price of testPrices) setPrice(store, price);
}

/** Spec §2.3 rule 2, written out independently of billing.ts: each kind at its rate, rounded up once per request. */
export function expectedCost(model: string, usage: {uncached: number, cached: number, output: number}): number {
    const price = testPrices.find((candidate) => candidate.model === model)!;
    const outputRate = model === "svc-1-decision" ? 0 : price.outputMicrosPerMillion;
    const scaled = usage.uncached * price.inputMicrosPerMillion + usage.cached * price.cachedInputMicrosPerMillion + usage.output * outputRate;
    return Math.ceil(scaled / 1_000_000);
}

export type LedgerState = {
    workspaceId: string,
    balance: number,
    credits: number,
    cost: number,
    rows: number,
    uncached: number,
    cached: number,
    output: number
};

/** Each workspace's balance beside what the credits and the usage ledger add up to. */
export function ledgerState(store: ServiceStore): LedgerState[] {
    return store.db.prepare(`SELECT w.id AS workspaceId, w.balance_micros AS balance,
        (SELECT COALESCE(SUM(amount_micros), 0) FROM credits c WHERE c.workspace_id = w.id) AS credits,
        COALESCE(SUM(u.cost_micros), 0) AS cost, COUNT(u.id) AS rows, COALESCE(SUM(u.uncached_input_tokens), 0) AS uncached,
        COALESCE(SUM(u.cached_input_tokens), 0) AS cached, COALESCE(SUM(u.output_tokens), 0) AS output
        FROM workspaces w LEFT JOIN usage u ON u.workspace_id = w.id GROUP BY w.id ORDER BY w.id`).all() as LedgerState[];
}

/** The ledger's rows by the trace id each request sent. */
export function ledgerByTrace(store: ServiceStore): Map<string, Array<{uncached: number, cached: number, output: number, cost: number, model: string}>> {
    const rows = store.db.prepare(`SELECT trace_id AS trace, uncached_input_tokens AS uncached, cached_input_tokens AS cached, output_tokens AS output,
        cost_micros AS cost, model FROM usage`).all() as Array<{trace: string, uncached: number, cached: number, output: number, cost: number, model: string}>;
    const byTrace = new Map<string, typeof rows>();
    for (const row of rows) byTrace.set(row.trace, [...byTrace.get(row.trace) ?? [], row]);
    return byTrace;
}
