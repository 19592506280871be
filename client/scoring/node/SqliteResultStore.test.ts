import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {openSqlite} from "../../../base/node/sqlite.ts";
import type {JobRecord, RowResult} from "../types.ts";
import {SqliteResultStore} from "./SqliteResultStore.ts";

let dir: string;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-store-"));
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

const job = (jobId: string): JobRecord => ({
    jobId,
    spec: {questionSet: {format: "systemone", questions: {a: {type: "noul"}}}, input: {kind: "row"}, columns: ["x"]},
    status: "running", totalRows: null, error: null, createdAt: 1, updatedAt: 1
});
const result = (rowIndex: number, ok = true): RowResult => ok
    ? {rowIndex, ok, response: {answers: {a: {type: "noul", noul: rowIndex / 10}}}, attempts: 1, durationMs: 5, completedAt: 100 + rowIndex}
    : {rowIndex, ok, error: {status: 400, code: "request_rejected", message: "too long"}, attempts: 1, durationMs: 5, completedAt: 100 + rowIndex};

test("WAL journal, one row per (job, row index): a second result for a row is ignored, other jobs are separate", async () => {
    const file = path.join(dir, "a.sqlite");
    const store = new SqliteResultStore(file);
    await store.createJob(job("j1"));
    await store.createJob(job("j2"));
    assert.equal(await store.putResult("j1", result(0)), true);
    assert.equal(await store.putResult("j1", result(1, false)), true);
    assert.equal(await store.putResult("j1", {...result(0), attempts: 9}), false, "duplicate ignored");
    assert.equal(await store.putResult("j2", result(0)), true, "same index, other job");
    assert.deepEqual(await store.countResults("j1"), {ok: 1, errors: 1});
    assert.deepEqual((await store.readResults("j1")).map((entry) => [entry.rowIndex, entry.attempts]), [[0, 1], [1, 1]]);
    assert.deepEqual((await store.readResults("j1", 1, 5)).map((entry) => entry.rowIndex), [1]);
    await store.updateJob("j1", {status: "completed", totalRows: 2});
    await store.close();

    // Read back by a plain SQLite connection: the schema itself enforces uniqueness, and the journal is WAL.
    const db = openSqlite(file);
    assert.equal(db.pragma("journal_mode", {simple: true}), "wal");
    assert.throws(() => db.prepare("INSERT INTO results (job_id, row_index, ok, result, completed_at) VALUES ('j1', 0, 1, '{}', 0)").run(), /UNIQUE constraint failed/);
    assert.equal(db.prepare("SELECT COUNT(*) FROM results WHERE job_id = 'j1'").pluck().get(), 2);
    db.close();

    const reopened = new SqliteResultStore(file);
    const record = await reopened.getJob("j1");
    assert.equal(record?.status, "completed");
    assert.equal(record?.totalRows, 2);
    assert.deepEqual(record?.spec, job("j1").spec);
    assert.deepEqual([...await reopened.doneRowIndexes("j1")].sort(), [0, 1]);
    assert.equal(await reopened.deleteErrors("j1"), 1);
    assert.deepEqual([...await reopened.doneRowIndexes("j1")], [0]);
    await reopened.deleteJob("j2");
    assert.equal(await reopened.getJob("j2"), null);
    assert.deepEqual(await reopened.countResults("j2"), {ok: 0, errors: 0});
    await reopened.close();
});
