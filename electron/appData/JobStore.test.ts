import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import type {JobRecord, RowResult} from "../../client/scoring/types.ts";
import {AppDataStore} from "./AppDataStore.ts";
import {AppDatabase} from "./AppDatabase.ts";
import {killWhileWriting} from "../../test/support/appData/killWhileWriting.ts";
import {JobStore, type JobKind} from "./JobStore.ts";

const root = await mkdtemp(path.join(os.tmpdir(), "svc-job-store-"));
let folders = 0;
const folder = () => path.join(root, `case-${++folders}`);
after(() => rm(root, {recursive: true, force: true}));

/** A store on a database of its own; `reopen` gives a new connection and store on the same file, as the next launch. */
async function open(kind: JobKind = "scoring", dir = folder()) {
    const db = await AppDatabase.open(dir);
    return {db, store: new JobStore(async () => db, kind), dir};
}

const job = (jobId: string, createdAt: number, status: JobRecord["status"] = "running"): JobRecord => ({jobId, status, totalRows: null, error: null, createdAt, updatedAt: createdAt,
    spec: {questionSet: {format: "systemone", questions: {a: {type: "noul"}}}, input: {kind: "row"}, columns: ["x"], source: {name: "t.csv", sheet: null}}});
const ok = (rowIndex: number, attempts = 1): RowResult => ({rowIndex, ok: true, response: {answers: {a: {type: "noul", noul: rowIndex / 10}}} as never, attempts, durationMs: 5, completedAt: 100 + rowIndex});
const bad = (rowIndex: number): RowResult => ({rowIndex, ok: false, error: {status: 400, code: "request_rejected", message: "too long"}, attempts: 1, durationMs: 5, completedAt: 100 + rowIndex});
const rejection = (promise: Promise<unknown>) => promise.then(() => "resolved", (error: Error) => error.message);
const table = {fileName: "t.csv", format: "csv", columns: ["x"], rows: [["a"], ["b"]]};

test("the ResultStore contract: one result per row (the first), row order, counts, pages, and it all comes back on a new connection", async () => {
    const {db, store, dir} = await open();
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
    assert.deepEqual((await store.list()).jobs.map(({record}) => [record.jobId, record.status, record.totalRows]), [["j2", "running", null], ["j1", "completed", 12]], "newest first");
    db.close();

    // A new connection on the file, as at the next launch: everything is still there; then the deletions.
    const {db: db2, store: again} = await open("scoring", dir);
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
    assert.equal(db2.statement("SELECT count(*) FROM job_results WHERE job NOT IN (SELECT id FROM jobs)").pluck().get(), 0, "its results went with it");
    assert.deepEqual((await again.readResults("j1")).map((result) => result.rowIndex), [0, 2, 5, 7, 11]);
    assert.deepEqual((await again.list()).jobs.map((info) => info.record.jobId), ["j1"]);
    db2.close();
});

test("an 11th scoring job and a 51st experiment keep every earlier one, the paused and the interrupted included", async () => {
    for (const [kind, earlier] of [["scoring", 10], ["experiment", 50]] as const) {
        const {db, store} = await open(kind);
        for (let index = 0; index < earlier; index++) {
            // The oldest is paused, the next was running when the app closed: what an eviction used to take first.
            const status = index === 0 ? "paused" : index === 1 ? "running" : "completed";
            await store.create(job(`${kind}-${index}`, 1000 + index, status), table);
            await store.putResult(`${kind}-${index}`, ok(0));
        }
        await store.create(job(`${kind}-new`, 5000), table);
        // Created with an older date than every kept one: it is kept too.
        await store.create(job(`${kind}-late`, 10), table);
        const {jobs, problems} = await store.list();
        assert.equal(jobs.length, earlier + 2, kind);
        assert.deepEqual(problems, []);
        assert.deepEqual(jobs.map((info) => info.record.jobId), [`${kind}-new`, ...Array.from({length: earlier}, (_, index) => `${kind}-${earlier - 1 - index}`), `${kind}-late`]);
        assert.deepEqual(jobs.at(-2), {record: job(`${kind}-0`, 1000, "paused"), done: 1, failed: 0, hasTable: true});
        assert.equal(jobs.at(-3)!.record.status, "running");
        assert.deepEqual((await store.whole(`${kind}-0`))?.table, table);
        db.close();
    }
});

test("scoring jobs and experiments are kept apart: the same id in each is two jobs", async () => {
    const dir = folder();
    const {db, store: scoring} = await open("scoring", dir);
    const experiments = new JobStore(async () => db, "experiment");
    await scoring.create(job("same", 1), table);
    await experiments.create(job("same", 2), {rows: []});
    await experiments.putResult("same", ok(3));
    assert.deepEqual([(await scoring.whole("same"))?.results.length, (await experiments.whole("same"))?.results.length], [0, 1]);
    await scoring.deleteJob("same");
    assert.deepEqual((await experiments.list()).jobs.map((info) => [info.record.jobId, info.done]), [["same", 1]]);
    // Another program deletes the newest job's record and leaves its results: a job made after it never takes them.
    db.statement("DELETE FROM jobs WHERE kind = 'experiment' AND job_id = 'same'").run();
    await scoring.create(job("after", 3), table);
    assert.deepEqual([await scoring.countResults("after"), (await scoring.whole("after"))?.table], [{ok: 0, errors: 0}, table]);
    db.close();
});

