import {test} from "node:test";
import assert from "node:assert/strict";
import {binomialCdf, bootstrapIntervals, clopperPearson, holm, mcnemarExact, medianAndP95, pairedExact, percentile, wilsonInterval, type ResampledStatistic} from "./stats.ts";
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

test("Clopper–Pearson bounds equal scipy's exact interval", () => {
    // scipy 1.17: binomtest(k, n).proportion_ci(method="exact", confidence_level=level) -> (low, high).
    const scipy: Array<[number, number, number, number, number]> = [
        [4, 4, 0.95, 0.3976353643835142, 1],
        [5, 5, 0.95, 0.47817624989501856, 1],
        [0, 4, 0.95, 0, 0.6023646356164858],
        [3, 10, 0.95, 0.06673951117773447, 0.652452850060008],
        [7, 20, 0.95, 0.1539092047845412, 0.5921885345328283],
        [50, 50, 0.95, 0.9288782635357954, 1],
        [40, 100, 0.95, 0.30329476870284483, 0.5027908495776665],
        [1, 1, 0.95, 0.025000000000000022, 1],
        [12, 13, 0.95, 0.6397025647321226, 0.9980543715026514],
        [480, 1000, 0.95, 0.4486329426945337, 0.5114851175478534],
        [9, 10, 0.975, 0.5093638940444761, 0.9987429125763632],
        [9, 10, 1 - 0.05 / 3, 0.48476236118084276, 0.9991635250733867]
    ];
    for (const [k, n, level, low, high] of scipy) {
        const interval = clopperPearson(k, n, level);
        close(interval.low, low, 1e-9);
        close(interval.high, high, 1e-9);
    }
    assert.deepEqual(clopperPearson(0, 0), {low: 0, high: 1});
    close(clopperPearson(4800, 10000).low, 0.47016504851394325, 1e-9);
    close(clopperPearson(4800, 10000).high, 0.489846605280135, 1e-9);
    // The binomial distribution function, against scipy.stats.binom.cdf(k, n, θ): below the mode, above it, a far tail.
    close(binomialCdf(2, 10, 0.3), 0.3827827863999998, 1e-12);
    close(binomialCdf(40, 100, 0.3), 0.9875015928335618, 1e-12);
    close(binomialCdf(990, 1000, 0.98), 0.9953192495685856, 1e-12);
    close(binomialCdf(10, 1000, 0.03) / 1.812991346796405e-05, 1, 1e-9);
});

/** Whether McNemar's two-sided exact p-value is below 0.05, in whole numbers: 2·tail/2^m < 1/20 ⇔ 40·tail < 2^m. */
function exactlySignificant(onlyA: number, onlyB: number): boolean {
    const m = BigInt(onlyA + onlyB);
    let choose = 1n, tail = 0n;
    for (let k = 0n; k <= BigInt(Math.min(onlyA, onlyB)); k++) {
        if (k > 0n) choose = choose * (m - k + 1n) / k;
        tail += choose;
    }
    return 40n * tail < 2n ** m;
}

test("the paired exact interval excludes 0 exactly when McNemar's exact test is below 0.05, on every table up to 60 discordant rows each way", () => {
    let significant = 0;
    for (let onlyA = 0; onlyA <= 60; onlyA++)
        for (let onlyB = 0; onlyB <= 60; onlyB++) {
            const n = onlyA + onlyB + 37;
            const paired = pairedExact(onlyA, onlyB, n);
            const excludes = paired.low > 0 || paired.high < 0;
            assert.equal(excludes, exactlySignificant(onlyA, onlyB), `${onlyA} / ${onlyB}: [${paired.low}, ${paired.high}], p ${paired.pValue}`);
            assert.equal(excludes, paired.pValue < 0.05, `${onlyA} / ${onlyB}: p ${paired.pValue}`);
            assert.ok(paired.low <= paired.delta && paired.delta <= paired.high, `${onlyA} / ${onlyB}: the difference lies in its interval`);
            close(paired.delta, (onlyB - onlyA) / n);
            if (excludes) significant++;
        }
    assert.ok(significant > 2000, `${significant} significant tables`);
    // At another level the same holds against that level: 9 of 10 discordant rows for B, p = 0.021484375.
    assert.ok(pairedExact(1, 9, 50, 0.975).low > 0);
    assert.ok(pairedExact(1, 9, 50, 0.98).low < 0);
});

