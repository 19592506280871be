// Saved prompts and their versions in the app's database (a real SQLite file in a temporary folder).
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {refusal} from "../../test/support/appData/refusal.ts";
import {AppDatabase} from "./AppDatabase.ts";
import {AppDataStore} from "./AppDataStore.ts";

const root = await mkdtemp(path.join(os.tmpdir(), "svc-prompts-"));
let folders = 0;
const folder = () => path.join(root, `case-${++folders}`);
after(() => rm(root, {recursive: true, force: true}));

const chat = (content: string) => ({kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content}]}});

test("versions are numbered by the database: two saved at once are 1 and 2, both kept, newest first", async () => {
    const data = new AppDataStore(folder());
    const saved = await Promise.all([
        data.prompts.add("bot", {itemName: "Bot", kind: "chat", note: "first", prompt: chat("a")}),
        data.prompts.add("bot", {itemName: "Bot", kind: "chat", note: "second", prompt: chat("b")})
    ]);
    assert.deepEqual(saved.map((version) => version.version).sort(), [1, 2]);
    const {versions} = await data.prompts.versions("bot");
    assert.deepEqual(versions.map((version) => version.version), [2, 1]);
    assert.deepEqual((await data.prompts.list()).map((item) => [item.itemName, item.latest]), [["Bot", 2]]);
    assert.equal(await refusal(data.prompts.add("bot", {itemName: "Bot", kind: "decision", note: "", prompt: {kind: "decision"}})), "409 prompt_kind_mismatch");
    assert.equal(await refusal(data.prompts.add("bot", {itemName: " ", kind: "chat", note: "", prompt: chat("c")})), "400 invalid_request");
    await data.close();
});

test("a deleted item comes back whole with Undo; a damaged version is left out and reported", async () => {
    const dir = folder();
    const data = new AppDataStore(dir);
    await data.prompts.add("bot", {itemName: "Bot", kind: "chat", note: "", prompt: chat("a")});
    await data.prompts.add("bot", {itemName: "Bot", kind: "chat", note: "", prompt: chat("b")});
    const [item] = await data.prompts.list();
    const {versions} = await data.prompts.versions("bot");
    assert.equal(await data.prompts.remove("bot"), true);
    assert.deepEqual(await data.prompts.list(), []);
    await data.prompts.restore(item, versions);
    assert.deepEqual((await data.prompts.versions("bot")).versions, versions);
    assert.equal(await refusal(data.prompts.restore(item, versions)), "409 prompt_exists");
    await data.close();

    const db = await AppDatabase.open(dir);
    db.transaction(() => db.statement("UPDATE prompt_versions SET body = '{broken' WHERE version = 1").run());
    db.close();
    const reopened = new AppDataStore(dir);
    const read = await reopened.prompts.versions("bot");
    assert.deepEqual(read.versions.map((version) => version.version), [2]);
    assert.match(read.problems.join(" "), /Version 1 of "Bot" could not be read/);
    await reopened.close();
});

test("prompts kept as documents by earlier versions move into the tables at first open", async () => {
    const dir = folder();
    const data = new AppDataStore(dir);
    await data.documents.put("svc-studio-prompt-items", {state: {items: [{itemId: "old", itemName: "Old bot", kind: "chat", latest: 2, updatedAt: 7}]}, version: 1});
    await data.documents.put("svc-studio-prompt-old", [
        {itemId: "old", itemName: "Old bot", version: 1, note: "v1", createdAt: 5, prompt: chat("one")},
        {itemId: "old", itemName: "Old bot", version: 2, note: "v2", createdAt: 6, prompt: chat("two")}
    ]);
    await data.close();
    const upgraded = new AppDataStore(dir);
    assert.deepEqual(await upgraded.prompts.list(), [{itemId: "old", itemName: "Old bot", kind: "chat", latest: 2, updatedAt: 7}]);
    assert.deepEqual((await upgraded.prompts.versions("old")).versions.map((version) => [version.version, version.note, version.prompt]), [[2, "v2", chat("two")], [1, "v1", chat("one")]]);
    assert.deepEqual(Object.keys((await upgraded.documents.read()).documents), []);
    // The next version continues the numbering.
    assert.equal((await upgraded.prompts.add("old", {itemName: "Old bot", kind: "chat", note: "", prompt: chat("three")})).version, 3);
    await upgraded.close();
});
