import assert from "node:assert/strict";
import {mkdtemp, readdir, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {responseCacheKey, type CachedResponse} from "../../client/scoring/responseCache.ts";
import {gatewayRequest, type GatewayAnswer} from "../../test/support/gateway/gatewayRequest.ts";
import {ConnectionStore} from "../connections/ConnectionStore.ts";
import {EngineSupervisor} from "../engine/EngineSupervisor.ts";
import {Gateway} from "../gateway/Gateway.ts";
import {MemoryKeyVault} from "../secrets/KeyVault.ts";
import {ResponseCacheStore} from "./ResponseCacheStore.ts";

const dir = await mkdtemp(path.join(os.tmpdir(), "svc-response-cache-store-"));
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

const key = (text: string) => responseCacheKey({endpoint: "chatCompletions", connection: "profile:local", model: "m.gguf", body: {messages: [{role: "user", content: text}]}});
const answer = (text: string): CachedResponse => ({body: {choices: [{message: {role: "assistant", content: text}}]}, durationMs: 40, storedAt: 1});
const entryBytes = Buffer.byteLength(JSON.stringify(answer("reply 0")));

test("answers are kept as files by key; beyond the bound the least recently used go first, and the order outlives a restart", async () => {
    const folder = path.join(dir, "lru");
    const cache = new ResponseCacheStore(folder, {maxBytes: entryBytes * 3});
    for (const index of [0, 1, 2]) assert.equal(await cache.keep(key(`row ${index}`), answer(`reply ${index}`)), true);
    assert.deepEqual(await cache.get(key("row 0")), answer("reply 0"));
    assert.equal(await cache.get(key("row 9")), undefined);
    await cache.put(key("row 3"), answer("reply 3"));
    assert.equal(await cache.get(key("row 1")), undefined, "row 1, the least recently used, was deleted");
    assert.deepEqual(await cache.stats(), {entries: 3, bytes: entryBytes * 3});
    assert.equal((await readdir(folder)).length, 3);

    // A new store on the same folder (the next launch) lists it: row 2 is now the least recently used.
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(await cache.get(key("row 0")));
    assert.ok(await cache.get(key("row 3")));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const next = new ResponseCacheStore(folder, {maxBytes: entryBytes * 3});
    assert.deepEqual(await next.stats(), {entries: 3, bytes: entryBytes * 3});
    await next.put(key("row 4"), answer("reply 4"));
    assert.equal(await next.get(key("row 2")), undefined);
    for (const index of [0, 3, 4]) assert.ok(await next.get(key(`row ${index}`)), `row ${index} kept`);
    assert.equal(await next.keep(key("huge"), answer("x".repeat(entryBytes * 3))), false, "an answer bigger than the bound is not kept");
    assert.equal((await next.stats()).entries, 3);
});

test("a file gone or broken since the listing is a miss", async () => {
    const folder = path.join(dir, "gone");
    const cache = new ResponseCacheStore(folder);
    await cache.put(key("a"), answer("a"));
    await cache.put(key("b"), answer("b"));
    const [first, second] = (await readdir(folder)).sort();
    await rm(path.join(folder, first));
    await writeFile(path.join(folder, second), "{not json");
    assert.equal(await cache.get(key("a")), undefined);
    assert.equal(await cache.get(key("b")), undefined);
});

test("the gateway's response-cache routes keep an answer by its key and answer it back; a key it holds none for is null", async () => {
    const gateway = await Gateway.start({mode: "web", supervisor: new EngineSupervisor(), connections: ConnectionStore.inMemory(),
        vault: new MemoryKeyVault(), rendererDir: dir, appDataDir: path.join(dir, "app-data")});
    const call = (pathname: string, body: unknown): Promise<GatewayAnswer> =>
        gatewayRequest(gateway.url.replace(/\/$/, "") + "/gateway/api" + pathname, {method: "POST", body, headers: {"x-gateway-token": gateway.token}});
    try {
        const kept = await call("/app-data/response-cache", {key: key("hello"), value: answer("hi")});
        assert.equal(kept.status, 200, kept.body);
        assert.deepEqual(JSON.parse(kept.body), {kept: true});
        assert.deepEqual(JSON.parse((await call("/app-data/response-cache/lookup", {key: key("hello")})).body), {value: answer("hi")});
        assert.deepEqual(JSON.parse((await call("/app-data/response-cache/lookup", {key: key("other")})).body), {value: null});
        assert.equal((await readdir(path.join(dir, "app-data", "response-cache"))).length, 1);
        const bad = await call("/app-data/response-cache", {key: key("x"), value: {body: {}}});
        assert.equal(bad.status, 400, bad.body);
    } finally {
        await gateway.close();
    }
});
