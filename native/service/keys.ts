import {createHash, randomBytes, timingSafeEqual} from "node:crypto";
import {keyPrefix, type ApiKeyInfo, type IssuedKey, type KeyState, type NewKey} from "../../protocol/admin/contract.ts";
import {isoTime, newId, ServiceStoreError, type ServiceStore} from "./store.ts";
import {requireWorkspace} from "./accounts.ts";

// The key's shape is the admin contract's (keyLookup): the secret is never stored, only the SHA-256 of the whole key.
// A hash without salt is enough for a 256-bit random secret, which no dictionary holds.

/** The row of a key, as authorization reads it. */
export type KeyRecord = {
    id: string,
    workspaceId: string,
    secretHash: Uint8Array,
    issuedAt: number,
    revokedAt: number | null
};

export type KeyRow = {
    id: string, workspace_id: string, name: string, owner_user: string | null, visibility: "private" | "shared",
    lookup: string, created_at: number, issued_at: number, revoked_at: number | null
};

export function hashKey(key: string): Buffer {
    return createHash("sha256").update(key, "utf8").digest();
}

/** Constant-time: how long it takes says nothing about how much of the key matched. */
export function keyMatches(key: string, secretHash: Uint8Array): boolean {
    const presented = hashKey(key);
    return presented.length === secretHash.length && timingSafeEqual(presented, secretHash);
}

/**
 * Spec §3 and §5 rule 4: a key issued (created or rotated) less than `activationMs` ago is still activating and
 * may fail; a revoked key fails at once.
 */
export function keyState(key: {issuedAt: number, revokedAt: number | null}, activationMs: number, now = Date.now()): KeyState {
    if (key.revokedAt != null) return "revoked";
    return now < key.issuedAt + activationMs ? "activating" : "active";
}

/** The row authorization needs for `lookup`, read on every request so a revocation (even by the CLI) holds at once. */
export function findKey(store: ServiceStore, lookup: string): KeyRecord | undefined {
    const row = store.statement("SELECT id, workspace_id, secret_hash, issued_at, revoked_at FROM api_keys WHERE lookup = ?")
        .get(lookup) as {id: string, workspace_id: string, secret_hash: Uint8Array, issued_at: number, revoked_at: number | null} | undefined;
    return row && {id: row.id, workspaceId: row.workspace_id, secretHash: row.secret_hash, issuedAt: row.issued_at, revokedAt: row.revoked_at};
}

/** Creates a key; its secret is in the answer and nowhere else. */
export function createKey(store: ServiceStore, input: NewKey, activationMs = 0): IssuedKey {
    const {owner, visibility, name} = checkNewKey(input);
    return store.transaction(() => {
        requireWorkspace(store, input.workspaceId);
        const id = newId("key");
        const now = Date.now();
        const {lookup, secret} = freshSecret((candidate) => store.statement("SELECT 1 FROM api_keys WHERE lookup = ?").get(candidate) != null);
        store.statement("INSERT INTO api_keys (id, workspace_id, name, owner_user, visibility, lookup, secret_hash, created_at, issued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .run(id, input.workspaceId, name, owner.type === "user" ? owner.userId : null, visibility, lookup, hashKey(secret), now, now);
        return {key: getKey(store, id, activationMs), secret};
    });
}

/** A new key's owner, visibility and name, checked (spec §5 rule 2): a workspace-owned key is shared. */
export function checkNewKey(input: NewKey) {
    const owner = input.owner ?? {type: "workspace"};
    const visibility = input.visibility ?? (owner.type === "workspace" ? "shared" : "private");
    if ((owner.type !== "user" && owner.type !== "workspace") || (visibility !== "private" && visibility !== "shared"))
        throw new ServiceStoreError("invalid", "a key's owner is {type: user, userId} or {type: workspace}, its visibility private or shared");
    if (owner.type === "workspace" && visibility === "private")
        throw new ServiceStoreError("invalid", "a key owned by the workspace is shared with it; make it private by giving it a user owner");
    if (owner.type === "user" && (typeof owner.userId !== "string" || !/^\S{1,200}$/.test(owner.userId)))
        throw new ServiceStoreError("invalid", `a user owner needs a user id without spaces, got ${JSON.stringify(owner.userId)}`);
    return {owner, visibility, name: (input.name ?? "").trim() || "key"};
}

/** A new secret for the key (the old one fails at once); the key keeps its id, so its usage stays together. */
export function rotateKey(store: ServiceStore, id: string, activationMs = 0): IssuedKey {
    return store.transaction(() => {
        const key = getKey(store, id, activationMs);
        if (key.state === "revoked") throw new ServiceStoreError("conflict", `key ${id} is revoked; create a new one`);
        const {lookup, secret} = freshSecret((candidate) => store.statement("SELECT 1 FROM api_keys WHERE lookup = ?").get(candidate) != null);
        store.statement("UPDATE api_keys SET lookup = ?, secret_hash = ?, issued_at = ? WHERE id = ?").run(lookup, hashKey(secret), Date.now(), id);
        return {key: getKey(store, id, activationMs), secret};
    });
}

export function revokeKey(store: ServiceStore, id: string, activationMs = 0): ApiKeyInfo {
    return store.transaction(() => {
        getKey(store, id, activationMs);
        store.statement("UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?").run(Date.now(), id);
        return getKey(store, id, activationMs);
    });
}

/** Keys of a workspace (or all); with `userId`, those that user sees: its own and the shared ones (spec §5 rule 2). */
export function listKeys(store: ServiceStore, {workspaceId, userId}: {workspaceId?: string, userId?: string} = {}, activationMs = 0): ApiKeyInfo[] {
    const rows = store.statement(`SELECT * FROM api_keys WHERE (@workspace IS NULL OR workspace_id = @workspace)
        AND (@user IS NULL OR visibility = 'shared' OR owner_user = @user) ORDER BY created_at, id`).all({workspace: workspaceId ?? null, user: userId ?? null}) as KeyRow[];
    return rows.map((row) => toInfo(row, activationMs));
}

export function getKey(store: ServiceStore, id: string, activationMs = 0): ApiKeyInfo {
    const row = store.statement("SELECT * FROM api_keys WHERE id = ?").get(id) as KeyRow | undefined;
    if (row == null) throw new ServiceStoreError("not_found", `no key ${JSON.stringify(id)}`);
    return toInfo(row, activationMs);
}

export function toInfo(row: KeyRow, activationMs: number): ApiKeyInfo {
    return {
        id: row.id,
        workspaceId: row.workspace_id,
        name: row.name,
        owner: row.owner_user != null ? {type: "user", userId: row.owner_user} : {type: "workspace"},
        visibility: row.visibility,
        hint: `${keyPrefix}${row.lookup}_`,
        state: keyState({issuedAt: row.issued_at, revokedAt: row.revoked_at}, activationMs),
        createdAt: isoTime(row.created_at),
        issuedAt: isoTime(row.issued_at),
        revokedAt: isoTime(row.revoked_at)
    };
}

/** A lookup no other key uses (48 random bits, checked by `taken`) and the full secret key around it. */
export function freshSecret(taken: (lookup: string) => boolean): {lookup: string, secret: string} {
    for (;;) {
        const lookup = randomBytes(6).toString("hex");
        if (taken(lookup)) continue;
        return {lookup, secret: `${keyPrefix}${lookup}_${randomBytes(32).toString("base64url")}`};
    }
}
