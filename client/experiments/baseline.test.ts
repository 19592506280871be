import {test} from "node:test";
import assert from "node:assert/strict";
import {seededRandom} from "../../base/common/seededRandom.ts";
import {baselineTargets, compareWithBaseline, oneSidedMcnemar} from "./baseline.ts";
import {baselineRowCells, describeRowMatching} from "./baselineText.ts";
import {summarizeExperiment} from "./summary.ts";
import {prepareRun, rowKeys, RowKeyError, rowsPassed, type RunData} from "./rowOutcomes.ts";
import {holm} from "./stats.ts";
import {chatVariant, decisionVariant, experiment, predicateCell, urgentSet} from "./testExperiment.ts";
import type {CellResult} from "./types.ts";

test("the one-sided exact McNemar p-value matches scipy's binomtest(worse, worse + better, alternative='greater')", () => {
    // scipy.stats.binomtest(8, 10, alternative="greater").pvalue and likewise.
    assert.ok(Math.abs(oneSidedMcnemar(8, 2) - 0.0546875) < 1e-12);
    assert.ok(Math.abs(oneSidedMcnemar(12, 8) - 0.2517223358154297) < 1e-12);
    assert.ok(Math.abs(oneSidedMcnemar(30, 15) - 0.017848901777597348) < 1e-12);
    // No row where this run alone is worse: no evidence of a regression, however many improved.
    assert.equal(oneSidedMcnemar(0, 9), 1);
    assert.equal(oneSidedMcnemar(0, 0), 1);
});

/** Per row: the baseline and this run pass or fail independently, each with the row's own chance (less `drop` now). */
function simulateMetric(random: () => number, rows: number, drop: number): {worse: number, better: number} {
    let worse = 0, better = 0;
    for (let row = 0; row < rows; row++) {
        const chance = 0.3 + 0.6 * random();
        const before = random() < chance, now = random() < chance - drop;
        if (before && !now) worse++;
        else if (now && !before) better++;
    }
    return {worse, better};
}

test("the regression rule by seeded simulation: noise fails at most 5% of runs across 3 gated metrics, a real drop of 0.15 is caught", () => {
    const random = seededRandom(424242);
    const runs = 2000, rows = 300;
    let familyFailures = 0, singleFailures = 0, caught = 0;
    for (let run = 0; run < runs; run++) {
        const metrics = [0, 1, 2].map(() => simulateMetric(random, rows, 0));
        const pValues = metrics.map(({worse, better}) => oneSidedMcnemar(worse, better));
        if (holm(pValues, 0.05).some((result) => result.rejected)) familyFailures++;
        if (pValues[0] <= 0.05) singleFailures++;
        const dropped = simulateMetric(random, rows, 0.15);
        if (holm([oneSidedMcnemar(dropped.worse, dropped.better), ...pValues.slice(1)], 0.05)[0].rejected) caught++;
    }
    console.log(`regression rule, ${runs} runs of ${rows} rows: false regressions ${familyFailures / runs} over 3 metrics, ${singleFailures / runs} on one; a drop of 0.15 caught in ${caught / runs}`);
    // Under no difference the exact test is conservative: at most 5% (+ 1% for the simulation's own error, about 0.5%).
    assert.ok(familyFailures / runs <= 0.06, `family-wise false regressions ${familyFailures / runs}`);
    assert.ok(singleFailures / runs <= 0.06 && singleFailures / runs >= 0.02, `one metric's false regressions ${singleFailures / runs}`);
    assert.ok(caught / runs >= 0.9, `a drop of 0.15 on 300 rows caught in ${caught / runs} of runs`);
});

/** A chat run on `texts` (one row each), variant A passing its one check on the rows `passes` says. */
function chatRun(texts: readonly string[], passes: (text: string) => boolean | "error", variant = "A"): RunData {
    const dataset = {columns: ["question"], rows: texts.map((text) => [text]), labelColumns: []};
    const cells: CellResult[] = texts.map((text, rowIndex) => {
        const pass = passes(text);
        return pass === "error"
            ? {rowIndex, variant: 0, ok: false, request: {}, error: {status: 500, code: "server_error", message: "x"}, latencyMs: 1, attempts: 1, completedAt: 0}
            : {rowIndex, variant: 0, ok: true, request: {}, reply: "r", checks: [{name: "has_answer", pass, score: pass ? 1 : 0}], latencyMs: 1, attempts: 1, completedAt: 0};
    });
    return {spec: experiment([chatVariant(variant, "m")]), dataset, rowIndexes: texts.map((_text, index) => index), cells};
}

