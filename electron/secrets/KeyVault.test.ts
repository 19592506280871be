import assert from "node:assert/strict";
import {mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile} from "node:fs/promises";
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

test("an empty key file is moved aside with a timestamp, the vault starts empty and says what was lost; a new key file never replaces it", async () => {
    const folder = path.join(dir, "empty-file");
    await mkdir(folder);
    const filePath = path.join(folder, "keys.json");
    await writeFile(filePath, "");
    const now = () => new Date("2025-03-04T05:06:07.890Z");
    const vault = await KeyVault.open({filePath, backend: safeStorageDouble(), now});
    const aside = path.join(folder, "keys.json.unreadable-2025-03-04T05-06-07.890Z");
    assert.deepEqual(vault.recovery && {problem: vault.recovery.problem, movedTo: vault.recovery.movedTo}, {problem: "it is empty", movedTo: aside});
    assert.match(vault.recovery!.message, /could not be read .*it is empty.*moved to .*keys\.json\.unreadable-.*"no key" until you add them again with their key/);
    assert.equal(vault.has("remote-1"), false);
    assert.deepEqual(await readdir(folder), ["keys.json.unreadable-2025-03-04T05-06-07.890Z"]);

    // Keys saved afterwards go to a new keys.json; the file moved aside keeps what it held.
    await vault.set("remote-1", "ck_again");
    assert.equal((await KeyVault.open({filePath, backend: safeStorageDouble()})).get("remote-1"), "ck_again");
    assert.equal(await readFile(aside, "utf8"), "");

    // A second unreadable file at the same moment does not replace the first one moved aside.
    await writeFile(filePath, "{\"version\": 1, \"keys\": {\"remote-1\": ");
    const again = await KeyVault.open({filePath, backend: safeStorageDouble(), now});
    assert.equal(again.recovery?.problem, "it is not a key file this app wrote");
    assert.equal(again.recovery?.movedTo, `${aside}-2`);
    assert.equal(await readFile(aside, "utf8"), "");
    assert.equal(await readFile(`${aside}-2`, "utf8"), "{\"version\": 1, \"keys\": {\"remote-1\": ");
});

test("a key file that cannot be read at all (a folder in its place) is moved aside too, and the vault starts empty", async () => {
    const folder = path.join(dir, "unreadable");
    const filePath = path.join(folder, "keys.json");
    await mkdir(filePath, {recursive: true});
    const vault = await KeyVault.open({filePath, backend: safeStorageDouble()});
    assert.match(vault.recovery!.problem, /could not be read \(EISDIR\)/);
    assert.equal((await stat(vault.recovery!.movedTo)).isDirectory(), true);
    await vault.set("remote-1", "ck_new");
    assert.equal((await stat(filePath)).isFile(), true);
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
