import assert from "node:assert/strict";
import {mkdtemp, readFile, rm, stat, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {KeyVault, KeyVaultError, MemoryKeyVault} from "./KeyVault.ts";
import {safeStorageDouble} from "../../test/support/gateway/safeStorageDouble.ts";

const dir = await mkdtemp(path.join(os.tmpdir(), "svc-vault-"));
after(() => rm(dir, {recursive: true, force: true}));

test("a key round-trips through the file, encrypted by the backend, in a 0600 file", async () => {
    const filePath = path.join(dir, "roundtrip", "keys.json");
    const backend = safeStorageDouble();
    const vault = await KeyVault.open({filePath, backend});
    assert.equal(vault.has("remote-1"), false);
    await vault.set("remote-1", "ck_roundtrip_secret");

    const text = await readFile(filePath, "utf8");
    assert.ok(!text.includes("ck_roundtrip_secret"), "the key must not be stored in clear");
    assert.equal((await stat(filePath)).mode & 0o777, 0o600);

    const reopened = await KeyVault.open({filePath, backend: safeStorageDouble()});
    assert.equal(reopened.has("remote-1"), true);
    assert.equal(reopened.get("remote-1"), "ck_roundtrip_secret");
    assert.equal(reopened.get("remote-2"), undefined);

    await reopened.delete("remote-1");
    assert.equal((await KeyVault.open({filePath, backend})).has("remote-1"), false);
});

test("a key file with looser permissions is tightened to 0600 when opened", async () => {
    const filePath = path.join(dir, "loose.json");
    await writeFile(filePath, JSON.stringify({version: 1, backend: "test_keyring", keys: {}}), {mode: 0o644});
    await KeyVault.open({filePath, backend: safeStorageDouble()});
    assert.equal((await stat(filePath)).mode & 0o777, 0o600);
});

test("basic_text (no keyring) is refused without consent and nothing is written", async () => {
    const filePath = path.join(dir, "basic.json");
    const vault = await KeyVault.open({filePath, backend: safeStorageDouble("basic_text")});
    await assert.rejects(vault.set("remote-1", "ck_plain"), (error: unknown) =>
        error instanceof KeyVaultError && error.code === "plaintext_refused" && /keyring/.test(error.message));
    await assert.rejects(readFile(filePath), {code: "ENOENT"});
    assert.equal(vault.storageProblem()?.code, "plaintext_refused");
});

test("basic_text is used when allowed by the flag, and a recorded consent survives reopening", async () => {
    const flagged = await KeyVault.open({filePath: path.join(dir, "flag.json"), backend: safeStorageDouble("basic_text"), allowPlaintextFallback: true});
    await flagged.set("remote-1", "ck_flagged");
    assert.equal(flagged.get("remote-1"), "ck_flagged");

    const filePath = path.join(dir, "consent.json");
    const vault = await KeyVault.open({filePath, backend: safeStorageDouble("basic_text")});
    await vault.acceptPlaintextFallback();
    await vault.set("remote-1", "ck_consented");
    // The next launch: Electron's safeStorage starts with plaintext encryption off again.
    const reopened = await KeyVault.open({filePath, backend: safeStorageDouble("basic_text")});
    assert.equal(reopened.plaintextFallbackAllowed(), true);
    assert.equal(reopened.get("remote-1"), "ck_consented", "a key saved with consent decrypts at the next launch");
    await reopened.set("remote-2", "ck_second");
    assert.equal(reopened.get("remote-2"), "ck_second");
});

test("an unavailable backend refuses to store", async () => {
    const vault = await KeyVault.open({filePath: path.join(dir, "none.json"), backend: safeStorageDouble("gnome_libsecret", false)});
    await assert.rejects(vault.set("remote-1", "ck_x"), (error: unknown) => error instanceof KeyVaultError && error.code === "encryption_unavailable");
});

test("a key that no longer decrypts is a decrypt_failed error, not garbage", async () => {
    const filePath = path.join(dir, "broken.json");
    const vault = await KeyVault.open({filePath, backend: safeStorageDouble()});
    await vault.set("remote-1", "ck_x");
    const failing = {...safeStorageDouble("kwallet"), decrypt: () => { throw new Error("wrong keyring"); }};
    const reopened = await KeyVault.open({filePath, backend: failing});
    assert.throws(() => reopened.get("remote-1"), (error: unknown) => error instanceof KeyVaultError && error.code === "decrypt_failed");
});

test("the memory vault keeps keys in the process only", async () => {
    const vault = new MemoryKeyVault();
    assert.equal(vault.persistent, false);
    await vault.set("remote-1", "ck_mem");
    assert.equal(vault.has("remote-1"), true);
    assert.equal(vault.get("remote-1"), "ck_mem");
    await vault.delete("remote-1");
    assert.equal(vault.get("remote-1"), undefined);
});