test("rows are matched by their key, whatever their order; rows only one run has are reported by their row numbers", () => {
    const baseline = prepareRun(chatRun(["q1", "q2", "q3", "q4", "q5"], (text) => text !== "q5"));
    // This run: q1–q4 re-ordered (q2 now fails, q3 errored), q5 dropped, q6 new.
    const current = prepareRun(chatRun(["q4", "q3", "q2", "q1", "q6"], (text) => text === "q3" ? "error" : text !== "q2"));
    const comparison = compareWithBaseline(current, baseline, [{variant: 0, metric: "pass_rate", question: null}]);
    assert.equal(comparison.matched, 4);
    assert.deepEqual(comparison.onlyInBaseline, [5]);
    assert.deepEqual(comparison.onlyInCurrent, [5]);
    const [passRate] = comparison.tests;
    // q2 and q3 (an errored chat row fails) regressed, q1 and q4 passed in both.
    assert.deepEqual({rows: passRate.rows, regressed: passRate.regressed, improved: passRate.improved, unchanged: passRate.unchanged}, {rows: 4, regressed: 2, improved: 0, unchanged: 2});
    assert.equal(passRate.pValue, 0.25);
    assert.equal(passRate.significant, false);
    assert.equal(passRate.baselineValue, 1);
    assert.equal(passRate.currentValue, 0.5);
    assert.deepEqual(rowsPassed(current, 0), [true, false, false, true, true]);
    // A variant the baseline lacks cannot be tested, which the gate treats as a failure.
    const renamed = compareWithBaseline(prepareRun(chatRun(["q1"], () => true, "B")), baseline, [{variant: 0, metric: "pass_rate", question: null}]);
    assert.match(renamed.tests[0].problem ?? "", /the baseline has no variant "B" \(its variants: A\)/);
});

test("row keys: a key column's values, or the input columns as JSON with repeats numbered", () => {
    const dataset = {columns: ["id", "text", "label"], rows: [["a", "x", "yes"], ["b", "x", "no"], ["c", "y", "yes"]], labelColumns: ["label"]};
    assert.deepEqual(rowKeys(dataset, [0, 1, 2], "id"), ["a", "b", "c"]);
    assert.deepEqual(rowKeys(dataset, [0, 1, 2]), ['["a","x"]', '["b","x"]', '["c","y"]']);
    assert.deepEqual(rowKeys({...dataset, inputColumns: ["text"]}, [0, 1, 2]), ['["x"]', '["x"]#2', '["y"]']);
    assert.throws(() => rowKeys(dataset, [0, 1], "text"), (error: unknown) => error instanceof RowKeyError && /rows 1 and 2 have the same text "x"/.test(error.message));
    assert.throws(() => rowKeys(dataset, [0], "nope"), /no column named "nope"/);
});

test("the app's baseline test: every pass / fail metric the summary measured, tested as eval tests it, written with its counts and p-values", () => {
    // 12 tickets, urgent on the even rows. The baseline ran on rows 0–10 and answered each right; this run on rows 1–11,
    // wrong on rows 1–7. Paired: rows 1–10, of which 7 regressed, none improved and 3 are unchanged.
    const dataset = {columns: ["text", "urgent"], rows: Array.from({length: 12}, (_, index) => [`ticket ${index}`, index % 2 === 0 ? "yes" : "no"]), labelColumns: ["urgent"]};
    const run = (rows: number[], right: (row: number) => boolean): RunData => ({spec: experiment([decisionVariant("A", urgentSet)]), dataset, rowIndexes: rows,
        cells: rows.map((row) => predicateCell(row, 0, (row % 2 === 0) === right(row) ? 0.9 : 0.1))});
    const baseline = run(Array.from({length: 11}, (_, index) => index), () => true);
    const current = run(Array.from({length: 11}, (_, index) => index + 1), (row) => row >= 8);
    const summary = summarizeExperiment(current.spec, dataset, current.cells, {rowIndexes: current.rowIndexes});
    const targets = baselineTargets(summary);
    assert.deepEqual(targets, [{variant: 0, metric: "accuracy", question: "urgent"}], "Brier, log loss, ECE and AUC are not pass / fail");
    const comparison = compareWithBaseline(prepareRun(current), prepareRun(baseline), targets);
    assert.deepEqual([comparison.matched, comparison.onlyInBaseline, comparison.onlyInCurrent], [10, [1], [12]]);
    const [accuracy] = comparison.tests;
    assert.deepEqual([accuracy.rows, accuracy.regressed, accuracy.improved, accuracy.unchanged], [10, 7, 0, 3]);
    // scipy.stats.binomtest(7, 7, alternative="greater").pvalue = 0.0078125; one test, so Holm leaves it as it is.
    assert.ok(Math.abs(accuracy.pValue - 0.0078125) < 1e-12);
    assert.equal(accuracy.adjusted, accuracy.pValue);
    assert.equal(accuracy.significant, true);
    assert.equal(describeRowMatching(comparison), "10 rows matched by their key; only in the baseline: row 1; only in this run: row 12");
    assert.deepEqual(baselineRowCells(accuracy), ["A · urgent · Accuracy", "1.000 → 0.300", "0", "7", "3", "regressed", "p = 0.008", "p = 0.008"]);
});
