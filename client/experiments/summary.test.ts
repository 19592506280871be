import {test} from "node:test";
import assert from "node:assert/strict";
import {summarizeExperiment} from "./summary.ts";
import {chatVariant, decisionVariant, experiment, predicateCell, urgentSet} from "./testExperiment.ts";
import type {CellResult, MetricValue} from "./types.ts";

const close = (actual: number | null | undefined, expected: number, message?: string) =>
    assert.ok(actual != null && Math.abs(actual - expected) < 1e-9, `${message ?? ""} expected ${expected}, got ${actual}`);

// Eight tickets, labelled urgent (yes) or not. A answers with P(yes) below; B is A's prompt improved on rows 2 and 5.
//   row      0    1    2    3    4    5    6    7
//   label    y    y    y    n    n    n    y    n
//   A       .9   .8   .3   .2   .1   .6   .7   .4     A right on 0 1 3 4 6 7, wrong on 2 (no) and 5 (yes): 6/8
//   B       .9   .8   .7   .2   .1   .3   .7   .4     B right on all 8: 8/8
// Disagreements: rows 2 and 5 (A wrong; they pick differently), by the gap in P(label): row 2 .7 - .3 = 0.4,
// row 5 (label no) P(no) .7 - .4 = 0.3.
const dataset = {columns: ["ticket", "urgent"], labelColumns: ["urgent"], rows: [
    ["a", "yes"], ["b", "yes"], ["c", "yes"], ["d", "no"], ["e", "no"], ["f", "no"], ["g", "yes"], ["h", "no"]
]};
const a = [0.9, 0.8, 0.3, 0.2, 0.1, 0.6, 0.7, 0.4];
const b = [0.9, 0.8, 0.7, 0.2, 0.1, 0.3, 0.7, 0.4];
const spec = experiment([decisionVariant("A", urgentSet, 1), decisionVariant("B", urgentSet, 2)]);
const cells: CellResult[] = [...a.map((p, row) => predicateCell(row, 0, p)), ...b.map((p, row) => predicateCell(row, 1, p))];

const metric = (values: MetricValue[], key: string) => values.find((value) => value.metric === key && !value.calibrated);

test("a hand-made experiment: accuracy per variant, McNemar on the discordant rows, the disagreements", () => {
    const summary = summarizeExperiment(spec, dataset, cells);
    assert.equal(summary.rows, 8);
    assert.deepEqual(summary.warnings, []);
    const [summaryA, summaryB] = summary.variants;
    close(metric(summaryA.metrics, "accuracy")?.value, 6 / 8, "A accuracy");
    close(metric(summaryB.metrics, "accuracy")?.value, 1, "B accuracy");
    assert.equal(metric(summaryA.metrics, "accuracy")?.n, 8);
    // Accuracy, a rate shown alone, carries its 95% Wilson interval: scipy binomtest(6, 8) and binomtest(8, 8)
    // .proportion_ci(method="wilson") give 0.40927543031016883–0.9285207872478909 and 0.6755924351161198–1.
    close(metric(summaryA.metrics, "accuracy")?.interval?.low, 0.40927543031016883, "A accuracy's interval low");
    close(metric(summaryA.metrics, "accuracy")?.interval?.high, 0.9285207872478909, "A accuracy's interval high");
    close(metric(summaryB.metrics, "accuracy")?.interval?.low, 0.6755924351161198, "B accuracy's interval low");
    assert.equal(metric(summaryB.metrics, "accuracy")?.interval?.high, 1);
    assert.equal(metric(summaryA.metrics, "brier")?.interval, undefined, "a Brier score is no rate: no Wilson interval");
    // Brier of A: (.01 + .04 + .49 + .04 + .01 + .36 + .09 + .16) / 8 = 1.2 / 8
    close(metric(summaryA.metrics, "brier")?.value, 1.2 / 8, "A brier");
    assert.equal(summaryA.done, 8);
    assert.equal(summaryA.errors, 0);
    assert.deepEqual(summaryA.usage, {promptTokens: 800, completionTokens: 8, totalTokens: 808});
    assert.equal(summaryA.cost, null);
    close(summaryA.latencyP50Ms, 135, "p50 of 100..170");

    const accuracy = summary.differences.find((difference) => difference.metric === "accuracy" && !difference.calibrated)!;
    assert.equal(accuracy.a, 0);
    assert.equal(accuracy.b, 1);
    close(accuracy.delta, 0.25, "delta");
    assert.deepEqual(accuracy.mcnemar, {onlyA: 0, onlyB: 2, pValue: 0.5});
    assert.ok(accuracy.low !== null && accuracy.high !== null && accuracy.low <= 0.25 && accuracy.high >= 0.25);

    assert.deepEqual(summary.disagreements.map((row) => row.rowIndex), [2, 5]);
    close(summary.disagreements[0].size, 0.4, "size of row 2");
    close(summary.disagreements[1].size, 0.3, "size of row 5");
    for (const row of summary.disagreements) {
        assert.equal(row.question, "urgent");
        assert.deepEqual(row.cells.map((cell) => cell.correct), [false, true]);
    }
    assert.equal(summary.disagreements[0].cells[0].summary, "no 0.700");
});

