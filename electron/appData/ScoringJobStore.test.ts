import assert from "node:assert/strict";
import {appendFile, mkdtemp, readdir, readFile, rm, stat, utimes} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import type {JobRecord, RowResult} from "../../client/scoring/types.ts";
import {appDataLimits} from "../../protocol/gateway/contract.ts";
import {AppDataStore} from "./AppDataStore.ts";
import {killWhileWriting} from "../../test/support/appData/killWhileWriting.ts";
import {ScoringJobStore} from "./ScoringJobStore.ts";

const root = await mkdtemp(path.join(os.tmpdir(), "svc-scoring-jobs-"));
let folders = 0;
const folder = () => path.join(root, `case-${++folders}`);
after(() => rm(root, {recursive: true, force: true}));

const job = (jobId: string, createdAt: number): JobRecord => ({jobId, status: "running", totalRows: null, error: null, createdAt, updatedAt: createdAt,
    spec: {questionSet: {format: "systemone", questions: {a: {type: "noul"}}}, input: {kind: "row"}, columns: ["x"], source: {name: "t.csv", sheet: null}}});
const ok = (rowIndex: number, attempts = 1): RowResult => ({rowIndex, ok: true, response: {answers: {a: {type: "noul", noul: rowIndex / 10}}} as never, attempts, durationMs: 5, completedAt: 100 + rowIndex});
const bad = (rowIndex: number): RowResult => ({rowIndex, ok: false, error: {status: 400, code: "request_rejected", message: "too long"}, attempts: 1, durationMs: 5, completedAt: 100 + rowIndex});
const rejection = (promise: Promise<unknown>) => promise.then(() => "resolved", (error: Error) => error.message);
const table = {fileName: "t.csv", format: "csv", columns: ["x"], rows: [["a"], ["b"]]};

test("the ResultStore contract: one result per row (the first), row order, counts, pages, and it all comes back in a new store", async () => {
    const dir = folder();
    const store = new ScoringJobStore(dir);
    await store.createJob(job("j1", 1));
    await store.createJob(job("j2", 2));
    assert.equal(await rejection(store.createJob(job("j1", 3))), "job j1 exists");
    assert.deepEqual([await store.putResult("j1", ok(5)), await store.putResult("j1", bad(2)), await store.putResult("j1", ok(0)), await store.putResult("j1", ok(11)),
        await store.putResult("j1", ok(5, 9)), await store.putResult("j2", ok(5))], [true, true, true, true, false, true], "a second result for row 5 is refused; j2 is separate");
    assert.equal(await rejection(store.putResult("nope", ok(0))), "no job nope");
    // Twenty writers race for one row: exactly one wins, and its result is the one stored.
    const race = await Promise.all(Array.from({length: 20}, (_, index) => store.putResult("j1", ok(7, index + 1))));
    assert.equal(race.filter(Boolean).length, 1);
    assert.equal((await store.readResults("j1", 7, 1))[0].attempts, race.indexOf(true) + 1);
    assert.deepEqual(await store.countResults("j1"), {ok: 4, errors: 1});
    assert.deepEqual((await store.readResults("j1")).map((result) => [result.rowIndex, result.attempts]), [[0, 1], [2, 1], [5, 1], [7, race.indexOf(true) + 1], [11, 1]]);
    assert.deepEqual((await store.readResults("j1", 3, 2)).map((result) => result.rowIndex), [5, 7]);
    assert.equal((await store.readResults("j1", 0, 0)).length, 0);
    assert.equal((await store.readResults("j1", 12)).length, 0);
    assert.deepEqual((await store.readResults("j1", 0, 1))[0], ok(0));
    assert.deepEqual([...await store.doneRowIndexes("j1")].sort((a, b) => a - b), [0, 2, 5, 7, 11]);
    await store.updateJob("j1", {status: "completed", totalRows: 12});
    assert.equal(await rejection(store.updateJob("nope", {status: "failed"})), "no job nope");
    assert.deepEqual((await store.listJobs()).map((record) => [record.jobId, record.status, record.totalRows]), [["j2", "running", null], ["j1", "completed", 12]], "newest first");

    // A new store on the folder, as at the next launch: everything is still there; then the deletions.
    const again = new ScoringJobStore(dir);
    const record = await again.getJob("j1");
    assert.deepEqual(record && [record.status, record.totalRows, record.spec.source?.name, record.updatedAt > record.createdAt], ["completed", 12, "t.csv", true]);
    assert.deepEqual([...await again.doneRowIndexes("j1")].sort((a, b) => a - b), [0, 2, 5, 7, 11]);
    assert.equal(await again.putResult("j1", ok(5, 3)), false, "the first result of a row is kept across launches too");
    assert.equal(await again.deleteErrors("j1"), 1);
    assert.deepEqual([...await again.doneRowIndexes("j1")].sort((a, b) => a - b), [0, 5, 7, 11]);
    assert.deepEqual(await again.countResults("j1"), {ok: 4, errors: 0});
    assert.equal(await again.putResult("j1", ok(2)), true, "a row whose error was deleted is scored again");
    await again.deleteJob("j2");
    assert.deepEqual([await again.getJob("j2"), await again.countResults("j2"), (await again.readResults("j2")).length], [null, {ok: 0, errors: 0}, 0]);
    assert.deepEqual((await again.readResults("j1")).map((result) => result.rowIndex), [0, 2, 5, 7, 11]);
    assert.deepEqual((await new ScoringJobStore(dir).listJobs()).map((item) => item.jobId), ["j1"]);
    assert.deepEqual(await readdir(dir), ["j1"]);
});

