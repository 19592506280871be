import {test} from "node:test";
import assert from "node:assert/strict";
import {jointRun, sameRows, type KeptRun} from "./jointRuns.ts";
import {summarizeExperiment} from "./summary.ts";
import {chatVariant, decisionVariant, experiment, predicateCell, urgentSet} from "./testExperiment.ts";
import type {Dataset} from "./types.ts";

const dataset = (rows: number): Dataset => ({id: "d", name: "tickets", columns: ["ticket", "urgent"], columnTypes: ["string", "string"],
    rows: Array.from({length: rows}, (_unused, row) => [`t${row}`, "yes"]), labelColumns: ["urgent"], inputColumns: ["ticket"], createdAt: 0, updatedAt: 0});
const run = (name: string, rows: number, rowIndexes: number[], wrongOn: (row: number) => boolean): KeptRun => ({
    name, spec: experiment([decisionVariant("A", urgentSet, 1)]), dataset: dataset(rows), rowIndexes,
    cells: rowIndexes.map((row) => predicateCell(row, 0, wrongOn(row) ? 0.2 : 0.9))
});
const all = (rows: number) => Array.from({length: rows}, (_unused, row) => row);

test("two runs on the same rows are tested as one experiment: each variant against its namesake, with McNemar's exact test", () => {
    // The first run's A is wrong on 8 of 150 rows, the second's on none: 8 discordant rows, all the second's.
    const first = run("before", 150, all(150), (row) => row < 8);
    const second = run("after", 150, all(150), () => false);
    assert.equal(sameRows(first, second), true);
    const joint = jointRun(first, second)!;
    assert.deepEqual(joint.spec.variants.map((variant) => variant.name), ["#1 A", "#2 A"]);
    assert.deepEqual(joint.pairs, [[0, 1]]);
    const summary = summarizeExperiment(joint.spec, joint.dataset, joint.cells, {rowIndexes: joint.rowIndexes, pairs: joint.pairs});
    const accuracy = summary.differences.find((difference) => difference.metric === "accuracy" && !difference.calibrated)!;
    // p = 0.0078125: scipy binomtest(8, 8).pvalue.
    assert.deepEqual(accuracy.mcnemar && [accuracy.mcnemar.onlyA, accuracy.mcnemar.onlyB], [0, 8]);
    assert.ok(Math.abs(accuracy.mcnemar!.pValue - 0.0078125) < 1e-12);
    assert.equal(accuracy.better, 1);
    assert.match(accuracy.verdict, /^#2 A is better by 0\.053 /);
    assert.equal(summary.comparedText.split(". ")[0], "Compared: #2 A with #1 A");
});

test("runs on different rows, or on rows whose cells differ, are not tested against each other", () => {
    const twenty = run("small", 200, all(20), () => false);
    const all200 = run("large", 200, all(200), () => false);
    assert.equal(jointRun(twenty, all200), null);
    const edited = run("edited", 20, all(20), () => false);
    edited.dataset.rows[3] = ["t3 (edited)", "yes"];
    assert.equal(sameRows(run("small", 20, all(20), () => false), edited), false);
    // The same rows under other indexes (another sample of the same data) still pair row by row.
    const shifted = {...run("shifted", 40, all(20).map((row) => row + 20), () => false)};
    shifted.dataset.rows = [...all(20).map((row) => [`x${row}`, "no"]), ...all(20).map((row) => [`t${row}`, "yes"])];
    assert.equal(sameRows(run("small", 20, all(20), () => false), shifted), true);
    assert.deepEqual(jointRun(run("small", 20, all(20), () => false), shifted)!.cells.filter((cell) => cell.variant === 1).map((cell) => cell.rowIndex), all(20));
});

test("two runs that asked each row a different number of times are not tested together", () => {
    const rows = dataset(2);
    const chat = {...experiment([{...chatVariant("A", "m"), params: {temperature: 1}}]), dataset: rows};
    const asked = (repeats: number): KeptRun => ({name: `${repeats}`, spec: {...chat, repeats}, dataset: rows, rowIndexes: [0, 1], cells: []});
    assert.equal(jointRun(asked(3), asked(2)), null);
    assert.notEqual(jointRun(asked(3), asked(3)), null);
});