test("the same seed gives the same summary; a failed cell counts as an error and leaves its row out", () => {
    assert.deepEqual(summarizeExperiment(spec, dataset, cells), summarizeExperiment(spec, dataset, cells));
    const failed = cells.map((cell) => cell.variant === 1 && cell.rowIndex === 7 ? {...cell, ok: false, response: undefined, error: {status: 500, code: "server_error", message: "boom"}} : cell);
    const summary = summarizeExperiment(spec, dataset, failed);
    assert.equal(summary.variants[1].errors, 1);
    assert.equal(metric(summary.variants[1].metrics, "accuracy")?.n, 7);
    assert.equal(summary.differences.find((difference) => difference.metric === "accuracy")?.n, 7);
    assert.ok(summary.disagreements.some((row) => row.rowIndex === 7 && row.cells[1].summary === "error: boom"));
});

test("identical variants: every interval holds 0 and the verdict says no clear difference", () => {
    const same = [...a.map((p, row) => predicateCell(row, 0, p)), ...a.map((p, row) => predicateCell(row, 1, p))];
    const summary = summarizeExperiment(spec, dataset, same);
    for (const difference of summary.differences) {
        if (difference.delta === null) continue;
        assert.equal(difference.delta, 0);
        assert.ok(difference.low! <= 0 && difference.high! >= 0, difference.metric);
        assert.equal(difference.better, null);
        // The interval is shown even without a difference; only the primary metric (accuracy) is not marked secondary.
        if (difference.method === "exact") {
            // No discordant row on 8: the exact interval is ±dU, dU = 0.3694166475528192 (scipy binomtest(0, 8)
            // .proportion_ci(method="exact").high): too few rows to call a difference of less than 0.37 absent.
            close(difference.high, 0.3694166475528192, "exact interval's high end");
            assert.equal(difference.verdict, `${difference.primary ? "" : "secondary: "}no clear difference: 0.00 (-0.37 to 0.37) on 8 rows`);
        } else assert.equal(difference.verdict, `${difference.primary ? "" : "secondary: "}no clear difference: 0.00 (0.00–0.00) on 8 rows`);
    }
    assert.deepEqual(summary.disagreements, [], "the same picks on every row, wrong ones included, are no disagreement");
});

