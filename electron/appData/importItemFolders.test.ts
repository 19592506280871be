import assert from "node:assert/strict";
import {mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import type {JobRecord, RowResult} from "../../client/scoring/types.ts";
import {toApiError} from "../../native/http/replies.ts";
import {writeOldJob, writeOldRun} from "../../test/support/appData/oldItemFolders.ts";
import {AppDataStore} from "./AppDataStore.ts";

const root = await mkdtemp(path.join(os.tmpdir(), "svc-item-upgrade-"));
let folders = 0;
const folder = () => path.join(root, `case-${++folders}`);
after(() => rm(root, {recursive: true, force: true}));

const run = (id: string, createdAt: number, extra: Record<string, unknown> = {}) => ({id, createdAt, kind: "chat", request: {model: "svc-1"}, ...extra});
const job = (jobId: string, createdAt: number, status: JobRecord["status"] = "completed"): JobRecord => ({jobId, status, totalRows: 3, error: null, createdAt, updatedAt: createdAt,
    spec: {questionSet: {format: "systemone", questions: {}}, input: {kind: "row"}, columns: ["x"], source: {name: "t.csv", sheet: null}}});
const result = (rowIndex: number, ok = true, attempts = 1): RowResult => ({rowIndex, ok, attempts, durationMs: 2, completedAt: rowIndex,
    ...ok ? {response: {answers: {}}} : {error: {status: 400, code: "x", message: "m"}}} as RowResult);
const table = {fileName: "t.csv", columns: ["x"], rows: [["a"], ["b"], ["c"]]};

/** The folders of the data folder whose name starts with `prefix`. */
const named = async (dir: string, prefix: string) => (await readdir(dir)).filter((name) => name.startsWith(prefix));

test("an upgrade moves the old history, scoring jobs and experiments into the database, keeps what it cannot read, and renames the folders aside", async () => {
    const dir = folder();
    const image = "data:image/png;base64," + "A".repeat(2 * 1024 * 1024);
    await writeOldRun(dir, run("first", 1_000));
    await writeOldRun(dir, run("with-image", 2_000, {request: {image}}));
    await writeOldRun(dir, run("newest", 3_000, {reply: "ünïcode ✓"}));
    await writeFile(path.join(dir, "history", "2500-cut.json"), "{\"id\": \"cut\", \"createdAt\": 25");
    await writeFile(path.join(dir, "history", "2600-stranger.json"), JSON.stringify({id: "stranger", note: "no creation time"}));
    // What a crash left of an atomic write: never a run.
    await writeFile(path.join(dir, "history", "2700-x.json.4242.1.tmp"), "{");
    // A paused job, with a row stored twice (the first counts), an error row and the tail of a line a crash cut short.
    const paused = await writeOldJob(dir, "scoring-jobs", job("paused-job", 10, "paused"), table, [result(0), result(2, false), result(0, true, 9)]);
    await writeFile(path.join(paused, "results.jsonl"), JSON.stringify(result(1)).slice(0, 20), {flag: "a"});
    await writeOldJob(dir, "scoring-jobs", job("done-job", 20), table, [result(0), result(1), result(2)]);
    const unreadable = await writeOldJob(dir, "scoring-jobs", job("bad-record", 30), table, [result(0)]);
    await writeFile(path.join(unreadable, "job.json"), "{\"jobId\": \"bad-record\", ");
    const badTable = await writeOldJob(dir, "scoring-jobs", job("bad-table", 40), table, []);
    await writeFile(path.join(badTable, "table.json"), "[[\"a\"");
    // A creation a crash cut short: a table and no record. Nothing to move in.
    await mkdir(path.join(dir, "scoring-jobs", "half"));
    await writeFile(path.join(dir, "scoring-jobs", "half", "table.json"), JSON.stringify(table));
    for (let index = 0; index < 51; index++)
        await writeOldJob(dir, "experiments", {...job(`exp-${index}`, 100 + index, index === 0 ? "paused" : "completed"), spec: {kind: "experiment"}}, {rows: [["a"]]}, [result(index % 3)]);

    const data = new AppDataStore(dir);
    const page = await data.history.page(10, null);
    assert.deepEqual(page.entries.map((entry) => entry.id), ["newest", "with-image", "first"]);
    assert.deepEqual(page.entries[0], run("newest", 3_000, {reply: "ünïcode ✓"}));
    assert.equal((page.entries[1].request as {image: string}).image, image);
    const [historyAside] = await named(dir, "history.migrated-");
    assert.deepEqual(page.problems, [`2 saved runs could not be read and were kept in ${path.join(dir, historyAside)} ` +
        "(2500-cut.json: not JSON, 2600-stranger.json: not a run (no id or creation time))."]);

    const jobs = await data.jobs.list();
    assert.deepEqual(jobs.jobs.map((info) => [info.record.jobId, info.record.status, info.done, info.failed, info.hasTable]),
        [["bad-table", "completed", 0, 0, false], ["done-job", "completed", 3, 0, true], ["paused-job", "paused", 2, 1, true]]);
    const [jobsAside] = await named(dir, "scoring-jobs.migrated-");
    assert.equal(jobs.problems.length, 1);
    assert.match(jobs.problems[0], new RegExp(`^3 saved scoring jobs could not be read and were kept in ${path.join(dir, jobsAside).replace(/[.\\]/g, "\\$&")} \\(`));
    for (const part of ["bad-record/job.json: not JSON", "bad-table/table.json: not JSON (the job is listed without its table)", "paused-job/results.jsonl: 1 of its 4 lines are no result"])
        assert.ok(jobs.problems[0].includes(part), part);
    const whole = await data.jobs.whole("paused-job");
    assert.deepEqual(whole?.table, table);
    assert.deepEqual(whole?.results, [result(0), result(2, false)], "the first result of row 0; row 1, cut short, is scored again");
    assert.deepEqual([...await data.jobs.doneRowIndexes("paused-job")].sort(), [0, 2]);

    const experiments = await data.experiments.list();
    assert.equal(experiments.jobs.length, 51, "all 51 experiments, none left behind");
    assert.deepEqual([experiments.jobs.at(-1)?.record.jobId, experiments.jobs.at(-1)?.record.status, experiments.problems], ["exp-0", "paused", []]);

    // Renamed aside, never deleted: every file is still there, what could not be read included.
    assert.deepEqual([await named(dir, "history"), await named(dir, "scoring-jobs"), await named(dir, "experiments")].map((names) => names.length), [1, 1, 1]);
    assert.equal(await readFile(path.join(dir, historyAside, "2500-cut.json"), "utf8"), "{\"id\": \"cut\", \"createdAt\": 25");
    assert.deepEqual((await readdir(path.join(dir, jobsAside))).sort(), ["bad-record", "bad-table", "done-job", "half", "paused-job"]);

    // The problems are said until acknowledged; the files stay.
    const acknowledge = (kind: string) => data.handlers.acknowledgeItemProblems!({params: {}, query: new URLSearchParams(), readBody: async () => ({kind})});
    assert.deepEqual((await acknowledge("run")).body, {acknowledged: 2});
    assert.deepEqual([(await data.history.page(10, null)).problems, (await data.jobs.list()).problems.length], [[], 1]);
    assert.equal((await acknowledge("everything").then(() => null, (error: unknown) => toApiError(error)))?.status, 400);
    await data.close();

    // The next launch imports nothing twice.
    const next = new AppDataStore(dir);
    assert.equal((await next.history.page(10, null)).total, 3);
    assert.equal((await next.experiments.list()).jobs.length, 51);
    assert.equal((await next.jobs.whole("done-job"))?.results.length, 3);
    await next.close();
});

test("a crash between the rename and the import: the folder moved aside is imported at the next open; a run or job the database holds keeps its value", async () => {
    const dir = folder();
    const data = new AppDataStore(dir);
    await data.history.add(run("kept", 5, {reply: "in the database"}));
    await data.close();
    await writeOldRun(dir, run("kept", 5, {reply: "in the old folder"}));
    await writeOldRun(dir, run("old", 4));
    // As a crash right after the rename leaves it.
    await rename(path.join(dir, "history"), path.join(dir, "history.migrated-2026-01-01T00-00-00-000Z"));
    const reopened = new AppDataStore(dir);
    const page = await reopened.history.page(10, null);
    assert.deepEqual(page.entries.map((entry) => [entry.id, entry.reply]), [["kept", "in the database"], ["old", undefined]]);
    assert.deepEqual(await named(dir, "history"), ["history.migrated-2026-01-01T00-00-00-000Z"]);
    await reopened.close();
});