test(`creating a job keeps the newest ${appDataLimits.maxSavedJobs}: older jobs go with their tables and results`, async () => {
    const dir = folder();
    const store = new ScoringJobStore(dir);
    for (let index = 0; index < appDataLimits.maxSavedJobs; index++) {
        assert.deepEqual(await store.create(job(`job-${index}`, 1000 + index), table), []);
        await store.putResult(`job-${index}`, ok(0));
    }
    assert.deepEqual(await store.create(job("job-new", 5000), table), ["job-0"]);
    // A job created with an older date than every kept one is itself the oldest: it goes at once.
    assert.deepEqual(await store.create(job("job-late", 10), table), ["job-late"]);
    const listed = await store.listInfo();
    assert.equal(listed.length, appDataLimits.maxSavedJobs);
    assert.deepEqual(listed.map((info) => info.record.jobId), ["job-new", ...Array.from({length: 9}, (_, index) => `job-${9 - index}`)]);
    assert.deepEqual(listed[1], {record: job("job-9", 1009), done: 1, failed: 0, hasTable: true});
    assert.deepEqual(listed[0], {record: job("job-new", 5000), done: 0, failed: 0, hasTable: true});
    assert.deepEqual((await readdir(dir)).sort(), listed.map((info) => info.record.jobId).sort(), "the dropped jobs' folders are gone");
    assert.deepEqual(await store.getTable("job-new"), table);
    assert.equal(await store.getTable("job-0"), null);
});

test("appending a row costs the same at row 4,000 as at row 1: the results file only grows, never rewritten", async () => {
    const dir = folder();
    const store = new ScoringJobStore(dir);
    await store.create(job("long", 1), table);
    const results = path.join(dir, "long", "results.jsonl");
    const explanation = "e".repeat(1_000);
    const timed = async (from: number, count: number) => {
        const started = performance.now();
        // Four rows in flight at a time, as the job runner's default concurrency has them.
        for (let rowIndex = from; rowIndex < from + count; rowIndex += 4)
            await Promise.all([0, 1, 2, 3].map((offset) => store.putResult("long", {...ok(rowIndex + offset), explanation} as RowResult)));
        return performance.now() - started;
    };
    await timed(0, 200);
    const inode = (await stat(results)).ino;
    const first = await timed(200, 1_000);
    await timed(1_200, 2_800);
    const last = await timed(4_000, 1_000);
    const lines = (await readFile(results, "utf8")).split("\n").filter(Boolean);
    assert.equal(lines.length, 5_000);
    assert.equal((await stat(results)).ino, inode, "the same file throughout: appended to, not replaced");
    assert.equal((await stat(results)).size, lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0), "each line written once");
    // A file rewritten per row would write 25 times more for the last thousand rows than for the first.
    assert.ok(last < first * 4 + 250, `the last 1,000 rows took ${last.toFixed(0)} ms, the first 1,000 ${first.toFixed(0)} ms`);
    assert.deepEqual(await store.countResults("long"), {ok: 5_000, errors: 0});
    console.log(`# ScoringJobStore: ${Math.round(1_000 / (last / 1000))} durable row results/s at rows 4,000-5,000 (4 in flight)`);
});

