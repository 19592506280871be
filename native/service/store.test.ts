import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, rm, stat} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {openSqlite} from "../../base/node/sqlite.ts";
import {migrations, ServiceStore, serviceDbFile} from "./store.ts";
import {createKey, hashKey, keyMatches, keyState, listKeys, rotateKey} from "./keys.ts";
import {keyLookup} from "../../protocol/admin/contract.ts";
import {createOrganization, createWorkspace, requireWorkspace} from "./accounts.ts";

async function withDir(run: (dir: string) => Promise<void> | void) {
    const dir = await mkdtemp(path.join(tmpdir(), "svc-store-"));
    try {
        await run(dir);
    } finally {
        await rm(dir, {recursive: true, force: true});
    }
}

test("migrations: a new file is brought to the latest user_version in WAL mode; reopening changes nothing; a newer file is refused", () => withDir((dir) => {
    const store = ServiceStore.open(dir);
    assert.equal(store.db.pragma("user_version", {simple: true}), migrations.length);
    assert.equal(store.db.pragma("journal_mode", {simple: true}), "wal");
    createOrganization(store, "kept");
    store.close();
    const again = ServiceStore.open(dir);
    assert.equal(again.db.prepare("SELECT COUNT(*) FROM organizations").pluck().get(), 1);
    again.close();
    const raw = openSqlite(path.join(dir, serviceDbFile));
    raw.pragma(`user_version = ${migrations.length + 1}`);
    raw.close();
    assert.throws(() => ServiceStore.open(dir), {code: "schema_too_new"});
}));

test("service.db and its WAL are created readable by their owner only (0600): they hold key hashes and the ledger", {skip: process.platform === "win32"}, () => withDir(async (dir) => {
    const store = ServiceStore.open(dir);
    try {
        createOrganization(store, "o");
        assert.equal((await stat(path.join(dir, serviceDbFile))).mode & 0o777, 0o600);
        assert.equal((await stat(path.join(dir, `${serviceDbFile}-wal`))).mode & 0o777, 0o600);
    } finally {
        await store.close();
    }
}));

test("keys: ck_ prefix, a lookup and a secret; only the hash is stored; constant-time match; states", () => withDir(async (dir) => {
    const store = ServiceStore.open(dir);
    try {
        const ws = createWorkspace(store, createOrganization(store, "o").id, "w");
        const {key, secret} = createKey(store, {workspaceId: ws.id, owner: {type: "user", userId: "ada"}, visibility: "private"});
        assert.match(secret, /^ck_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
        assert.equal(keyLookup(secret), secret.slice(3, 15));
        for (const malformed of ["sk-abc", "ck_", "ck_0123456789ab", `ck_0123456789AB_${"a".repeat(43)}`, `${secret}x`]) assert.equal(keyLookup(malformed), undefined, malformed);
        const stored = store.db.prepare("SELECT secret_hash FROM api_keys WHERE id = ?").pluck().get(key.id) as Uint8Array;
        assert.deepEqual(Buffer.from(stored), hashKey(secret));
        assert.equal(keyMatches(secret, stored), true);
        assert.equal(keyMatches(secret.slice(0, -1) + "x", stored), false);
        assert.throws(() => createKey(store, {workspaceId: ws.id, visibility: "private"}), {code: "invalid"}, "a workspace-owned key is shared");

        assert.equal(keyState({issuedAt: 1_000, revokedAt: null}, 60_000, 30_000), "activating");
        assert.equal(keyState({issuedAt: 1_000, revokedAt: null}, 60_000, 61_000), "active");
        assert.equal(keyState({issuedAt: 1_000, revokedAt: 2_000}, 0, 3_000), "revoked");

        const shared = createKey(store, {workspaceId: ws.id, name: "team"});
        assert.deepEqual(listKeys(store, {userId: "bob"}).map((listed) => listed.id), [shared.key.id], "bob sees the shared key, not ada's private one");
        assert.equal(listKeys(store, {userId: "ada"}).length, 2);
        const rotated = rotateKey(store, key.id);
        assert.notEqual(rotated.secret, secret);
        assert.equal(rotated.key.id, key.id);
        store.db.pragma("wal_checkpoint(TRUNCATE)");
        const bytes = await readFile(store.filePath);
        for (const issued of [secret, rotated.secret, shared.secret]) assert.equal(bytes.includes(issued.slice(16)), false);
        assert.equal(requireWorkspace(store, "o/w").id, ws.id);
        assert.throws(() => requireWorkspace(store, "nope"), {code: "not_found"});
    } finally {
        store.close();
    }
}));
