import assert from "node:assert/strict";
import {mkdtemp, readdir, readFile, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {ConnectionStore} from "./ConnectionStore.ts";
import {ValidationError} from "../../protocol/validation.ts";

const dir = await mkdtemp(path.join(os.tmpdir(), "svc-connections-"));
after(() => rm(dir, {recursive: true, force: true}));

test("a new store holds only the local engine, active", async () => {
    const store = await ConnectionStore.open(path.join(dir, "new", "connections.json"));
    assert.deepEqual(store.list(), [{id: "local", kind: "local", name: "Local engine"}]);
    assert.equal(store.activeId(), "local");
    assert.equal(store.activeRemote(), undefined);
});

test("remote profiles and the active one persist across reopening", async () => {
    const filePath = path.join(dir, "persist.json");
    const store = await ConnectionStore.open(filePath);
    const staging = store.createRemote({name: " Staging ", baseUrl: "https://staging.example.com/api/"});
    assert.equal(staging.name, "Staging");
    assert.equal(staging.baseUrl, "https://staging.example.com/api");
    await store.add(staging);
    const prod = store.createRemote({name: "Prod", baseUrl: "https://api.example.com"});
    await store.add(prod);
    await store.activate(prod.id);

    const reopened = await ConnectionStore.open(filePath);
    assert.deepEqual(reopened.list().map((profile) => profile.id), ["local", staging.id, prod.id]);
    assert.equal(reopened.activeId(), prod.id);
    assert.deepEqual(reopened.activeRemote(), prod);
    assert.ok(!(await readFile(filePath, "utf8")).includes("key"), "no key material in the profiles file");

    await reopened.remove(prod.id);
    const again = await ConnectionStore.open(filePath);
    assert.equal(again.activeId(), "local", "removing the active profile falls back to local");
    assert.deepEqual(again.list().map((profile) => profile.id), ["local", staging.id]);
});

test("the local profile cannot be removed; unknown ids are 404", async () => {
    const store = ConnectionStore.inMemory();
    await assert.rejects(store.remove("local"), {status: 400});
    await assert.rejects(store.activate("remote-nope"), {status: 404, code: "not_found"});
    await assert.rejects(store.remove("remote-nope"), {status: 404});
});

test("base URLs must be plain http(s) URLs", () => {
    const store = ConnectionStore.inMemory();
    for (const baseUrl of ["ftp://example.com", "not a url", "https://user:pw@example.com", "https://example.com/?a=1"])
        assert.throws(() => store.createRemote({name: "x", baseUrl}), ValidationError, baseUrl);
    assert.throws(() => store.createRemote({name: "  ", baseUrl: "https://example.com"}), {status: 400});
});

test("a corrupt file is set aside and the store starts empty", async () => {
    const sub = path.join(dir, "corrupt");
    const filePath = path.join(sub, "connections.json");
    await (await ConnectionStore.open(filePath)).add(ConnectionStore.inMemory().createRemote({name: "a", baseUrl: "http://127.0.0.1:1"}));
    await writeFile(filePath, "{not json");
    const store = await ConnectionStore.open(filePath);
    assert.deepEqual(store.list().map((profile) => profile.id), ["local"]);
    assert.ok((await readdir(sub)).some((name) => name.startsWith("connections.json.corrupt-")));
});
