import type {Organization, Workspace} from "../../protocol/admin/contract.ts";
import {isoTime, newId, ServiceStoreError, type ServiceStore} from "./store.ts";

// Organizations, their workspaces (spec §1 rule 5), activation (§3) and prepaid credits (§1 rule 4).

export type WorkspaceRow = {id: string, organization_id: string, name: string, activated_at: number | null, balance_micros: number, created_at: number, credited: number};

const workspaceSelect = `SELECT w.*, (SELECT COALESCE(SUM(amount_micros), 0) FROM credits c WHERE c.workspace_id = w.id) AS credited FROM workspaces w`;

export function createOrganization(store: ServiceStore, name: string): Organization {
    const trimmed = requireName(name, "organization");
    return store.transaction(() => {
        if (store.statement("SELECT 1 FROM organizations WHERE name = ?").get(trimmed) != null)
            throw new ServiceStoreError("conflict", `an organization named ${JSON.stringify(trimmed)} exists already`);
        const id = newId("org");
        store.statement("INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)").run(id, trimmed, Date.now());
        return getOrganization(store, id);
    });
}

export function listOrganizations(store: ServiceStore): Organization[] {
    return (store.statement("SELECT * FROM organizations ORDER BY created_at, id").all() as Array<{id: string, name: string, created_at: number}>)
        .map((row) => ({id: row.id, name: row.name, createdAt: isoTime(row.created_at)}));
}

/** An organization by id or by its (unique) name. */
export function getOrganization(store: ServiceStore, ref: string): Organization {
    const found = listOrganizations(store).find((organization) => organization.id === ref || organization.name === ref);
    if (found == null) throw new ServiceStoreError("not_found", `no organization ${JSON.stringify(ref)}`);
    return found;
}

/** A new workspace: not activated, no credit (spec §3), so its keys serve nothing until both are given. */
export function createWorkspace(store: ServiceStore, organizationRef: string, name: string): Workspace {
    const trimmed = requireName(name, "workspace");
    return store.transaction(() => {
        const organization = getOrganization(store, organizationRef);
        if (store.statement("SELECT 1 FROM workspaces WHERE organization_id = ? AND name = ?").get(organization.id, trimmed) != null)
            throw new ServiceStoreError("conflict", `organization ${organization.name} has a workspace named ${JSON.stringify(trimmed)} already`);
        const id = newId("ws");
        store.statement("INSERT INTO workspaces (id, organization_id, name, created_at) VALUES (?, ?, ?, ?)").run(id, organization.id, trimmed, Date.now());
        return requireWorkspace(store, id);
    });
}

export function listWorkspaces(store: ServiceStore): Workspace[] {
    return (store.statement(`${workspaceSelect} ORDER BY w.created_at, w.id`).all() as WorkspaceRow[]).map(toWorkspace);
}

/** A workspace by id, by `organization/name`, or by a name no other workspace has. */
export function requireWorkspace(store: ServiceStore, ref: string): Workspace {
    const row = store.statement(`${workspaceSelect} WHERE w.id = ?`).get(ref) as WorkspaceRow | undefined;
    if (row != null) return toWorkspace(row);
    const slash = ref.indexOf("/");
    const matches = (slash > 0
        ? store.statement(`${workspaceSelect} JOIN organizations o ON o.id = w.organization_id WHERE o.name = ? AND w.name = ?`).all(ref.slice(0, slash), ref.slice(slash + 1))
        : store.statement(`${workspaceSelect} WHERE w.name = ?`).all(ref)) as WorkspaceRow[];
    if (matches.length === 1) return toWorkspace(matches[0]);
    throw new ServiceStoreError(matches.length === 0 ? "not_found" : "conflict", matches.length === 0
        ? `no workspace ${JSON.stringify(ref)}`
        : `${matches.length} workspaces are named ${JSON.stringify(ref)}; name it as <organization>/<workspace> or by id`);
}

/** Spec §3: the local stand-in for "a payment method is added". Activating twice keeps the first time. */
export function activateWorkspace(store: ServiceStore, ref: string): Workspace {
    return store.transaction(() => {
        const workspace = requireWorkspace(store, ref);
        store.statement("UPDATE workspaces SET activated_at = COALESCE(activated_at, ?) WHERE id = ?").run(Date.now(), workspace.id);
        return requireWorkspace(store, workspace.id);
    });
}

/**
 * Adds prepaid credit (spec §1 rule 4): a `credits` row and the balance change in one transaction, so the balance
 * always equals credits less charges. A negative amount (a correction) needs `allowNegative`.
 */
export function addCredits(store: ServiceStore, ref: string, amountMicros: number, {note, allowNegative = false}: {note?: string, allowNegative?: boolean} = {}): Workspace {
    checkCredit(amountMicros, allowNegative);
    return store.transaction(() => {
        const workspace = requireWorkspace(store, ref);
        store.statement("INSERT INTO credits (workspace_id, amount_micros, note, created_at) VALUES (?, ?, ?, ?)").run(workspace.id, amountMicros, note ?? null, Date.now());
        store.statement("UPDATE workspaces SET balance_micros = balance_micros + ? WHERE id = ?").run(amountMicros, workspace.id);
        return requireWorkspace(store, workspace.id);
    });
}

/** Credit is a whole, non-zero number of micro-units; a negative one (a correction) only when allowed. */
export function checkCredit(amountMicros: number, allowNegative = false) {
    if (!Number.isSafeInteger(amountMicros) || amountMicros === 0 || (amountMicros < 0 && !allowNegative))
        throw new ServiceStoreError("invalid", `credits are a positive whole number of micro-units, got ${amountMicros}`);
}

/** Whether any workspace exists: the switch into workspace mode. Workspaces are never deleted. */
export function hasWorkspaces(store: ServiceStore): boolean {
    return store.statement("SELECT 1 FROM workspaces LIMIT 1").get() != null;
}

export function toWorkspace(row: WorkspaceRow): Workspace {
    return {
        id: row.id,
        organizationId: row.organization_id,
        name: row.name,
        activatedAt: isoTime(row.activated_at),
        balanceMicros: row.balance_micros,
        creditedMicros: row.credited,
        createdAt: isoTime(row.created_at)
    };
}

export function requireName(name: string, what: string): string {
    const trimmed = name.trim();
    if (trimmed === "" || trimmed.length > 200 || trimmed.includes("/"))
        throw new ServiceStoreError("invalid", `a ${what} name is 1 to 200 characters without "/", got ${JSON.stringify(name)}`);
    return trimmed;
}
