import {test} from "node:test";
import assert from "node:assert/strict";
import {evaluateBinary, evaluateMulticlass} from "./metrics.ts";

// A frequency weight counts a row as that many identical rows: a bootstrap resample is evaluated as its distinct
// rows weighted by how often each was drawn, through the same report functions as every other metric.

const repeat = <T extends {weight?: number}>(rows: readonly T[]): T[] =>
    rows.flatMap((row) => Array.from({length: row.weight ?? 1}, () => ({...row, weight: undefined})));

function assertSameReport(weighted: object, repeated: object) {
    const round = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (_key, entry) => typeof entry === "number" ? Number(entry.toFixed(12)) : entry));
    assert.deepEqual(round(weighted), round(repeated));
}

test("a weighted yes/no report equals the report of the rows repeated", () => {
    const rows = [
        {probability: 0.9, label: true, weight: 3},
        {probability: 0.7, label: false, weight: 2},
        {probability: 0.4, label: true, weight: 1},
        {probability: 0.1, label: false, weight: 4},
        {probability: 0.7, label: true, weight: 2}
    ];
    assertSameReport(evaluateBinary(rows), evaluateBinary(repeat(rows)));
});

test("a weighted choice report equals the report of the rows repeated, and weight 0 leaves a row out", () => {
    const rows = [
        {probabilities: [0.7, 0.2, 0.1], label: 0, weight: 2},
        {probabilities: [0.1, 0.6, 0.3], label: 1, weight: 1},
        {probabilities: [0.2, 0.5, 0.3], label: 2, weight: 3},
        {probabilities: [0.6, 0.3, 0.1], label: 1, weight: 0}
    ];
    assertSameReport(evaluateMulticlass(rows, ["a", "b", "c"], {ordinal: true}), evaluateMulticlass(repeat(rows), ["a", "b", "c"], {ordinal: true}));
});

test("rows whose weights are all 0 are refused like no rows", () => {
    assert.throws(() => evaluateBinary([{probability: 0.5, label: true, weight: 0}]), /no labelled rows/);
});
