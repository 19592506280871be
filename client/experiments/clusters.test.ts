import {test} from "node:test";
import assert from "node:assert/strict";
import {seededRandom} from "../../base/common/seededRandom.ts";
import {clusteredPaired, clusteredRate, clustersOf, designEffect, meanVariances, waldInterval} from "./clusters.ts";
import {bootstrapIntervals, mcnemarExact, type ResampledStatistic} from "./stats.ts";
import {summarizeExperiment} from "./summary.ts";
import {chatVariant, experiment} from "./testExperiment.ts";
import type {CellResult} from "./types.ts";
import {parseExperimentSpec, serializeExperimentSpec} from "./experimentFile.ts";
import {checkExperimentInput, datasetFromTable} from "./dataset.ts";
import {renderExperimentReport} from "./report.ts";
import {formatSummary} from "./cli/formatSummary.ts";

const close = (actual: number | null | undefined, expected: number, tolerance = 1e-12, message = "") =>
    assert.ok(actual != null && Math.abs(actual - expected) <= tolerance, `${message} expected ${expected}, got ${actual}`);

// Ten rows in four clusters: a a a b b b c c d d.
const clusterColumn = ["a", "a", "a", "b", "b", "b", "c", "c", "d", "d"];
const clusters = clustersOf(clusterColumn.map((value) => [value]), clusterColumn.map((_value, index) => index), 0, "topic");
const all = Int32Array.from(clusterColumn.keys());

test("the clustered (sandwich) variance, the design effect and a rate's interval, against values computed with numpy and scipy", () => {
    const y = Uint8Array.from([1, 1, 1, 0, 0, 0, 1, 0, 1, 1]);
    // numpy: m = y.mean(); Σ_g (Σ_{i∈g} (y_i − m))² / n² = 0.0536, Σ (y_i − m)² / n² = 0.024, ratio 2.2333.
    const variances = meanVariances((position) => y[position], all, clusters);
    close(variances.mean, 0.6);
    close(variances.clustered, 0.053599999999999995);
    close(variances.naive, 0.024000000000000004);
    assert.equal(variances.clusters, 4);
    close(designEffect(y, all, clusters), 2.233333333333333, 1e-12);
    // The Wilson interval on 10 / 2.2333 = 4.4776 rows at the share 0.6 (Wilson's formula in numpy with scipy's z).
    const rate = clusteredRate(y, all, clusters, 0.95);
    close(rate.interval.low, 0.21773424476657632, 1e-12);
    close(rate.interval.high, 0.8899126804475622, 1e-12);
    // A blank cell is a cluster of its own row.
    const blanks = clustersOf([["a"], [""], [null], ["a"]], [0, 1, 2, 3], 0, "topic");
    assert.deepEqual([...blanks.of], [0, 1, 2, 0]);
});

test("the clustered paired test: δ, its clustered standard error, p and the interval, against numpy and scipy", () => {
    const a = Uint8Array.from([1, 1, 0, 0, 1, 0, 1, 1, 0, 1]);
    const b = Uint8Array.from([1, 1, 1, 1, 1, 0, 1, 0, 0, 1]);
    // d = b − a; SE = √(Σ_g (Σ_{i∈g} (d_i − d̄))² / n² · G/(G − 1)) = 0.15684387141358122·√(4/3) = 0.18110770276274832;
    // p = 2·scipy.stats.t.cdf(−0.1/SE, 3) = 0.6193120084334675; interval 0.1 ± t.ppf(0.975, 3)·SE.
    const paired = clusteredPaired(a, b, all, clusters);
    close(paired.delta, 0.1);
    close(paired.standardError, 0.18110770276274832);
    close(paired.pValue, 0.6193120084334675, 1e-12);
    const interval = waldInterval(paired.delta, paired.standardError, 0.95, 3);
    close(interval.low, -0.47636553951572835, 1e-9);
    close(interval.high, 0.6763655395157283, 1e-9);
    // Without degrees of freedom the interval is the normal's: 0.1 ± 1.959964·SE.
    close(waldInterval(0.1, 0.15684387141358122, 0.95).low, -0.20740833916645054);
    // No row differs: no evidence, and no standard error.
    assert.deepEqual(clusteredPaired(a, a, all, clusters), {delta: 0, standardError: 0, pValue: 1, clusters: 4});
});

/** 60 clusters of 5 rows; per cluster a shift s ~ ±0.25 that helps one variant and hurts the other by as much. */
function clusteredNull(random: () => number): {a: Uint8Array, b: Uint8Array} {
    const a = new Uint8Array(300), b = new Uint8Array(300);
    for (let cluster = 0; cluster < 60; cluster++) {
        const shift = (random() - 0.5) * 0.5;
        for (let row = cluster * 5; row < cluster * 5 + 5; row++) {
            a[row] = random() < 0.6 + shift ? 1 : 0;
            b[row] = random() < 0.6 - shift ? 1 : 0;
        }
    }
    return {a, b};
}

test("seeded simulation: with clustered noise and no difference, McNemar's test on rows rejects too often, the clustered test about 5%", () => {
    const random = seededRandom(99);
    const grouped = clustersOf(Array.from({length: 300}, (_row, index) => [Math.floor(index / 5)]), Array.from({length: 300}, (_row, index) => index), 0, "cluster");
    const positions = Int32Array.from({length: 300}, (_row, index) => index);
    const runs = 2000;
    let naive = 0, robust = 0;
    for (let run = 0; run < runs; run++) {
        const {a, b} = clusteredNull(random);
        let onlyA = 0, onlyB = 0;
        for (let row = 0; row < 300; row++) {
            if (a[row] > b[row]) onlyA++;
            else if (b[row] > a[row]) onlyB++;
        }
        if (mcnemarExact(onlyA, onlyB) < 0.05) naive++;
        if (clusteredPaired(a, b, positions, grouped).pValue < 0.05) robust++;
    }
    console.log(`clustered null, ${runs} runs of 60 clusters of 5 rows: McNemar on rows rejected ${naive / runs}, the clustered test ${robust / runs}`);
    // 60 clusters: the clustered test is close to its level (the simulation's own error is about 0.5%).
    assert.ok(robust / runs <= 0.07 && robust / runs >= 0.03, `clustered test rejected ${robust / runs}`);
    assert.ok(naive / runs >= 0.09, `McNemar's test on rows rejected ${naive / runs}`);
});

