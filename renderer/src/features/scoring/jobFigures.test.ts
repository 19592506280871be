import assert from "node:assert/strict";
import {test} from "node:test";
import type {RowResult} from "../../../../client/scoring/index.ts";
import {busyMs, failureNote, jobFigures} from "./jobFigures.ts";

test("failureNote: a failed job says why beside its status, also when the reason was not kept; other statuses say nothing", () => {
    assert.equal(failureNote({status: "failed", fatalError: "row 33: 429 rate_limit_exceeded: over the limit"}), "row 33: 429 rate_limit_exceeded: over the limit");
    assert.match(failureNote({status: "failed", fatalError: null})!, /why was not saved/);
    assert.match(failureNote({status: "failed", fatalError: " "})!, /why was not saved/);
    for (const status of ["running", "paused", "completed", "cancelled"] as const) assert.equal(failureNote({status, fatalError: null}), null);
});

const row = (rowIndex: number, completedAt: number, durationMs: number, cached = false): RowResult =>
    ({rowIndex, ok: true, attempts: cached ? 0 : 1, durationMs, completedAt, ...(cached ? {cached: true as const} : {})});

test("busyMs: the union of the rows' requests, overlaps counted once, the gap between two runs not at all, cached rows none", () => {
    // First run: four workers over 0-10 s; second run (after a reload) 60-63 s; a cached row in between took no time.
    const results = [row(0, 4000, 4000), row(1, 6000, 5000), row(2, 10_000, 5000), row(3, 9000, 2000), row(4, 30_000, 700, true), row(5, 62_000, 2000), row(6, 63_000, 2000), undefined];
    assert.equal(busyMs(results), 10_000 + 3000);
    assert.equal(busyMs([]), 0);
});

test("jobFigures: a job continued after a reload counts its earlier runs' time; its rate, once stopped, is every row over all of it", () => {
    // 100 rows scored in 13 s before the reload, 8 in the 1 s after: not "1 s, 7.6 rows/s".
    const finished = jobFigures({status: "completed", done: 108, elapsedMs: 1000, rowsPerSecond: null}, 13_000);
    assert.equal(finished.elapsedMs, 14_000);
    assert.ok(Math.abs(finished.rowsPerSecond! - 108 / 14) < 1e-9);
    // While running, the rate is the recent pace the runner measures; the elapsed time is still the whole job's.
    assert.deepEqual(jobFigures({status: "running", done: 50, elapsedMs: 2000, rowsPerSecond: 3.5}, 13_000), {elapsedMs: 15_000, rowsPerSecond: 3.5});
    assert.equal(jobFigures({status: "cancelled", done: 0, elapsedMs: 0, rowsPerSecond: null}, 0).rowsPerSecond, null);
});