test("chat variants: pass rate, each check's pass share and a grader's mean score, McNemar on passes, a clear verdict, cost from the local prices", () => {
    const rows = Array.from({length: 60}, (_unused, index) => [`question ${index}`]);
    const chat = {...experiment([chatVariant("short", "small"), chatVariant("long", "large")]), checks: [{kind: "grader" as const, name: "grounded", question: "Grounded?", template: "{{reply}}"}]};
    const checksOf = (pass: boolean, grade: number) => [{name: "has_answer", pass, score: pass ? 1 : 0}, {name: "grounded", pass: grade >= 0.5, score: grade}];
    const chatCells: CellResult[] = rows.flatMap((_row, rowIndex) => [0, 1].map((variant): CellResult => {
        // "short" passes 20 of 60 rows, "long" 50 (every row "short" passes, too); the grader likes "long" more.
        const pass = variant === 0 ? rowIndex < 20 : rowIndex < 50;
        return {rowIndex, variant, ok: true, request: {}, reply: `reply ${rowIndex}`, checks: checksOf(pass, variant === 0 ? 0.4 : 0.9),
            usage: {promptTokens: 1000, completionTokens: 500, totalTokens: 1500}, latencyMs: 200, attempts: 1, completedAt: 0};
    }));
    const summary = summarizeExperiment(chat, {columns: ["question"], rows}, chatCells, {localPrices: {inputPerMillion: 1, outputPerMillion: 4}});
    const [short, long] = summary.variants;
    close(metric(short.metrics, "pass_rate")?.value, 0, "short pass rate: grounded never passes");
    close(metric(long.metrics, "pass_rate")?.value, 50 / 60, "long pass rate");
    close(metric(short.metrics, "pass:has_answer")?.value, 20 / 60, "short has_answer");
    close(metric(short.metrics, "pass:grounded")?.value, 0, "short grounded: 0.4 never passes");
    close(metric(long.metrics, "score:grounded")?.value, 0.9, "long grounded mean P(yes)");
    // Pass rates carry their Wilson interval: scipy binomtest(50, 60) and binomtest(0, 60).proportion_ci(method="wilson").
    close(metric(long.metrics, "pass_rate")?.interval?.low, 0.7196838683638547, "long pass rate's interval low");
    close(metric(long.metrics, "pass_rate")?.interval?.high, 0.9068682302080855, "long pass rate's interval high");
    assert.deepEqual(metric(short.metrics, "pass:grounded")?.interval?.low, 0);
    close(metric(short.metrics, "pass:grounded")?.interval?.high, 0.06017185214208986, "a check's share at 0 of 60");
    assert.equal(metric(long.metrics, "score:grounded")?.interval, undefined, "a mean score is no rate");
    // 60 rows × (1000 × 1 + 500 × 4) / 1e6 = 0.18
    close(short.cost, 0.18, "cost");
    const passRate = summary.differences.find((difference) => difference.metric === "pass_rate")!;
    assert.deepEqual(passRate.mcnemar && {onlyA: passRate.mcnemar.onlyA, onlyB: passRate.mcnemar.onlyB}, {onlyA: 0, onlyB: 50});
    assert.equal(passRate.better, 1);
    // McNemar's exact interval: 50 of 50 discordant rows, θL = 0.9288782635357954, and the discordant share 50 of 60
    // from 0.71478074517137 to 0.9170711898409363 (scipy binomtest(k, n).proportion_ci(method="exact")), so
    // 0.71478·(2θL − 1) = 0.6131 to 0.9171.
    close(passRate.low, 0.71478074517137 * (2 * 0.9288782635357954 - 1), "pass rate interval's low end");
    close(passRate.high, 0.9170711898409363, "pass rate interval's high end");
    assert.equal(passRate.verdict, "long is better by 0.83 (0.61–0.92)");
    assert.ok(summary.disagreements.length > 0 && summary.disagreements.every((row) => row.question === undefined));
});

test("before any result, and with cells outside the sample or a question set that does not parse, the summary still stands", () => {
    const empty = summarizeExperiment(spec, dataset, []);
    assert.equal(empty.variants[0].done, 0);
    assert.equal(empty.variants[0].total, 8);
    assert.equal(metric(empty.variants[0].metrics, "accuracy")?.value, null);
    assert.equal(empty.variants[0].latencyP50Ms, null);
    assert.ok(empty.differences.every((difference) => difference.verdict === "not enough rows to compare (0 rows)"));
    assert.deepEqual(empty.disagreements, []);

    const sampled = summarizeExperiment(spec, dataset, [...cells, predicateCell(99, 0, 0.5), predicateCell(1, 7, 0.5)], {rowIndexes: [0, 2, 5]});
    assert.equal(sampled.rows, 3);
    assert.equal(sampled.variants[0].done, 3);
    close(metric(sampled.variants[0].metrics, "accuracy")?.value, 1 / 3, "A on rows 0, 2, 5");
    assert.deepEqual(sampled.disagreements.map((row) => row.rowIndex), [2, 5]);

    const broken = experiment([decisionVariant("A", {format: "decisions", questions: [{type: "bogus", instructions: "x"}]} as never), decisionVariant("B", urgentSet)]);
    const summary = summarizeExperiment(broken, dataset, cells);
    assert.equal(summary.warnings.length, 1);
    assert.match(summary.warnings[0], /^A: question set/);
    assert.deepEqual(summary.differences, []);
});