test("a results line cut short by a crash is skipped and cut off, and the next row is appended on a line of its own", async () => {
    const dir = folder();
    await new ScoringJobStore(dir).create(job("torn", 1), table);
    const store = new ScoringJobStore(dir);
    await store.putResult("torn", ok(0));
    await store.putResult("torn", ok(1));
    const results = path.join(dir, "torn", "results.jsonl");
    // What a crash in the middle of an append leaves: part of row 2's line, no newline.
    await appendFile(results, JSON.stringify(ok(2)).slice(0, 25));

    const next = new ScoringJobStore(dir);
    assert.deepEqual([...await next.doneRowIndexes("torn")], [0, 1], "the cut line is no result");
    assert.equal(await next.putResult("torn", ok(2)), true, "row 2 is scored again");
    assert.equal(await next.putResult("torn", ok(3)), true);
    assert.deepEqual((await next.readResults("torn")).map((result) => result.rowIndex), [0, 1, 2, 3]);
    const text = await readFile(results, "utf8");
    assert.ok(text.endsWith("\n"));
    assert.deepEqual(text.trim().split("\n").map((line) => JSON.parse(line).rowIndex), [0, 1, 2, 3], "every line parses");
});

test("a job folder deleted from outside while the job runs: its next result is a 404, its listing is gone, and a new job is saved again", async () => {
    const dir = folder();
    const store = new ScoringJobStore(dir);
    await store.create(job("gone", 1), table);
    await store.putResult("gone", ok(0));
    await rm(path.join(dir, "gone"), {recursive: true});
    const error = await store.putResult("gone", ok(1)).then(() => null, (failure: {status: number, code: string}) => failure);
    assert.deepEqual(error && [error.status, error.code], [404, "job_not_found"]);
    assert.deepEqual(await store.listInfo(), []);
    await store.create(job("after", 2), table);
    assert.equal(await store.putResult("after", ok(0)), true);
});

test("a creation a crash cut short (a folder with a table, no record) is not listed, and is swept once it is a minute old", async () => {
    const dir = folder();
    const store = new ScoringJobStore(dir);
    await store.create(job("whole", 2), table);
    const half = path.join(dir, "half");
    await store.create(job("half", 1), table);
    // As a crash between the table and the record would leave it, seen by the next launch.
    await rm(path.join(half, "job.json"));
    assert.deepEqual((await new ScoringJobStore(dir).listInfo()).map((info) => info.record.jobId), ["whole"]);
    assert.ok((await readdir(dir)).includes("half"), "too recent to be sure: kept");
    const old = new Date(Date.now() - 5 * 60_000);
    await utimes(half, old, old);
    assert.deepEqual((await new ScoringJobStore(dir).listInfo()).map((info) => info.record.jobId), ["whole"]);
    assert.ok(!(await readdir(dir)).includes("half"), "swept");
});

test("killed while appending rows: every row stored is whole, and the job goes on from there", async () => {
    const dir = folder();
    await killWhileWriting(dir, "results", 150);
    const data = new AppDataStore(dir);
    const done = [...await data.jobs.doneRowIndexes("crash-job")].sort((a, b) => a - b);
    assert.ok(done.length >= 64, `${done.length} rows were stored before the kill`);
    const results = await data.jobs.readResults("crash-job");
    assert.deepEqual(results.map((result) => result.rowIndex), done);
    for (const result of results) assert.equal((result as unknown as {response: {explanation: string}}).response.explanation.length, 2_000);
    const next = done.at(-1)! + 1;
    assert.equal(await data.jobs.putResult("crash-job", ok(next)), true);
    assert.deepEqual((await new AppDataStore(dir).jobs.readResults("crash-job")).at(-1), ok(next));
    const text = await readFile(path.join(dir, "scoring-jobs", "crash-job", "results.jsonl"), "utf8");
    assert.ok(text.split("\n").filter(Boolean).every((line) => JSON.parse(line).rowIndex >= 0), "every line of the file parses");
});