test("clustered data gives a wider bootstrap interval than the same rows taken as independent", () => {
    const random = seededRandom(5);
    // 40 clusters of 10 rows, each cluster's rows passing alike (a cluster's pass chance is 0.1 or 0.9).
    const values = Array.from({length: 40}, () => random() < 0.5 ? 0.1 : 0.9).flatMap((chance) => Array.from({length: 10}, () => random() < chance ? 1 : 0));
    const mean: ResampledStatistic = {width: 1, evaluate: (counts) => {
        let total = 0, sum = 0;
        counts.forEach((count, row) => {
            total += count;
            sum += count * values[row];
        });
        return [sum / total];
    }};
    const grouped = clustersOf(values.map((_value, index) => [Math.floor(index / 10)]), values.map((_value, index) => index), 0, "cluster");
    const [[rows]] = bootstrapIntervals(400, [mean], {seed: 1, resamples: 1000});
    const [[byCluster]] = bootstrapIntervals(400, [mean], {seed: 1, resamples: 1000, clusters: grouped});
    const ratio = (byCluster!.high - byCluster!.low) / (rows!.high - rows!.low);
    // The design effect here is about 1 + 9·0.64 ≈ 6.8, so the interval is about 2.6 times as wide.
    assert.ok(ratio > 2, `clustered interval only ${ratio} times as wide`);
    close(Math.sqrt(designEffect(Uint8Array.from(values), Int32Array.from(values.keys()), grouped)!), ratio, 0.6, "√(design effect) against the widths' ratio");
});

test("a summary with a cluster column: pass/fail differences tested on clusters, rates with their design effect, warnings", () => {
    // 30 topics of 4 questions; variant B is better on even topics and worse on odd ones, every row of a topic alike.
    const rows = Array.from({length: 120}, (_row, index) => [`question ${index}`, `topic ${Math.floor(index / 4)}`]);
    const cells: CellResult[] = rows.flatMap((_row, rowIndex) => [0, 1].map((variant): CellResult => {
        const topic = Math.floor(rowIndex / 4);
        const pass = variant === 0 ? topic % 3 !== 0 : topic % 2 === 0;
        return {rowIndex, variant, ok: true, request: {}, reply: "r", checks: [{name: "ok", pass, score: pass ? 1 : 0}], latencyMs: 1, attempts: 1, completedAt: 0};
    }));
    const spec = {...experiment([chatVariant("A", "m"), chatVariant("B", "m")]), cluster: "topic"};
    const dataset = {columns: ["question", "topic"], rows};
    const clustered = summarizeExperiment(spec, dataset, cells);
    const plain = summarizeExperiment({...spec, cluster: undefined}, dataset, cells);
    assert.deepEqual(clustered.clustering, {column: "topic", clusters: 30});
    assert.equal(plain.clustering, undefined);
    const passRate = (summary: typeof clustered) => summary.differences.find((difference) => difference.metric === "pass_rate")!;
    assert.equal(passRate(clustered).method, "cluster");
    assert.equal(passRate(plain).method, "exact");
    const width = (difference: ReturnType<typeof passRate>) => difference.high! - difference.low!;
    assert.ok(width(passRate(clustered)) > width(passRate(plain)), `${width(passRate(clustered))} against ${width(passRate(plain))}`);
    // Every row of a topic passes alike: the design effect of a rate is about the topic's size, 4.
    const rateA = clustered.variants[0].metrics.find((value) => value.metric === "pass_rate")!;
    assert.ok(rateA.designEffect! > 3 && rateA.designEffect! < 4.5, `${rateA.designEffect}`);
    assert.ok(rateA.interval!.high - rateA.interval!.low > plain.variants[0].metrics.find((value) => value.metric === "pass_rate")!.interval!.high - plain.variants[0].metrics.find((value) => value.metric === "pass_rate")!.interval!.low);
    assert.ok(clustered.warnings.some((warning) => /^A: rows of the same topic are alike \(design effect \d\.\d on pass_rate\)/.test(warning)), clustered.warnings.join("\n"));
    assert.match(passRate(clustered).verdict, /no clear difference|is better by/);

    // The report and the CLI say how the rows were clustered; the file keeps the column, and a column the dataset
    // lacks is refused before anything is sent.
    assert.match(renderExperimentReport(spec, clustered), /Rows are clustered by topic \(30 clusters\): intervals resample clusters/);
    assert.match(formatSummary(spec, clustered), /^Rows are clustered by topic \(30 clusters\).*Design effect of the primary rate: A \d\.\d\d, B \d\.\d\d\.$/m);
    assert.equal(parseExperimentSpec(serializeExperimentSpec(spec)).cluster, "topic");
    const table = datasetFromTable({name: "q", columns: ["question", "topic"], rows, labelColumns: []});
    assert.deepEqual(checkExperimentInput({...spec, cluster: "user"}, table, [0, 1]).errors, [{path: "cluster", message: 'no column named "user" to cluster rows by (columns: question, topic)'}]);
    assert.deepEqual(checkExperimentInput(spec, table, [0, 1]).errors, []);
});