test("an experiment's pinned baseline is kept in its record across launches and unpinned with null; a scoring job has none", async () => {
    const {db, store, dir} = await open("experiment");
    await store.createJob(job("earlier", 1, "completed"));
    await store.createJob(job("later", 2, "completed"));
    assert.equal((await store.update("later", {baseline: "earlier"})).baseline, "earlier");
    assert.equal(await rejection(store.update("later", {baseline: "not a name!"})), "a baseline job id must be 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit, got \"not a name!\"");
    await store.update("later", {status: "completed"});
    db.close();
    const {db: db2, store: again} = await open("experiment", dir);
    assert.equal((await again.getJob("later"))?.baseline, "earlier", "a later patch of its status keeps it, and a new connection reads it");
    assert.equal((await again.list()).jobs.find(({record}) => record.jobId === "later")?.record.baseline, "earlier");
    assert.equal((await again.update("later", {baseline: null})).baseline, null);
    db2.close();
    const {db: db3, store: scoring} = await open("scoring");
    await scoring.createJob(job("s", 1));
    assert.match(await rejection(scoring.update("s", {baseline: "earlier"})), /baseline/);
    db3.close();
});

test("storing a row costs the same at row 2,000 as at row 100: one row written per result, nothing rewritten", async () => {
    const {db, store} = await open();
    await store.create(job("long", 1), table);
    const explanation = "e".repeat(1_000);
    const timed = async (from: number, count: number) => {
        const started = performance.now();
        // Four rows in flight at a time, as the job runner's default concurrency has them.
        for (let rowIndex = from; rowIndex < from + count; rowIndex += 4)
            await Promise.all([0, 1, 2, 3].map((offset) => store.putResult("long", {...ok(rowIndex + offset), explanation} as RowResult)));
        return performance.now() - started;
    };
    await timed(0, 100);
    const first = await timed(100, 400);
    await timed(500, 1_500);
    const last = await timed(2_000, 400);
    assert.deepEqual(await store.countResults("long"), {ok: 2_400, errors: 0});
    // Rewriting the job per row would cost 7 times more at rows 2,000-2,400 than at rows 100-500.
    assert.ok(last < first * 3 + 250, `rows 2,000-2,400 took ${last.toFixed(0)} ms, rows 100-500 ${first.toFixed(0)} ms`);
    console.log(`# JobStore: ${Math.round(400 / (last / 1000))} committed row results/s at rows 2,000-2,400 (4 in flight)`);
    db.close();
});

test("a stored record or result that does not fit its shape is left out and reported; the other jobs and rows load, and nothing is written over it", async () => {
    const {db, store} = await open();
    for (const jobId of ["good", "damaged"]) await store.create(job(jobId, jobId === "good" ? 2 : 1), table);
    for (const rowIndex of [0, 1, 2]) await store.putResult("good", ok(rowIndex));
    db.statement("UPDATE jobs SET record = ? WHERE job_id = 'damaged'").run("{\"jobId\": \"damaged\", \"status\": \"exploded\"}");
    db.statement("UPDATE job_results SET value = ? WHERE row_index = 1").run("{\"rowIndex\": 1, \"ok\"");
    const listed = await store.list();
    assert.deepEqual(listed.jobs.map((info) => [info.record.jobId, info.done]), [["good", 3]]);
    assert.deepEqual(listed.problems, [`1 saved scoring job in the app's database could not be read and is left out (damaged): it stays in ${db.filePath}, table jobs.`]);
    const whole = await store.whole("good");
    assert.deepEqual(whole?.results.map((result) => result.rowIndex), [0, 2]);
    assert.deepEqual(whole?.problems, [`1 saved scoring job in the app's database could not be read and is left out (good's result of row 1): it stays in ${db.filePath}, table job_results.`]);
    // The row keeps what it has: it is not scored again over the text that could not be read.
    assert.equal(await store.putResult("good", ok(1)), false);
    assert.match(await rejection(store.update("damaged", {status: "completed"})), /could not be read .*Nothing was changed/);
    assert.equal(db.statement("SELECT record FROM jobs WHERE job_id = 'damaged'").pluck().get(), "{\"jobId\": \"damaged\", \"status\": \"exploded\"}");
    assert.equal(await store.remove("damaged"), true, "the user can still delete it");
    db.close();
});

test("killed while storing rows: every row stored is whole, and the job goes on from there", async () => {
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
    await data.close();
    const reopened = new AppDataStore(dir);
    assert.deepEqual((await reopened.jobs.readResults("crash-job")).at(-1), ok(next));
    await reopened.close();
});
