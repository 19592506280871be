import {test} from "node:test";
import assert from "node:assert/strict";
import {summarizeExperiment} from "./summary.ts";
import {chatVariant, decisionVariant, experiment, predicateCell} from "./testExperiment.ts";
import {percentile} from "./stats.ts";
import type {CellResult, MetricKey} from "./types.ts";
import {parseQuestionSet, questionInfos, readAnswers, type NormalizedAnswer, type QuestionSet} from "../scoring/questions.ts";
import {readLabel, reportOf, type Report} from "../scoring/evaluation.ts";
import {seededRandom} from "../../base/common/seededRandom.ts";
import {laneCounts, laneLayout, laneUnits} from "./resampleLanes.ts";
import {RowPatterns} from "./rowPatterns.ts";
import {SharedWeighing} from "./sharedWeighing.ts";

// The summary's bootstrap (rows grouped into patterns, resamples weighed three at a time in packed lanes) against the
// plainest one: each resample's rows written out, drawn with the same seeded generator in the same order, and every
// metric computed by client/scoring's reportOf on them. The intervals agree to rounding, since the draws are the same.

const levels = ["bad", "ok", "good", "great"];
const topics = ["billing", "bug", "other"];
const set: QuestionSet = {format: "decisions", questions: [
    {type: "predicate", name: "urgent", instructions: "Urgent?"},
    {type: "choice", name: "topic", instructions: "Topic?", choices: topics.map((value) => ({value}))},
    {type: "score", name: "tone", instructions: "Tone?", levels: levels.map((label) => ({label}))}
]};
const round = (p: number) => Math.round(p * 100) / 100;

/** Probabilities of `size` options; rounded to hundredths as the API sends them, or left as they are. */
function distribution(random: () => number, size: number, rounded: boolean): number[] {
    const raw = Array.from({length: size}, () => random() ** 2 + 0.01);
    const total = raw.reduce((a, b) => a + b, 0);
    if (!rounded) return raw.map((value) => value / total);
    const shares = raw.map((value) => round(value / total));
    shares[0] = round(1 - shares.slice(1).reduce((a, b) => a + b, 0));
    return shares;
}

/**
 * `rows` rows of three variants; the tone (score) question's probabilities unrounded, so that nearly every row has a
 * Brier term of its own (the patterns then group those terms apart from the rest). With `gaps`, every 11th row has no
 * topic label and variant B failed on every 7th row, so comparisons run on the rows both variants have.
 */
function experimentOf(rows: number, gaps: boolean) {
    const random = seededRandom(31);
    const dataset = {columns: ["urgent", "topic", "tone", "passage"], labelColumns: ["urgent", "topic", "tone"],
        rows: Array.from({length: rows}, (_unused, row) => [random() < 0.4 ? "yes" : "no", gaps && row % 11 === 0 ? "" : topics[Math.floor(random() * 3)], levels[Math.floor(random() * 4)], `passage ${Math.floor(row / 8)}`])};
    const cells: CellResult[] = [0, 1, 2].flatMap((variant) => dataset.rows.map((_row, rowIndex) => {
        const topic = distribution(random, 3, true), tone = distribution(random, 4, false);
        if (gaps && variant === 1 && rowIndex % 7 === 0) return {...predicateCell(rowIndex, variant, 0), ok: false, response: undefined, error: {status: 500, code: "server_error", message: "boom"}};
        return predicateCell(rowIndex, variant, 0, {response: {answers: [
            {type: "predicate", name: "urgent", probability: round(random())},
            {type: "choice", name: "topic", choice: topics[topic.indexOf(Math.max(...topic))], confidence: Math.max(...topic), probabilities: topic.map((probability, at) => ({value: topics[at], probability}))},
            {type: "score", name: "tone", score: tone.reduce((sum, p, level) => sum + p * level, 0), confidence: Math.max(...tone), probabilities: tone.map((probability, value) => ({value, label: levels[value], probability}))}
        ]}});
    }));
    return {dataset, cells};
}

const metricOf: Partial<Record<MetricKey, (report: Report) => number | null>> = {
    macro_f1: (report) => report.macroF1, brier: (report) => report.brier, log_loss: (report) => report.logLoss, ece: (report) => report.ece,
    auc: (report) => report.kind === "binary" ? report.auc : null, mae: (report) => report.kind === "multiclass" ? report.meanAbsoluteError ?? null : null
};

/** Each resample's rows written out: n row draws (or, with clusters, as many cluster draws with all their rows). */
function resampledRows(rows: number, resamples: number, seed: number, clusterSize: number): number[][] {
    const random = seededRandom(seed);
    const clusters = clusterSize === 0 ? 0 : Math.ceil(rows / clusterSize);
    return Array.from({length: resamples}, () => {
        if (clusters === 0) return Array.from({length: rows}, () => Math.floor(random() * rows));
        return Array.from({length: clusters}, () => Math.floor(random() * clusters)).flatMap((cluster) =>
            Array.from({length: Math.min(clusterSize, rows - cluster * clusterSize)}, (_unused, member) => cluster * clusterSize + member));
    });
}

