import {test} from "node:test";
import assert from "node:assert/strict";
import {summarizeExperiment} from "./summary.ts";
import {renderExperimentReport} from "./report.ts";
import {formatSummary} from "./cli/formatSummary.ts";
import {chatVariant, decisionVariant, experiment, predicateCell, urgentSet} from "./testExperiment.ts";
import {brierDefinition, eceDefinition} from "../scoring/evaluation.ts";
import type {CellResult, Check, Difference, ExperimentSummary, MetricValue} from "./types.ts";
import type {QuestionSet} from "../scoring/questions.ts";

// Verdicts that say no more than the data allow: pass / fail metrics follow McNemar's exact test, one primary metric
// per comparison decides (Holm's correction across comparisons), the rest are secondary, an incomplete run is
// provisional, errors count as failed rows, and the pairs compared are the first variant of each kind with the others.

const close = (actual: number | null | undefined, expected: number, tolerance = 1e-9, message = "") =>
    assert.ok(actual != null && Math.abs(actual - expected) < tolerance, `${message} expected ${expected}, got ${actual}`);

/** `rows` tickets all labelled urgent; every variant answers 0.9 (right) except where `wrong` says it answers 0.2. */
function urgentCells(rows: number, variants: number, wrong: (row: number, variant: number) => boolean): CellResult[] {
    return Array.from({length: rows}, (_unused, row) => Array.from({length: variants}, (_unused2, variant) => predicateCell(row, variant, wrong(row, variant) ? 0.2 : 0.9))).flat();
}

const urgentRows = (rows: number) => ({columns: ["ticket", "urgent"], labelColumns: ["urgent"], rows: Array.from({length: rows}, (_unused, row) => [`t${row}`, "yes"])});
const find = (summary: ExperimentSummary, metric: string, b = 1): Difference => summary.differences.find((difference) => difference.metric === metric && difference.b === b && !difference.calibrated)!;

test("few discordant rows: the verdict agrees with McNemar's exact test (4 and 5 rows all B's are no clear difference, 8 are)", () => {
    const spec = experiment([decisionVariant("A", urgentSet, 1), decisionVariant("B", urgentSet, 2)]);
    // A is wrong on the first k rows, B on none: k discordant rows, all B's, of 150.
    const verdicts = [4, 5, 8].map((k) => find(summarizeExperiment(spec, urgentRows(150), urgentCells(150, 2, (row, variant) => variant === 0 && row < k)), "accuracy"));
    const [four, five, eight] = verdicts;
    // 4 of 4: p = 0.125 (scipy binomtest(4, 4).pvalue); Clopper–Pearson θL = 0.3976353643835142 and the discordant
    // share 4 of 150 up to dU = 0.06686787667748964 (scipy binomtest(k, n).proportion_ci(method="exact")):
    // dU(2θL − 1) = -0.01369 to dU = 0.06687.
    assert.deepEqual(four.mcnemar, {onlyA: 0, onlyB: 4, pValue: 0.125});
    assert.equal(four.better, null);
    assert.equal(four.method, "exact");
    assert.equal(four.primary, true);
    close(four.low, 0.06686787667748964 * (2 * 0.3976353643835142 - 1));
    close(four.high, 0.06686787667748964);
    // Connor's power at 4 discordant rows of 150 is below 80% even were all of them one variant's: the verdict says so.
    assert.equal(four.verdict, "no clear difference: 0.03 (-0.01 to 0.07) on 150 rows; with only one variant right on 4 of 150 rows, no difference had an 80% chance to be detected");
    assert.equal(four.detectable, null);
    // 5 of 5: p = 0.0625, θL = 0.47817624989501856, dU = 0.07607232253734696: -0.00332 to 0.07607.
    close(five.mcnemar?.pValue, 0.0625);
    assert.equal(five.better, null);
    close(five.low, 0.07607232253734696 * (2 * 0.47817624989501856 - 1));
    assert.equal(five.verdict, "no clear difference: 0.033 (-0.003 to 0.076) on 150 rows; with only one variant right on 5 of 150 rows, no difference had an 80% chance to be detected");
    // 8 of 8: p = 0.0078125, θL = 0.6305833524471808, d from 0.02330381019647001 to 0.10238189602332372:
    // 0.00609 to 0.10238, B is better.
    close(eight.mcnemar?.pValue, 0.0078125);
    assert.equal(eight.better, 1);
    close(eight.low, 0.02330381019647001 * (2 * 0.6305833524471808 - 1));
    assert.equal(eight.verdict, "B is better by 0.053 (0.006–0.102)");
    for (const difference of verdicts) assert.equal(difference.low! > 0, difference.mcnemar!.pValue < 0.05, difference.verdict);
});

