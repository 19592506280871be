import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {toApiError} from "../../native/http/replies.ts";
import {appDataLimits, type SavedRun} from "../../protocol/gateway/contract.ts";
import {refusal} from "../../test/support/appData/refusal.ts";
import {AppDatabase} from "./AppDatabase.ts";
import {RunHistory, type RunPage} from "./RunHistory.ts";

const root = await mkdtemp(path.join(os.tmpdir(), "svc-run-history-"));
let folders = 0;
const open = async () => {
    const db = await AppDatabase.open(path.join(root, `case-${++folders}`));
    return {db, history: new RunHistory(async () => db)};
};
after(() => rm(root, {recursive: true, force: true}));

const run = (id: string, createdAt: number, extra: Record<string, unknown> = {}): SavedRun => ({id, createdAt, kind: "chat", request: {model: "svc-1"}, ...extra});

/** Every page from the newest, `limit` runs each. */
async function allPages(history: RunHistory, limit: number): Promise<RunPage[]> {
    const pages = [await history.page(limit, null)];
    while (pages.at(-1)!.next !== null) {
        const [createdAt, ...id] = pages.at(-1)!.next!.split("-");
        pages.push(await history.page(limit, {createdAt: Number(createdAt), id: id.join("-")}));
    }
    return pages;
}

test("history: newest first, an id saved again replaces its run, delete and clear, all committed when they resolve", async () => {
    const {db, history} = await open();
    assert.deepEqual(await history.page(10, null), {entries: [], next: null, total: 0, problems: []});
    await history.add(run("a", 1000));
    await history.add(run("b", 3000, {reply: {text: "ünïcode ✓"}}));
    await history.add(run("c", 2000));
    await history.add(run("c", 4000, {reply: "again"}));
    const page = await history.page(10, null);
    assert.deepEqual(page.entries.map((entry) => entry.id), ["c", "b", "a"]);
    assert.deepEqual([page.entries[0].reply, page.entries[1].reply, page.total, page.next], ["again", {text: "ünïcode ✓"}, 3, null]);
    // As a person or a backup reads it: the JSON the renderer sent.
    assert.equal(db.statement("SELECT value FROM runs WHERE id = 'a'").pluck().get(), JSON.stringify(run("a", 1000)));
    assert.equal(await history.remove("b"), true);
    assert.equal(await history.remove("b"), false);
    assert.deepEqual((await history.page(10, null)).entries.map((entry) => entry.id), ["c", "a"]);
    assert.equal(await history.clear(), 2);
    assert.deepEqual((await history.page(10, null)).total, 0);
    assert.equal(await refusal(history.add(run("x", -1))), "400 invalid_request");
    assert.equal(await refusal(history.add({id: "x"} as SavedRun)), "400 invalid_request");
    assert.equal(await refusal(history.add(run("../x", 1))), "400 invalid_name");
    db.close();
});

test("runs with the same creation time page in id order, none twice and none missed; no run is ever dropped to make room", async () => {
    const {db, history} = await open();
    // Three runs per millisecond, 700 in all: more than any bound the history had (500).
    const ids: Array<[number, string]> = [];
    for (let index = 0; index < 700; index++) ids.push([Math.floor(index / 3), `run-${String(index).padStart(3, "0")}`]);
    for (const [createdAt, id] of ids) await history.add(run(id, createdAt));
    const pages = await allPages(history, 64);
    assert.equal(pages.length, Math.ceil(700 / 64));
    const read = pages.flatMap((page) => page.entries.map((entry) => entry.id));
    const expected = [...ids].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : -1)).map(([, id]) => id);
    assert.deepEqual(read, expected);
    assert.ok(pages.every((page) => page.total === 700 && page.problems.length === 0));
    db.close();
});

test("a run over its bound is refused before anything is written, the bound named in the message", async () => {
    const {db, history} = await open();
    const error = await history.add(run("big", 1, {image: "x".repeat(appDataLimits.maxHistoryEntryBytes)})).then(() => null, (failure: Error) => toApiError(failure));
    assert.equal(error?.status, 413);
    assert.match(error!.message, /run big is \d+ bytes; the limit, appDataLimits\.maxHistoryEntryBytes, is 16777216 bytes; nothing was saved/);
    assert.equal((await history.page(10, null)).total, 0);
    db.close();
});

test("a stored run that does not fit a run's shape is left out of its page and reported; its neighbours load, and the cursor goes past it", async () => {
    const {db, history} = await open();
    for (let index = 0; index < 6; index++) await history.add(run(`r${index}`, 100 + index));
    // Damage as another program or a bad disk might leave it: text that is no JSON, and JSON that is no run.
    db.statement("UPDATE runs SET value = ? WHERE id = 'r4'").run("{\"id\": \"r4\", \"createdAt\": 10");
    db.statement("UPDATE runs SET value = ? WHERE id = 'r1'").run(JSON.stringify({id: "r1", note: "no creation time"}));
    const first = await history.page(3, null);
    assert.deepEqual(first.entries.map((entry) => entry.id), ["r5", "r3"]);
    assert.deepEqual(first.problems, [`1 saved run in the app's database could not be read and is left out (r4): it stays in ${db.filePath}, table runs.`]);
    assert.equal(first.next, "103-r3");
    const second = await history.page(3, {createdAt: 103, id: "r3"});
    assert.deepEqual([second.entries.map((entry) => entry.id), second.next, second.total], [["r2", "r0"], null, 6]);
    assert.match(second.problems[0], /\(r1\)/);
    // The damaged rows stay until the user deletes them (one by one, or Clear all).
    assert.equal(await history.remove("r4"), true);
    assert.equal(await history.clear(), 5);
    db.close();
});
