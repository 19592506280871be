import assert from "node:assert/strict";
import {mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {openSqlite} from "../../base/node/sqlite.ts";
import {toApiError} from "../../native/http/replies.ts";
import {appDataLimits, type SavedRun} from "../../protocol/gateway/contract.ts";
import {killWhileWriting} from "../../test/support/appData/killWhileWriting.ts";
import {AppDataStore} from "./AppDataStore.ts";
import {HistoryStore} from "./HistoryStore.ts";

const root = await mkdtemp(path.join(os.tmpdir(), "svc-app-data-"));
let folders = 0;
const folder = () => path.join(root, `case-${++folders}`);
after(() => rm(root, {recursive: true, force: true}));

/** The status and code the gateway answers a refused store call with. */
async function refusal(promise: Promise<unknown>): Promise<string> {
    try {
        await promise;
    } catch (error) {
        const {status, code} = toApiError(error);
        return `${status} ${code}`;
    }
    return "resolved";
}

const run = (id: string, createdAt: number, extra: Record<string, unknown> = {}): SavedRun => ({id, createdAt, kind: "chat", request: {model: "svc-1"}, ...extra});

test("a key or id that is no plain file name is refused with a 400: no way out of the folder", async () => {
    const dir = folder();
    const data = new AppDataStore(dir);
    const bad = ["", "..", ".", "../x", "a/b", "a\\b", "/etc/passwd", "C:x", ".hidden", "-x", "a b", "é", "x".repeat(129), "trailing.", "NUL", "con.txt", "com1"];
    for (const name of bad) {
        assert.equal(await refusal(data.documents.put(name, 1)), "400 invalid_name", `document ${JSON.stringify(name)}`);
        assert.equal(await refusal(data.documents.remove(name)), "400 invalid_name", `document ${JSON.stringify(name)}`);
        assert.equal(await refusal(data.history.add(run(name, 1))), "400 invalid_name", `run ${JSON.stringify(name)}`);
        assert.equal(await refusal(data.history.remove(name)), "400 invalid_name", `run ${JSON.stringify(name)}`);
        assert.equal(await refusal(data.jobs.getJob(name)), "400 invalid_name", `job ${JSON.stringify(name)}`);
        assert.equal(await refusal(data.jobs.deleteJob(name)), "400 invalid_name", `job ${JSON.stringify(name)}`);
    }
    assert.deepEqual(await readdir(root).then((names) => names.filter((name) => !name.startsWith("case-"))), [], "nothing was written beside the folder");
    for (const name of ["a", "svc-studio-theme", "job-1a2b.c_d", "x".repeat(128), "Nul1", "console"]) await data.documents.put(name, 1);
});

test("sizes are bounded: a run, a table and a row result over their limits are refused with a 413", async () => {
    const data = new AppDataStore(folder());
    assert.equal(await refusal(data.history.add(run("r1", 1, {image: "x".repeat(appDataLimits.maxHistoryEntryBytes)}))), "413 payload_too_large");
    const record = {jobId: "j1", status: "running" as const, totalRows: 1, error: null, createdAt: 1, updatedAt: 1, spec: {columns: ["x"]}};
    assert.equal(await refusal(data.jobs.create(record as never, {rows: ["x".repeat(appDataLimits.maxJobTableBytes)]})), "413 payload_too_large");
    await data.jobs.create(record as never, {rows: [["a"]]});
    assert.equal(await refusal(data.jobs.putResult("j1", {rowIndex: 0, ok: true, response: {answers: {}, text: "x".repeat(appDataLimits.maxRowResultBytes)}} as never)),
        "413 payload_too_large");
    assert.equal(await refusal(data.jobs.putResult("j1", {rowIndex: -1, ok: true} as never)), "400 invalid_request");
    assert.equal(await refusal(data.jobs.putResult("j1", {rowIndex: 0, ok: "yes"} as never)), "400 invalid_request");
    assert.equal(await refusal(data.jobs.create({...record, jobId: "j2", status: "done"} as never, {})), "400 invalid_request");
    assert.equal(await refusal(data.jobs.update("j1", {status: "completed", spec: {}} as never)), "400 invalid_request");
});

test("a crash mid-write leaves the old document or the new one, whole: killed writers, and a half-written temporary file of the history", async () => {
    const dir = folder();
    for (let round = 0; round < 3; round++) {
        await killWhileWriting(dir, "document", 30 + round * 40);
        const {big} = await new AppDataStore(dir).documents.all() as {big: {version: number, size: number, filler: string}};
        assert.equal(typeof big.version, "number", `round ${round}: a version was left`);
        assert.equal(big.filler.length, big.size, `round ${round}: version ${big.version} is whole`);
        assert.equal(big.filler, String(big.version % 10).repeat(big.size));
    }

    // What a crash leaves beside a run: its temporary file, cut off half way. It is never read as a run, and the first
    // request of the next launch sweeps it away once it is old enough to belong to no write under way.
    const data = new AppDataStore(dir);
    await data.history.add(run("kept", 1));
    const stray = path.join(dir, "history", `2-big.json.4242.${Date.now()}.tmp`);
    await writeFile(stray, "{\"id\": \"big\", \"createdAt\": 2, \"filler\": \"99");
    assert.deepEqual((await data.history.list()).map((entry) => entry.id), ["kept"]);
    const old = new Date(Date.now() - 5 * 60_000);
    await utimes(stray, old, old);
    const fresh = path.join(dir, "history", `3-other.json.4242.${Date.now()}.tmp`);
    await writeFile(fresh, "{");
    const answer = await data.handlers.runHistory!({params: {}, query: new URLSearchParams(), readBody: async () => ({})});
    assert.deepEqual((answer.body as {entries: Array<{id: string}>}).entries.map((entry) => entry.id), ["kept"]);
    const left = await readdir(path.join(dir, "history"));
    assert.ok(!left.includes(path.basename(stray)), "the old temporary file is gone");
    assert.ok(left.includes(path.basename(fresh)), "a recent one may be a write under way: it stays");
});

test("history: newest first, an id saved again replaces its run, delete and clear", async () => {
    const dir = folder();
    const history = new HistoryStore(dir);
    assert.deepEqual(await history.list(), []);
    assert.deepEqual(await history.add(run("a", 1000)), []);
    await history.add(run("b", 3000, {reply: {text: "ünïcode ✓"}}));
    await history.add(run("c", 2000));
    await history.add(run("c", 4000, {reply: "again"}));
    const listed = await new HistoryStore(dir).list();
    assert.deepEqual(listed.map((entry) => entry.id), ["c", "b", "a"]);
    assert.equal(listed[0].reply, "again");
    assert.deepEqual(listed[1].reply, {text: "ünïcode ✓"});
    assert.equal(await history.remove("b"), true);
    assert.equal(await history.remove("b"), false);
    assert.deepEqual((await history.list()).map((entry) => entry.id), ["c", "a"]);
    assert.equal(await history.clear(), 2);
    assert.deepEqual(await history.list(), []);
    assert.equal(await refusal(history.add(run("x", -1))), "400 invalid_request");
    assert.equal(await refusal(history.add({id: "x"} as SavedRun)), "400 invalid_request");
});

test(`history keeps the newest ${appDataLimits.maxHistoryEntries} runs: adding one more drops the oldest`, async () => {
    const dir = folder();
    const history = new HistoryStore(dir);
    // Written straight into the folder (as earlier launches would have) to keep the test quick.
    await mkdir(dir, {recursive: true});
    await Promise.all(Array.from({length: appDataLimits.maxHistoryEntries}, (_, index) =>
        writeFile(path.join(dir, `${1000 + index}-run-${index}.json`), JSON.stringify(run(`run-${index}`, 1000 + index)))));
    assert.deepEqual(await history.add(run("newest", 9999)), ["run-0"]);
    assert.deepEqual(await history.add(run("older-than-all", 1)), ["older-than-all"], "a run older than every kept one is the one dropped");
    const listed = await history.list();
    assert.equal(listed.length, appDataLimits.maxHistoryEntries);
    assert.equal(listed[0].id, "newest");
    assert.equal(listed.at(-1)!.id, "run-1");
});

test("history is bounded in bytes too: big runs push the oldest out, the newest always stays", async () => {
    const dir = folder();
    // The same rule as with the app's 512 MB, on a bound small enough for a test: three old runs fit, with 10 bytes to spare.
    const blob = "x".repeat(4_000);
    const history = new HistoryStore(dir, {maxEntries: 100, maxBytes: 3 * JSON.stringify(run("old-0", 1, {blob})).length + 10});
    for (let index = 0; index < 3; index++) assert.deepEqual(await history.add(run(`old-${index}`, index + 1, {blob})), []);
    assert.deepEqual(await history.add(run("small", 100)), ["old-0"]);
    assert.deepEqual((await readdir(dir)).sort(), ["100-small.json", "2-old-1.json", "3-old-2.json"]);
    assert.deepEqual(await history.add(run("huge", 200, {blob: "x".repeat(20_000)})), ["old-1", "old-2", "small"], "alone over the bound, the newest run still stays");
    assert.deepEqual((await history.list()).map((entry) => entry.id), ["huge"]);
});

test("the run-history files and the documents' rows are the JSON the renderer sent (a person can read or back them up)", async () => {
    const dir = folder();
    const data = new AppDataStore(dir);
    await data.history.add(run("r1", 42, {reply: "hi"}));
    assert.deepEqual(JSON.parse(await readFile(path.join(dir, "history", "42-r1.json"), "utf8")), run("r1", 42, {reply: "hi"}));
    await data.documents.put("svc-studio-theme", {state: {theme: "light"}});
    await data.close();
    const db = openSqlite(path.join(dir, "app.sqlite"), {readOnly: true});
    assert.equal(db.prepare("SELECT value FROM documents WHERE key = ?").pluck().get("svc-studio-theme"), "{\"state\":{\"theme\":\"light\"}}");
    db.close();
});