test("the paired exact interval of the few-discordant-rows cases the bootstrap called clear", () => {
    // Clopper–Pearson bounds from scipy 1.17: binomtest(k, n).proportion_ci(method='exact'), for θ (onlyB of m) and
    // for the share of discordant rows d (m of n). Each end is the widest over d's interval: min(dL, dU)·(2θL − 1) and
    // max(dL, dU)·(2θU − 1).
    // 150 rows, 4 discordant, all B's: McNemar p = 0.125 (binomtest(4, 4).pvalue); θ from 0.3976353643835142 to 1,
    // d from 0.007312546398008253 to 0.06686787667748964: (-0.013680, 0.066868), which holds 0.
    const four = pairedExact(0, 4, 150);
    close(four.pValue, 0.125);
    close(four.low, 0.06686787667748964 * (2 * 0.3976353643835142 - 1), 1e-9);
    close(four.high, 0.06686787667748964, 1e-9);
    assert.ok(four.low < 0);
    // 5 of 5: p = 0.0625, θ from 0.47817624989501856, d up to 0.07607232253734696: still holds 0.
    const five = pairedExact(0, 5, 150);
    close(five.pValue, 0.0625);
    close(five.low, 0.07607232253734696 * (2 * 0.47817624989501856 - 1), 1e-9);
    assert.ok(five.low < 0);
    // 8 of 8: p = 0.0078125, θ from 0.6305833524471808, d from 0.02330381019647001: (0.006077, 0.102382), clear.
    const eight = pairedExact(0, 8, 150);
    close(eight.low, 0.02330381019647001 * (2 * 0.6305833524471808 - 1), 1e-9);
    close(eight.high, 0.10238189602332372, 1e-9);
    assert.ok(eight.low > 0);
    // No discordant row on 20: θ is anything, d is at most 0.16843347098308548, so the interval is ±0.168, not a
    // degenerate 0 that would read as a tight "no difference".
    const none = pairedExact(0, 0, 20);
    assert.deepEqual({...none, low: 0, high: 0}, {onlyA: 0, onlyB: 0, pValue: 1, delta: 0, low: 0, high: 0});
    close(none.low, -0.16843347098308548, 1e-9);
    close(none.high, 0.16843347098308548, 1e-9);
});

test("Holm's step-down: adjusted p-values, rejections, and the interval level that agrees with them", () => {
    // Hand-computed: sorted 0.01 (x3 = 0.03 <= 0.05, rejected), 0.03 (x2 = 0.06 > 0.05, stop), 0.04 (not rejected);
    // adjusted as running maxima of (m − k + 1)·p(k): 0.03, 0.06, max(0.06, 0.04) = 0.06.
    const corrected = holm([0.01, 0.04, 0.03]);
    close(corrected[0].adjusted, 0.03);
    close(corrected[1].adjusted, 0.06);
    close(corrected[2].adjusted, 0.06);
    assert.deepEqual(corrected.map((entry) => entry.rejected), [true, false, false]);
    close(corrected[0].level, 1 - 0.05 / 3);
    // The procedure stopped at its second step (alpha/2): the others' intervals are at 97.5%.
    close(corrected[1].level, 0.975);
    close(corrected[2].level, 0.975);
    // One p-value: no correction at all.
    assert.deepEqual(holm([0.03]), [{adjusted: 0.03, rejected: true, level: 0.95}]);
    // Adjusted p-values never pass 1.
    assert.equal(holm([0.6, 0.7])[1].adjusted, 1);
    // Against the exact intervals: three comparisons with 8/0, 6/0 and 7/1 discordant rows, p = 0.0078125, 0.03125,
    // 0.0703125 (scipy binomtest). Holm rejects only the first; each interval at its level agrees.
    const tables: Array<[number, number]> = [[0, 8], [0, 6], [1, 7]];
    const decided = holm(tables.map(([onlyA, onlyB]) => mcnemarExact(onlyA, onlyB)));
    assert.deepEqual(decided.map((entry) => entry.rejected), [true, false, false]);
    tables.forEach(([onlyA, onlyB], index) => {
        const paired = pairedExact(onlyA, onlyB, 150, decided[index].level);
        assert.equal(paired.low > 0, decided[index].rejected, `table ${index}`);
    });
});

/** One simulated comparison of n paired pass/fail rows: A passes with pA, B with pB, independently per row. */
function simulatedPair(random: () => number, n: number, pA: number, pB: number): {onlyA: number, onlyB: number} {
    let onlyA = 0, onlyB = 0;
    for (let row = 0; row < n; row++) {
        const a = random() < pA, b = random() < pB;
        if (a && !b) onlyA++;
        else if (b && !a) onlyB++;
    }
    return {onlyA, onlyB};
}

const callsBetter = ({low, high}: {low: number, high: number}) => low > 0 || high < 0;