function compareWithPlainBootstrap(rows: number, resamples: number, clusterSize: number, gaps = false): void {
    const {dataset, cells} = experimentOf(rows, gaps);
    const variants = ["A", "B", "C"].map((name, index) => decisionVariant(name, set, index + 1));
    const spec = {...experiment(variants, 13), ...(clusterSize > 0 ? {cluster: "passage"} : {})};
    const summary = summarizeExperiment(spec, dataset, cells, {resamples});
    assert.equal(summary.resamples, resamples);
    const infos = questionInfos(parseQuestionSet(set).normalized);
    const answers = [0, 1, 2].map((variant) => cells.filter((cell) => cell.variant === variant).map((cell) => cell.ok ? readAnswers("decisions", infos, cell.response as never) : null));
    const draws = resampledRows(rows, resamples, spec.seed, clusterSize);
    let compared = 0;
    infos.forEach((info, question) => {
        const labels = dataset.rows.map((row) => readLabel(info, row[question]));
        // A comparison reads the drawn rows that both its variants answered and that have a label.
        const reports = (variant: number, other: number) => draws.map((drawn) => reportOf(info, drawn
            .filter((row) => typeof labels[row] === "number" && answers[variant][row] !== null && answers[other][row] !== null)
            .map((row): {answer: NormalizedAnswer, label: number} => ({answer: answers[variant][row]![question], label: labels[row] as number}))));
        [1, 2].forEach((b, index) => {
            const reportsA = reports(0, b), reportsB = reports(b, 0);
            for (const [metric, read] of Object.entries(metricOf) as Array<[MetricKey, (report: Report) => number | null]>) {
                const difference = summary.differences.find((entry) => entry.question === info.name && entry.metric === metric && entry.a === 0 && entry.b === index + 1);
                if (difference === undefined) continue;
                assert.equal(difference.method, "bootstrap");
                const values = reportsB.map((report, resample) => read(report)! - read(reportsA[resample])!).filter(Number.isFinite).sort((x, y) => x - y);
                const low = percentile(values, 0.025)!, high = percentile(values, 0.975)!;
                assert.ok(Math.abs(difference.low! - low) < 1e-9 && Math.abs(difference.high! - high) < 1e-9,
                    `${info.name} ${metric}, B${index + 1} − A: summary ${difference.low}..${difference.high}, plain ${low}..${high}`);
                compared++;
            }
        });
    });
    // Per comparison: yes/no 5 bootstrapped metrics (macro F1, Brier, log loss, ECE, AUC), choice 4, score 5 (and MAE).
    assert.equal(compared, 2 * (5 + 4 + 5));
}

test("the summary's bootstrap intervals equal those of resamples written out row by row and scored by reportOf", () => {
    // 400 rows: more than the 256 patterns past which a question's Brier, log-loss and |error| terms are grouped apart;
    // 200 resamples in batches of three lanes, the last batch of two.
    compareWithPlainBootstrap(400, 200, 0);
});

test("with a cluster column, the same intervals as clusters of rows written out and scored by reportOf", () => {
    compareWithPlainBootstrap(403, 100, 8);
});

test("with rows one variant failed and rows without a label, the same intervals over the rows both variants have", () => {
    compareWithPlainBootstrap(400, 100, 0, true);
});

test("packed lanes hold counts up to the largest sum exactly", () => {
    const {bits, lanes} = laneLayout(100_000);
    assert.deepEqual({bits, lanes}, {bits: 17, lanes: 3});
    const units = laneUnits(bits, lanes);
    const values = [[0, 131_071, 5], [131_071, 131_071, 131_071], [1, 0, 100_000]];
    const packed = Float64Array.from(values, (lane) => lane.reduce((sum, value, at) => sum + value * units[at], 0));
    const counts = new Int32Array(values.length);
    for (let lane = 0; lane < lanes; lane++) assert.deepEqual(Array.from(laneCounts({packed, lanes, bits, first: 0}, lane, counts)), values.map((row) => row[lane]));
    assert.deepEqual(laneLayout(10), {bits: 4, lanes: 8});
});

test("rows with equal vectors share a pattern, and a pattern's weight is its rows' counts summed", () => {
    const patterns = new RowPatterns(6, 2);
    [[1, 0.5], [2, 0.5], [1, 0.5], [Number.NaN, 0], [Number.NaN, 0], [-0, 1]].forEach((vector, position) => patterns.add(position, vector));
    assert.equal(patterns.count, 4);
    assert.deepEqual(Array.from(patterns.of), [0, 1, 0, 2, 2, 3]);
    assert.deepEqual(Array.from(patterns.weigh(Int32Array.of(0, 1, 2, 3, 4, 5), Int32Array.of(2, 0, 3, 1, 1, 4))), [5, 0, 2, 4]);
    assert.deepEqual(Array.from(patterns.weigh(Int32Array.of(1, 2, 5), Int32Array.of(9, 1, 3, 9, 9, 2))), [3, 1, 0, 2]);
    assert.deepEqual(Array.from(patterns.weigh(Int32Array.of(0, 2, 4), null)), [2, 0, 1, 0]);
    // Many patterns: the table grows and still finds each one.
    const many = new RowPatterns(5000, 1);
    for (let position = 0; position < 5000; position++) many.add(position, [position % 1500]);
    assert.equal(many.count, 1500);
    assert.equal(many.of[4999], 4999 % 1500);
});