test("no clear difference says what the run could have detected: Connor's formula at the discordance it observed", () => {
    const spec = experiment([decisionVariant("A", urgentSet, 1), decisionVariant("B", urgentSet, 2)]);
    // A wrong on rows 0–19, B on rows 20–34: 20 and 15 discordant rows of 150 (p = 0.5). At ψ = 35/150, α = 0.05,
    // the δ with Connor's power 80% is 0.10962981991114554 (scipy: brentq on norm.cdf((√n·δ − z(0.975)·√ψ)/√(ψ − δ²)) − 0.8).
    const accuracy = find(summarizeExperiment(spec, urgentRows(150), urgentCells(150, 2, (row, variant) => variant === 0 ? row < 20 : row >= 20 && row < 35)), "accuracy");
    assert.equal(accuracy.better, null);
    close(accuracy.detectable ?? null, 0.10962981991114554, 1e-9);
    assert.match(accuracy.verdict, /^no clear difference: 0\.03 \(-0\.07 to 0\.15\) on 150 rows; it had an 80% chance to detect a difference of 0\.110$/);
    // A secondary bootstrap metric (the Brier score) says it from its interval: 2.8016 standard errors, the interval
    // spanning 2 × 1.96 of them.
    const brier = find(summarizeExperiment(spec, urgentRows(150), urgentCells(150, 2, (row, variant) => variant === 0 ? row < 20 : row >= 20 && row < 35)), "brier");
    assert.equal(brier.better, null);
    close(brier.detectable ?? null, (brier.high! - brier.low!) / (2 * 1.959963984540054) * 2.8015852181129683, 1e-9);
});

