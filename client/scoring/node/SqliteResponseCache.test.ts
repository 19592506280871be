import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {defaultResponseCacheBytes, responseCacheKey, type CachedResponse} from "../responseCache.ts";
import {SqliteResponseCache} from "./SqliteResponseCache.ts";

let dir: string;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-response-cache-"));
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

const key = (text: string) => responseCacheKey({endpoint: "chatCompletions", connection: "http://127.0.0.1:1", model: null, body: {messages: [{role: "user", content: text}]}});
const answer = (text: string): CachedResponse => ({body: {choices: [{message: {role: "assistant", content: text}}]}, durationMs: 12, storedAt: 1});

test("an answer put is read back by its key, in this process and after the file is opened again; another key misses", async () => {
    const file = path.join(dir, "roundtrip.sqlite");
    const cache = new SqliteResponseCache(file);
    assert.equal(cache.maxBytes, defaultResponseCacheBytes);
    await cache.put(key("hello"), answer("hi"));
    assert.deepEqual(await cache.get(key("hello")), answer("hi"));
    assert.equal(await cache.get(key("hello!")), undefined);
    await cache.put(key("hello"), answer("hi again"));
    assert.equal(cache.stats().entries, 1, "a second put of a key replaces its answer");
    cache.close();
    const reopened = new SqliteResponseCache(file);
    try {
        assert.deepEqual(await reopened.get(key("hello")), answer("hi again"));
    } finally {
        reopened.close();
    }
});

test("the size bound evicts the least recently used answers first, a read counting as a use, and keeps the total within it", async () => {
    const one = await (async () => {
        const probe = new SqliteResponseCache(path.join(dir, "probe.sqlite"));
        await probe.put(key("row 0"), answer("reply 0"));
        const bytes = probe.stats().bytes;
        probe.close();
        return bytes;
    })();
    // Room for three answers of this size, not four.
    const cache = new SqliteResponseCache(path.join(dir, "bounded.sqlite"), {maxBytes: one * 3 + one / 2});
    try {
        for (const index of [0, 1, 2]) await cache.put(key(`row ${index}`), answer(`reply ${index}`));
        assert.equal(cache.stats().entries, 3);
        assert.ok(await cache.get(key("row 0")), "row 0 read: now the most recently used");
        await cache.put(key("row 3"), answer("reply 3"));
        assert.equal(await cache.get(key("row 1")), undefined, "row 1, the least recently used, was evicted");
        for (const index of [0, 2, 3]) assert.ok(await cache.get(key(`row ${index}`)), `row ${index} kept`);
        assert.deepEqual(cache.stats(), {entries: 3, bytes: one * 3});
        assert.ok(cache.stats().bytes <= cache.maxBytes);
        await cache.put(key("huge"), answer("x".repeat(one * 4)));
        assert.equal(await cache.get(key("huge")), undefined, "an answer larger than the whole bound is not kept");
        assert.equal(cache.stats().entries, 3, "and evicts nothing");
    } finally {
        cache.close();
    }
});

test("the key is the stable JSON of what was sent: key order does not matter; endpoint, connection, model, body, seed and repeat do", () => {
    const base = {endpoint: "chatCompletions" as const, connection: "http://a", model: "m", body: {messages: [{role: "user", content: "x"}], temperature: 0}};
    const same = responseCacheKey(base);
    assert.equal(responseCacheKey({...base, body: {temperature: 0, messages: [{content: "x", role: "user"}]}}), same);
    assert.equal(responseCacheKey({...base, repeat: 0}), same, "repeat 0 is the default");
    const others = [
        {...base, endpoint: "responses" as const},
        {...base, connection: "http://b"},
        {...base, model: null},
        {...base, body: {...base.body, temperature: 1}},
        {...base, body: {...base.body, seed: 7}},
        {...base, seed: 7},
        {...base, repeat: 1}
    ].map(responseCacheKey);
    assert.equal(new Set([same, ...others]).size, others.length + 1);
});