test("sets weighed side by side in one pass give each set's own weights, from the batch after they were first asked for", () => {
    const random = seededRandom(13);
    const rows = 61;
    // Eleven sets (two groups of eight columns), one with more patterns than 16-bit ids hold, over all rows or some.
    const sets = [3, 1, 7, 2, 5, 40, 2, 9, 4, 70_000, 6].map((kinds, index) => {
        const patterns = new RowPatterns(rows, 1);
        const positions = Int32Array.from({length: rows}, (_unused, position) => position).filter((position) => index % 3 === 0 || position % (index + 2) !== 1);
        for (const position of positions) patterns.add(position, [kinds === 70_000 ? position : Math.floor(random() * kinds)]);
        // A set of more patterns than rows: its ids need 32 bits.
        if (kinds === 70_000) for (let extra = 0; extra < kinds; extra++) patterns.add(0, [rows + extra]);
        return {patterns, positions};
    });
    const weighing = new SharedWeighing(rows);
    for (let batch = 0; batch < 3; batch++) {
        weighing.nextBatch();
        const counts = Float64Array.from({length: rows}, () => Math.floor(random() * 4) + Math.floor(random() * 4) * 2 ** 17 + Math.floor(random() * 4) * 2 ** 34);
        for (const {patterns, positions} of sets) {
            const shared = Array.from(weighing.weigh(patterns, positions, counts));
            assert.deepEqual(shared, Array.from(patterns.weigh(positions, counts)), `batch ${batch}`);
            assert.equal(shared.reduce((a, b) => a + b, 0), positions.reduce((sum, position) => sum + counts[position], 0));
        }
    }
    assert.equal(weighing.groupsBuilt, 2, "the sets were weighed side by side");
});

test("a chat table weighs a batch of resamples at once: each lane's group weights equal those of that lane's counts alone", () => {
    const groups = new RowPatterns(7, 1);
    [0.2, 0.9, 0.2, 0.5, 0.9, 0.2, 0.5].forEach((score, position) => groups.add(position, [score]));
    const {bits, lanes} = laneLayout(7);
    const units = laneUnits(bits, lanes);
    const random = seededRandom(5);
    const laneValues = Array.from({length: lanes}, () => Array.from({length: 7}, () => Math.floor(random() * 4)));
    const packed = Float64Array.from({length: 7}, (_unused, position) => laneValues.reduce((sum, values, lane) => sum + values[position] * units[lane], 0));
    const positions = Int32Array.of(0, 1, 2, 4, 5, 6);
    const together = groups.weighLanes(positions, {packed, lanes, bits, first: 0});
    for (let lane = 0; lane < lanes; lane++)
        assert.deepEqual(Array.from(together[lane]), Array.from(groups.weigh(positions, Int32Array.from(laneValues[lane]))), `lane ${lane}`);
    assert.equal(groups.count, 3);
});

test("a chat summary's grader-score interval is the one a resample at a time gives", () => {
    const random = seededRandom(8);
    const rows = 300;
    const dataset = {columns: ["question"], labelColumns: [], rows: Array.from({length: rows}, (_unused, row) => [`q${row}`])};
    const cells: CellResult[] = [0, 1].flatMap((variant) => Array.from({length: rows}, (_unused, rowIndex): CellResult => {
        const score = Math.round(random() * (variant === 0 ? 80 : 100)) / 100;
        return {rowIndex, variant, ok: true, request: {}, reply: "r", checks: [{name: "grounded", pass: score >= 0.5, score}], latencyMs: 1, attempts: 1, completedAt: 0};
    }));
    const spec = {...experiment([chatVariant("A", "m"), chatVariant("B", "m")]), checks: [{kind: "grader" as const, name: "grounded", question: "Grounded?", template: "{{reply}}"}]};
    const difference = summarizeExperiment(spec, dataset, cells, {resamples: 400}).differences.find((entry) => entry.metric === "score:grounded")!;
    // The plain bootstrap: the same draws, each resample's rows written out and their mean scores subtracted.
    const draw = seededRandom(spec.seed);
    const scoreOf = (variant: number) => cells.filter((cell) => cell.variant === variant).map((cell) => cell.checks![0].score);
    const [a, b] = [scoreOf(0), scoreOf(1)];
    const deltas = Array.from({length: 400}, () => {
        let sum = 0;
        for (let draws = 0; draws < rows; draws++) {
            const row = Math.floor(draw() * rows);
            sum += b[row] - a[row];
        }
        return sum / rows;
    }).sort((x, y) => x - y);
    assert.ok(Math.abs(difference.low! - percentile(deltas, 0.025)!) < 1e-9, `${difference.low} vs ${percentile(deltas, 0.025)}`);
    assert.ok(Math.abs(difference.high! - percentile(deltas, 0.975)!) < 1e-9, `${difference.high} vs ${percentile(deltas, 0.975)}`);
});