test("one primary metric per comparison, the first question's uncalibrated accuracy; every other metric is secondary", () => {
    const twoQuestions: QuestionSet = {format: "decisions", questions: [
        {type: "predicate", name: "urgent", instructions: "Urgent?"}, {type: "predicate", name: "angry", instructions: "Angry?"}
    ]};
    const dataset = {columns: ["urgent", "angry"], labelColumns: ["urgent", "angry"], rows: Array.from({length: 60}, (_unused, row) => ["yes", row % 2 === 0 ? "yes" : "no"])};
    // B is right on every row of both questions; A wrong on the first 30 rows of both (p of 30 of 30 well below 0.05).
    const cells = Array.from({length: 60}, (_unused, row) => [0, 1].map((variant) => {
        const wrong = variant === 0 && row < 30;
        const angry = row % 2 === 0 ? (wrong ? 0.1 : 0.9) : (wrong ? 0.9 : 0.1);
        return predicateCell(row, variant, 0, {response: {answers: [
            {type: "predicate", name: "urgent", probability: wrong ? 0.2 : 0.9}, {type: "predicate", name: "angry", probability: angry}
        ]}});
    })).flat();
    const summary = summarizeExperiment(experiment([decisionVariant("A", twoQuestions, 1), decisionVariant("B", twoQuestions, 2)]), dataset, cells);
    const primaries = summary.differences.filter((difference) => difference.primary);
    assert.equal(primaries.length, 1);
    assert.deepEqual([primaries[0].metric, primaries[0].question, primaries[0].calibrated], ["accuracy", "urgent", false]);
    assert.match(primaries[0].verdict, /^B is better by 0\.50 \(/);
    const angry = summary.differences.find((difference) => difference.metric === "accuracy" && difference.question === "angry")!;
    assert.equal(angry.primary, false);
    assert.equal(angry.method, "exact");
    assert.match(angry.verdict, /^secondary: B higher by 0\.50 \(/);
    const brier = summary.differences.find((difference) => difference.metric === "brier" && difference.question === "urgent")!;
    assert.equal(brier.method, "bootstrap");
    assert.match(brier.verdict, /^secondary: B lower by /);
    // AUC is undefined with every row labelled yes: no verdict at all.
    for (const difference of summary.differences.filter((entry) => !entry.primary && entry.delta !== null)) {
        assert.match(difference.verdict, /^secondary: /, `${difference.question} ${difference.metric}`);
        assert.doesNotMatch(difference.verdict, /is better/);
    }
});

test("Holm's correction over the comparisons' primary tests: a raw p of 0.031 is no longer a verdict among 3 comparisons", () => {
    const spec = experiment(["A", "B", "C", "D"].map((name, index) => decisionVariant(name, urgentSet, index + 1)));
    // Of 150 rows: B alone right on rows 0-7 (8/0, p = 0.0078125), C alone right on rows 0-5 (6/0, p = 0.03125), D alone
    // right on rows 0-6 and alone wrong on row 149 (7/1 against A, p = 0.0703125); p-values from scipy binomtest.
    const wrong = (row: number, variant: number) => variant === 0 ? row < 8 : variant === 2 ? row === 6 || row === 7 : variant === 3 ? row === 7 || row === 149 : false;
    const summary = summarizeExperiment(spec, urgentRows(150), urgentCells(150, 4, wrong));
    assert.deepEqual(summary.comparisons, [{a: 0, b: 1}, {a: 0, b: 2}, {a: 0, b: 3}]);
    const [b, c, d] = [1, 2, 3].map((index) => find(summary, "accuracy", index));
    assert.deepEqual([b.mcnemar, c.mcnemar, d.mcnemar].map((test) => test && [test.onlyA, test.onlyB]), [[0, 8], [0, 6], [1, 7]]);
    // Holm by hand: 3 × 0.0078125 = 0.0234375 (rejected at 0.05/3), then 2 × 0.03125 = 0.0625 > 0.05: stop.
    assert.deepEqual([b, c, d].map((difference) => difference.holm?.comparisons), [3, 3, 3]);
    close(b.holm?.pValue, 0.0234375, 1e-12);
    close(c.holm?.pValue, 0.0625, 1e-12);
    close(d.holm?.pValue, 0.0703125, 1e-12);
    assert.equal(b.better, 1);
    assert.equal(c.better, null);
    assert.equal(d.better, null);
    // The intervals are at the level of the step: B's at 1 − 0.05/3, θL = 0.5496703919037993 and the discordant share
    // from 0.01901672969585117; C's and D's at the step where Holm stopped, 97.5%: C's θL = 0.4817462419994981, below ½,
    // with the share up to 0.09216997505100354 (scipy binomtest(k, n).proportion_ci(confidence_level=..., method="exact")).
    close(b.level, 1 - 0.05 / 3);
    close(b.low, 0.01901672969585117 * (2 * 0.5496703919037993 - 1));
    close(c.level, 0.975);
    close(c.low, 0.09216997505100354 * (2 * 0.4817462419994981 - 1));
    assert.ok(c.low! < 0 && d.low! < 0);
    assert.equal(b.verdict, "B is better by 0.053 (0.002–0.114); after Holm's correction over 3 comparisons, p = 0.023, 98.3% interval");
    assert.equal(c.verdict, "no clear difference: 0.040 (-0.003 to 0.092) on 150 rows; after Holm's correction over 3 comparisons, p = 0.063, 97.5% interval; with only one variant right on 6 of 150 rows, no difference had an 80% chance to be detected");
    // Secondary metrics are not corrected and carry no Holm p-value.
    assert.ok(summary.differences.filter((difference) => !difference.primary).every((difference) => difference.holm === undefined && difference.level === 0.95));
});

test("an incomplete run's verdicts are provisional and say on how many rows", () => {
    const spec = experiment([decisionVariant("A", urgentSet, 1), decisionVariant("B", urgentSet, 2)]);
    const cells = urgentCells(200, 2, (row, variant) => variant === 0 && row < 30).filter((cell) => cell.variant === 0 || cell.rowIndex < 49);
    const summary = summarizeExperiment(spec, urgentRows(200), cells);
    assert.equal(summary.variants[1].done, 49);
    for (const difference of summary.differences.filter((entry) => entry.delta !== null)) {
        assert.equal(difference.provisional, true);
        assert.match(difference.verdict, /^provisional, on 49 of 200 rows: /);
    }
    assert.match(find(summary, "accuracy").verdict, /^provisional, on 49 of 200 rows: B is better by /);
    const complete = summarizeExperiment(spec, urgentRows(200), urgentCells(200, 2, (row, variant) => variant === 0 && row < 30));
    assert.ok(complete.differences.every((difference) => !difference.provisional && !difference.verdict.includes("provisional")));
});

const grader: Check = {kind: "grader", name: "grounded", question: "Grounded?", template: "{{reply}}"};
const checksOf = (pass: boolean, grade: number) => [{name: "has_answer", pass, score: pass ? 1 : 0}, {name: "grounded", pass: grade >= 0.5, score: grade}];

function chatCell(rowIndex: number, variant: number, extra: Partial<CellResult>): CellResult {
    return {rowIndex, variant, ok: true, request: {}, reply: `reply ${rowIndex}`, latencyMs: 100, attempts: 1, completedAt: 0, ...extra};
}

test("chat: an errored row fails every pass rate and is left out of a grader's score; pass:<name> and score:<name> differ", () => {
    const spec = {...experiment([chatVariant("A", "small"), chatVariant("B", "large")]), checks: [{kind: "regex", pattern: "."} as Check, grader]};
    const rows = Array.from({length: 20}, (_unused, index) => [`q${index}`]);
    // A: every row has an answer; grounded grades 0.45 (fails at 0.5) on 17 rows, 0.9 on rows 0-2: mean 0.5175, 3 of
    // 20 pass. B: rows 0-4 answered 400; the others pass has_answer, grounded 0.9 on all 15.
    const cells = rows.flatMap((_row, row) => [
        chatCell(row, 0, {checks: checksOf(true, row < 3 ? 0.9 : 0.45)}),
        row < 5 ? chatCell(row, 1, {ok: false, error: {status: 400, code: "invalid_request_error", message: "bad"}}) : chatCell(row, 1, {checks: checksOf(true, 0.9)})
    ]);
    const summary = summarizeExperiment(spec, {columns: ["question"], rows}, cells);
    const value = (variant: number, metric: string): MetricValue => summary.variants[variant].metrics.find((entry) => entry.metric === metric)!;
    assert.equal(summary.variants[1].errors, 5);
    assert.equal(summary.variants[1].done, 20);
    // B: 15 of 20 rows pass everything; the 5 errored rows count as failed.
    close(value(1, "pass_rate").value, 15 / 20);
    assert.equal(value(1, "pass_rate").n, 20);
    close(value(1, "pass:has_answer").value, 15 / 20);
    assert.equal(value(1, "pass:has_answer").n, 20);
    // The grader's mean score is over the 15 graded replies.
    close(value(1, "score:grounded").value, 0.9);
    assert.equal(value(1, "score:grounded").n, 15);
    // A: 3 of 20 replies pass grounded, while its mean P(yes) is (3 × 0.9 + 17 × 0.45)/20 = 0.5175.
    close(value(0, "pass:grounded").value, 3 / 20);
    close(value(0, "score:grounded").value, 0.5175);
    assert.equal(summary.variants[0].metrics.some((entry) => entry.metric === "score:has_answer"), false, "only graders have a score");
    assert.equal(summary.variants[0].metrics.some((entry) => entry.metric.startsWith("check:")), false);
    // McNemar on the pass rate: A passes rows 0-2, B rows 5-19: only A 3 (rows 0-2), only B 15.
    const passRate = find(summary, "pass_rate");
    assert.deepEqual(passRate.mcnemar && [passRate.mcnemar.onlyA, passRate.mcnemar.onlyB], [3, 15]);
    assert.equal(passRate.n, 20);
    assert.equal(passRate.primary, true);
    // has_answer: A passes all 20, B 15: only A 5, only B 0 (p = 0.0625), an exact secondary comparison.
    const hasAnswer = find(summary, "pass:has_answer");
    assert.equal(hasAnswer.method, "exact");
    assert.deepEqual(hasAnswer.mcnemar, {onlyA: 5, onlyB: 0, pValue: 0.0625});
    assert.equal(find(summary, "score:grounded").method, "bootstrap");
    assert.equal(find(summary, "score:grounded").n, 15);
});

test("with question sets A, B and chat prompts C, D: B is compared with A and D with C; \"all\" compares every pair that shares a metric", () => {
    const rows = Array.from({length: 30}, (_unused, row) => [`t${row}`, "yes"]);
    const dataset = {columns: ["ticket", "urgent"], labelColumns: ["urgent"], rows};
    const spec = experiment([decisionVariant("A", urgentSet, 1), decisionVariant("B", urgentSet, 2), chatVariant("C", "small"), chatVariant("D", "large")]);
    const cells = rows.flatMap((_row, row) => [
        predicateCell(row, 0, 0.9), predicateCell(row, 1, row < 20 ? 0.9 : 0.2),
        chatCell(row, 2, {checks: [{name: "has_answer", pass: row < 10, score: row < 10 ? 1 : 0}]}),
        chatCell(row, 3, {checks: [{name: "has_answer", pass: true, score: 1}]})
    ]);
    const summary = summarizeExperiment(spec, dataset, cells);
    assert.deepEqual(summary.comparisons, [{a: 0, b: 1}, {a: 2, b: 3}]);
    assert.deepEqual([...new Set(summary.differences.map((difference) => `${difference.a}-${difference.b}`))], ["0-1", "2-3"]);
    assert.match(summary.comparedText, /B with A \(question sets\); D with C \(chat prompts\)/);
    assert.match(summary.comparedText, /not compared with each other/);
    // Two primary tests, so Holm's correction over 2 comparisons: D vs C has 20 of 20 discordant rows for D.
    const passRate = find(summary, "pass_rate", 3);
    assert.equal(passRate.holm?.comparisons, 2);
    assert.equal(passRate.better, 3);

    const three = experiment([decisionVariant("A", urgentSet, 1), decisionVariant("B", urgentSet, 2), decisionVariant("C", urgentSet, 3)]);
    const threeCells = rows.flatMap((_row, row) => [0, 1, 2].map((variant) => predicateCell(row, variant, 0.9)));
    assert.deepEqual(summarizeExperiment(three, dataset, threeCells).comparisons, [{a: 0, b: 1}, {a: 0, b: 2}]);
    const all = summarizeExperiment(three, dataset, threeCells, {pairs: "all"});
    assert.deepEqual(all.comparisons, [{a: 0, b: 1}, {a: 0, b: 2}, {a: 1, b: 2}]);
    assert.match(all.comparedText, /^Every pair of variants that share a metric is compared: B with A, C with A, C with B\./);
    assert.equal(summarizeExperiment(experiment([decisionVariant("A", urgentSet)]), dataset, threeCells.filter((cell) => cell.variant === 0)).comparedText, "");
});

test("the report and the CLI show each metric's n, its kind's definitions, what was compared and the verdict rule", () => {
    const spec = experiment([decisionVariant("A", urgentSet, 1), decisionVariant("B", urgentSet, 2)]);
    const dataset = urgentRows(40);
    // B errs on row 39: its metrics are on 39 rows, A's on 40.
    const cells = urgentCells(40, 2, (row, variant) => variant === 0 && row < 10)
        .map((cell) => cell.variant === 1 && cell.rowIndex === 39 ? {...cell, ok: false, response: undefined, error: {status: 400, code: "bad", message: "bad"}} : cell);
    const summary = summarizeExperiment(spec, dataset, cells);
    const html = renderExperimentReport(spec, summary, {dataset});
    const escaped = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
    // A yes/no question's ECE is on P(true), its Brier (P(true) − y)²: the yes/no wording, not the choice one.
    assert.ok(html.includes(escaped(`ECE: ${eceDefinition("yesno")}`)), "yes/no ECE definition");
    assert.ok(!html.includes(escaped(eceDefinition("choice"))), "no top-label ECE definition");
    assert.ok(html.includes(escaped(`Brier: ${brierDefinition("yesno")}`)), "yes/no Brier definition");
    assert.doesNotMatch(html, /lower is better[^<"]*lower is better/i);
    assert.match(html, /<span class="muted">n=39<\/span>/);
    assert.ok(html.includes(escaped(summary.comparedText)));
    assert.match(html, /McNemar&#39;s exact test on the rows only one variant got right/);
    const printed = formatSummary(spec, summary);
    // With 95% Wilson intervals: scipy binomtest(30, 40) and binomtest(39, 39).proportion_ci(method="wilson") give
    // 0.598–0.858 and 0.910–1.
    assert.match(printed, /^urgent · Accuracy\s+0\.750 \(0\.598–0\.858\)\s+1\.000 \(0\.910–1\.000\) \(n=39\)$/m);
    assert.match(printed, /B vs A, urgent · Accuracy \(primary\): B is better by /);
    assert.ok(printed.includes(summary.comparedText));
});