test("the verdict rule by seeded simulation: with no difference it calls a winner in at most 5% of runs, and finds a real one", () => {
    const random = seededRandom(2026);
    const runs = 2000;
    // No difference, 150 rows, both right 80% of the time: the exact rule is conservative, so at most 5% (here about 3%).
    let falseCalls = 0;
    for (let run = 0; run < runs; run++) {
        const {onlyA, onlyB} = simulatedPair(random, 150, 0.8, 0.8);
        if (callsBetter(pairedExact(onlyA, onlyB, 150))) falseCalls++;
    }
    assert.ok(falseCalls / runs <= 0.05, `${falseCalls} of ${runs} runs called a winner with no difference`);
    // B right 90% against A's 80% on 150 rows: most runs call B better, none A.
    let bCalls = 0, aCalls = 0;
    for (let run = 0; run < runs; run++) {
        const {onlyA, onlyB} = simulatedPair(random, 150, 0.8, 0.9);
        const interval = pairedExact(onlyA, onlyB, 150);
        if (interval.low > 0) bCalls++;
        if (interval.high < 0) aCalls++;
    }
    assert.ok(bCalls / runs > 0.5, `B called better in ${bCalls} of ${runs} runs`);
    assert.equal(aCalls, 0);
});

test("Holm over three comparisons by seeded simulation: with no difference anywhere, some winner is called in at most 5% of runs", () => {
    const random = seededRandom(7);
    const runs = 2000;
    let anyCall = 0, uncorrectedAnyCall = 0;
    for (let run = 0; run < runs; run++) {
        const pValues = [0, 1, 2].map(() => {
            const {onlyA, onlyB} = simulatedPair(random, 100, 0.7, 0.7);
            return mcnemarExact(onlyA, onlyB);
        });
        if (holm(pValues).some((result) => result.rejected)) anyCall++;
        if (pValues.some((p) => p < 0.05)) uncorrectedAnyCall++;
    }
    assert.ok(anyCall / runs <= 0.05, `Holm: ${anyCall} of ${runs} runs called a winner`);
    // Without the correction the family calls more often: what Holm is there for.
    assert.ok(uncorrectedAnyCall > anyCall, `${uncorrectedAnyCall} uncorrected against ${anyCall} with Holm`);
});

test("Wilson intervals match scipy's binomtest(k, n).proportion_ci(method='wilson')", () => {
    // Reference values: scipy.stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson").
    const reference: Array<[number, number, number, number]> = [
        [0, 10, 0, 0.27753279986288926], [10, 10, 0.7224672001371109, 1], [7, 20, 0.1811918241010821, 0.5671457233147637],
        [81, 100, 0.7222115462093562, 0.8748524849023126], [1, 3, 0.06149194472039626, 0.7923403991979523],
        [450, 1000, 0.41941538407429674, 0.48096729177425873]
    ];
    for (const [k, n, low, high] of reference) {
        const interval = wilsonInterval(k, n);
        close(interval.low, low, 1e-12);
        close(interval.high, high, 1e-12);
    }
    // At 90%: binomtest(7, 20).proportion_ci(confidence_level=0.9, method="wilson").
    const ninety = wilsonInterval(7, 20, 0.9);
    close(ninety.low, 0.20226004005676104, 1e-12);
    close(ninety.high, 0.5334873111515284, 1e-12);
    assert.deepEqual(wilsonInterval(0, 0), {low: 0, high: 1});
});

test("seeded simulation: the Wilson interval covers the true rate about 95% of the time, and a bound gate at the true rate rarely passes", () => {
    const random = seededRandom(2718);
    const runs = 4000;
    for (const [rate, n] of [[0.9, 40], [0.5, 30], [0.97, 200]] as const) {
        let covered = 0, boundMet = 0;
        for (let run = 0; run < runs; run++) {
            let k = 0;
            for (let row = 0; row < n; row++) if (random() < rate) k++;
            const interval = wilsonInterval(k, n);
            if (interval.low <= rate && rate <= interval.high) covered++;
            // A --fail-under-bound gate set at the true rate: met only when the lower bound reaches it.
            if (interval.low >= rate) boundMet++;
        }
        // Wilson's coverage oscillates around 95% with n and the rate (Agresti & Coull 1998): within 93–98% here.
        assert.ok(covered / runs >= 0.93 && covered / runs <= 0.98, `rate ${rate}, n ${n}: covered ${covered / runs}`);
        assert.ok(boundMet / runs <= 0.05, `rate ${rate}, n ${n}: a bound gate at the true rate met in ${boundMet / runs} of runs`);
    }
});
