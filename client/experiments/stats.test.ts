import {test} from "node:test";
import assert from "node:assert/strict";
import {bootstrapIntervals, mcnemarExact, medianAndP95, percentile, type ResampledStatistic} from "./stats.ts";
import {seededRandom} from "../../base/common/seededRandom.ts";

/** Two-sided exact binomial p-value computed with whole numbers, independently of mcnemarExact's log space. */
function exactBinomialP(onlyA: number, onlyB: number): number {
    const m = BigInt(onlyA + onlyB);
    let choose = 1n, tail = 0n;
    for (let k = 0n; k <= BigInt(Math.min(onlyA, onlyB)); k++) {
        if (k > 0n) choose = choose * (m - k + 1n) / k;
        tail += choose;
    }
    return Math.min(1, 2 * Number(tail * 1_000_000_000_000n / 2n ** m) / 1e12);
}

const close = (actual: number, expected: number, tolerance = 1e-12) => assert.ok(Math.abs(actual - expected) < tolerance, `expected ${expected}, got ${actual}`);

test("McNemar's exact test on fixed tables", () => {
    // 1 row only A got right, 9 only B: 2 * (C(10,0) + C(10,1)) / 2^10 = 22 / 1024.
    close(mcnemarExact(1, 9), 22 / 1024);
    // 2 and 8: 2 * (1 + 10 + 45) / 1024 = 0.109375; symmetric in its arguments.
    close(mcnemarExact(2, 8), 0.109375);
    close(mcnemarExact(8, 2), 0.109375);
    // No discordant rows, or an even split: no evidence at all.
    assert.equal(mcnemarExact(0, 0), 1);
    assert.equal(mcnemarExact(5, 5), 1);
    // 40 against 60 of 100: R's binom.test(40, 100) gives p = 0.05689.
    close(mcnemarExact(40, 60), 0.05689, 5e-6);
    // Thousands of discordant rows neither overflow nor underflow.
    for (const [a, b] of [[40, 60], [480, 520], [1200, 1300]]) close(mcnemarExact(a, b), exactBinomialP(a, b), 1e-9);
});

test("percentiles interpolate between neighbours; latencies give p50 and p95", () => {
    assert.equal(percentile([1, 2, 3, 4], 0.5), 2.5);
    assert.equal(percentile([10], 0.95), 10);
    assert.equal(percentile([], 0.5), null);
    const {p50, p95} = medianAndP95([500, 100, 300, 200, 400]);
    assert.equal(p50, 300);
    assert.equal(p95, 480);
});

/** B's mean less A's over the resampled rows: the paired difference of two per-row outcomes. */
function meanDifference(a: readonly number[], b: readonly number[]): ResampledStatistic {
    return {width: 1, evaluate: (counts) => {
        let total = 0, sum = 0;
        counts.forEach((count, row) => {
            total += count;
            sum += count * (b[row] - a[row]);
        });
        return [sum / total];
    }};
}

test("the bootstrap is reproducible: the same seed gives the same interval, another seed a slightly different one", () => {
    const random = seededRandom(3);
    const a = Array.from({length: 200}, () => random() < 0.6 ? 1 : 0), b = Array.from({length: 200}, () => random() < 0.7 ? 1 : 0);
    const first = bootstrapIntervals(200, [meanDifference(a, b)], {seed: 11, resamples: 500});
    assert.deepEqual(bootstrapIntervals(200, [meanDifference(a, b)], {seed: 11, resamples: 500}), first);
    assert.notDeepEqual(bootstrapIntervals(200, [meanDifference(a, b)], {seed: 12, resamples: 500}), first);
});

test("a clear difference has an interval that excludes 0; identical variants one that holds 0", () => {
    const a = Array.from({length: 100}, (_unused, row) => row < 30 ? 1 : 0), b = Array.from({length: 100}, (_unused, row) => row < 90 ? 1 : 0);
    const [[clear]] = bootstrapIntervals(100, [meanDifference(a, b)], {seed: 1});
    assert.ok(clear !== null && clear.low > 0.4 && clear.high < 0.8, JSON.stringify(clear));
    const [[same]] = bootstrapIntervals(100, [meanDifference(a, a)], {seed: 1});
    assert.deepEqual(same, {low: 0, high: 0});
});

test("the percentile interval of a mean is close to the normal one on many rows", () => {
    // Differences of -1, 0, 1 with mean 0.1 and standard deviation s: the interval is about 0.1 ± 1.96 s / sqrt(n).
    const n = 1000, random = seededRandom(5);
    const a = Array.from({length: n}, () => random() < 0.5 ? 1 : 0), b = a.map((value) => random() < 0.2 ? 1 - value : value).map((value, row) => row % 10 === 0 ? 1 : value);
    const differences = b.map((value, row) => value - a[row]);
    const mean = differences.reduce((x, y) => x + y, 0) / n;
    const sd = Math.sqrt(differences.reduce((sum, value) => sum + (value - mean) ** 2, 0) / n);
    const [[interval]] = bootstrapIntervals(n, [meanDifference(a, b)], {seed: 9, resamples: 2000});
    assert.ok(interval !== null);
    assert.ok(Math.abs(interval.low - (mean - 1.96 * sd / Math.sqrt(n))) < 0.006, `low ${interval.low}`);
    assert.ok(Math.abs(interval.high - (mean + 1.96 * sd / Math.sqrt(n))) < 0.006, `high ${interval.high}`);
});

test("a statistic undefined on most resamples has no interval", () => {
    const [[interval]] = bootstrapIntervals(10, [{width: 1, evaluate: () => [Number.NaN]}], {seed: 1, resamples: 50});
    assert.equal(interval, null);
});
