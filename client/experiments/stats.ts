import {normalQuantile} from "./normal.ts";
import type {Clusters} from "./clusters.ts";
import {SeededRandom} from "../../base/common/seededRandom.ts";
import {addClusterDraws, clusterOfPositions, laneCounts, laneLayout, laneUnits, spreadClusterCounts, type PackedCounts} from "./resampleLanes.ts";
import {SharedWeighing} from "./sharedWeighing.ts";

// The statistics behind "is the difference real?": percentiles, McNemar's exact test with its conditional exact
// interval (Clopper–Pearson on the discordant rows), Holm's correction and a paired, seeded bootstrap over rows.
// Pure functions; the same seed gives the same interval on every machine and every view.

/** The q-quantile (0..1) of values sorted ascending, interpolating between neighbours; null when there are none. */
export function percentile(sorted: ArrayLike<number>, q: number): number | null {
    const n = sorted.length;
    if (n === 0) return null;
    const position = Math.min(1, Math.max(0, q)) * (n - 1);
    const lower = Math.floor(position);
    const upper = Math.min(n - 1, lower + 1);
    return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

/** p50 and p95 of values in any order (latencies); null when there are none. */
export function medianAndP95(values: readonly number[]): {p50: number | null, p95: number | null} {
    const sorted = Float64Array.from(values).sort();
    return {p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95)};
}

/** ln(n!) for whole n, summed once and kept, so binomial terms start anywhere without a gamma function. */
const logFactorials: number[] = [0];

function logFactorial(n: number): number {
    for (let next = logFactorials.length; next <= n; next++) logFactorials.push(logFactorials[next - 1] + Math.log(next));
    return logFactorials[n];
}

/**
 * The sum of the Binomial(n, θ) probabilities from `start` away from the mode (`step` -1: down to 0; +1: up to n),
 * where every next term is smaller: the first term from logarithms, each next one by the ratio of neighbours, until
 * the terms no longer change the sum. About √n terms near the middle, so thousands of trials cost little.
 */
function binomialTail(start: number, step: 1 | -1, n: number, theta: number): number {
    let term = Math.exp(logFactorial(n) - logFactorial(start) - logFactorial(n - start) + start * Math.log(theta) + (n - start) * Math.log1p(-theta));
    const odds = theta / (1 - theta);
    let sum = term;
    for (let j = start; step === -1 ? j > 0 : j < n; j += step) {
        term *= step === -1 ? j / (n - j + 1) / odds : (n - j) / (j + 1) * odds;
        sum += term;
        if (term <= sum * 1e-17) break;
    }
    return sum;
}

/**
 * P(X ≤ k) for X ~ Binomial(n, θ): the terms below k summed down from k when k is at most the mode, else one less
 * the terms above k summed up, each from its largest term, so that neither thousands of trials nor tiny tails lose
 * precision. McNemar's test and the Clopper–Pearson bounds both read it, so the test and the interval agree to the
 * last bit at θ = ½.
 */
export function binomialCdf(k: number, n: number, theta: number): number {
    if (k < 0) return 0;
    if (k >= n) return 1;
    if (theta <= 0) return 1;
    if (theta >= 1) return 0;
    const mode = Math.floor((n + 1) * theta);
    return k <= mode ? Math.min(1, binomialTail(k, -1, n, theta)) : Math.max(0, 1 - binomialTail(k + 1, 1, n, theta));
}

/**
 * McNemar's exact test on paired right / wrong outcomes: of the rows where exactly one variant was right,
 * `onlyA` were A's and `onlyB` B's. Under "no difference" each such row is a fair coin, so the two-sided p-value
 * is twice the binomial(onlyA + onlyB, 1/2) tail at the smaller count, at most 1 (1 when there are none).
 */
export function mcnemarExact(onlyA: number, onlyB: number): number {
    const m = onlyA + onlyB;
    if (m === 0) return 1;
    return Math.min(1, 2 * binomialCdf(Math.min(onlyA, onlyB), m, 0.5));
}

/**
 * The Clopper–Pearson ("exact") interval for a binomial proportion, k successes of n, at two-sided coverage
 * `level` (default 0.95): the lower end is the θ where P(X ≥ k | θ) = (1 − level)/2 (0 when k = 0), the upper end
 * the θ where P(X ≤ k | θ) = (1 − level)/2 (1 when k = n); [0, 1] when n = 0. Found by bisection on binomialCdf.
 */
export function clopperPearson(k: number, n: number, level = 0.95): Interval {
    if (n <= 0) return {low: 0, high: 1};
    const tail = (1 - level) / 2;
    // P(X ≥ k | θ) = P(n − X ≤ n − k) with n − X ~ Binomial(n, 1 − θ): rises with θ.
    const low = k <= 0 ? 0 : bisect((theta) => binomialCdf(n - k, n, 1 - theta) >= tail);
    // P(X ≤ k | θ) falls with θ: the upper end is the last θ where it is still at least the tail.
    const high = k >= n ? 1 : 1 - bisect((complement) => binomialCdf(k, n, 1 - complement) >= tail);
    return {low, high};
}

/**
 * The smallest θ in (0, 1) where `reached(θ)` holds, for a condition that turns from false to true once as θ
 * rises: bisection kept to the point where the bracket is two neighbouring numbers, returning its upper end (a θ
 * where the condition holds).
 */
function bisect(reached: (theta: number) => boolean): number {
    let below = 0, above = 1;
    for (let step = 0; step < 200; step++) {
        const middle = (below + above) / 2;
        if (middle <= below || middle >= above) break;
        if (reached(middle)) above = middle;
        else below = middle;
    }
    return above;
}

/**
 * The Wilson score interval (Wilson 1927) for a rate of `k` successes in `n` at two-sided coverage `level`: the
 * rates p whose score test, |p̂ − p| ≤ z·√(p(1 − p)/n), accepts the observed p̂ = k/n. Centre (p̂ + z²/2n)/(1 + z²/n),
 * half-width z·√(p̂(1 − p̂)/n + z²/4n²)/(1 + z²/n). Unlike p̂ ± z·√(p̂(1 − p̂)/n) it stays in [0, 1], is not empty at 0
 * of n or n of n, and keeps close to its coverage at small n (Agresti & Coull 1998). [0, 1] when n = 0.
 */
export function wilsonInterval(k: number, n: number, level = 0.95): Interval {
    if (n <= 0) return {low: 0, high: 1};
    const z = normalQuantile(1 - (1 - level) / 2);
    const rate = k / n, z2n = z * z / n;
    const centre = (rate + z2n / 2) / (1 + z2n);
    const half = z * Math.sqrt(rate * (1 - rate) / n + z2n / (4 * n)) / (1 + z2n);
    // At 0 of n and n of n the formula's end is the rate itself; rounding must not put it a hair off.
    return {low: k <= 0 ? 0 : Math.max(0, centre - half), high: k >= n ? 1 : Math.min(1, centre + half)};
}

/** A paired difference in a share of rows with McNemar's exact test and the interval that goes with it. */
export type PairedExact = {onlyA: number, onlyB: number, pValue: number, delta: number, low: number, high: number};

/**
 * B's share less A's over n paired pass / fail rows, of which `onlyA` only A passed and `onlyB` only B: the
 * difference (onlyB − onlyA)/n with McNemar's exact p-value and an exact interval that agrees with it. The difference
 * is d(2θ − 1), d the share of rows where the two disagree and θ the chance such a row is B's. The Clopper–Pearson
 * interval (θL, θU) of onlyB of m = onlyA + onlyB at `level` is McNemar's test inverted; d is not known either, so each
 * end takes the widest value over d's own Clopper–Pearson interval (dL, dU) of m of n: low = min(dL, dU)·(2θL − 1),
 * high = max(dL, dU)·(2θU − 1). A few discordant rows thus give a wide interval, never "0.00 (0.00–0.00)" (with none,
 * θ is anything and the interval is ±dU). The sign of each end is that of 2θ − 1 (dL > 0 once m > 0), so the interval
 * excludes 0 exactly when McNemar's two-sided p-value is below 1 − level: both are the same doubled binomial tail at ½.
 */
export function pairedExact(onlyA: number, onlyB: number, n: number, level = 0.95): PairedExact {
    const m = onlyA + onlyB;
    const pValue = mcnemarExact(onlyA, onlyB);
    if (n <= 0) return {onlyA, onlyB, pValue, delta: 0, low: 0, high: 0};
    const share = clopperPearson(m, n, level);
    const theta = clopperPearson(onlyB, m, level);
    const widest = (gap: number, pick: (x: number, y: number) => number) => pick(share.low * gap, share.high * gap);
    return {onlyA, onlyB, pValue, delta: (onlyB - onlyA) / n, low: widest(2 * theta.low - 1, Math.min), high: widest(2 * theta.high - 1, Math.max)};
}

/**
 * Holm's step-down correction (Holm 1979) of m p-values at family-wise level `alpha`: sorted ascending, the k-th
 * smallest (k from 1) is rejected while every one so far is at most alpha/(m − k + 1). Per p-value, in the input
 * order: the adjusted p-value (the largest (m − j + 1)·p(j) over j ≤ k, at most 1: rejected exactly when it is at
 * most alpha), whether it is rejected, and `level`, the coverage of an interval that agrees with that decision:
 * 1 − alpha/(m − k + 1) at its own step when rejected, else that of the step where the procedure stopped (its
 * p-value, no smaller than that step's, is then above the step's alpha, so such an interval holds 0).
 */
export function holm(pValues: readonly number[], alpha = 0.05): Array<{adjusted: number, rejected: boolean, level: number}> {
    const m = pValues.length;
    const order = pValues.map((_p, index) => index).sort((x, y) => pValues[x] - pValues[y] || x - y);
    const results = new Array<{adjusted: number, rejected: boolean, level: number}>(m);
    let running = 0, stopped = -1;
    order.forEach((index, rank) => {
        const divisor = m - rank;
        running = Math.min(1, Math.max(running, divisor * pValues[index]));
        if (stopped < 0 && pValues[index] > alpha / divisor) stopped = rank;
        const rejected = stopped < 0;
        results[index] = {adjusted: running, rejected, level: 1 - alpha / (rejected ? divisor : m - stopped)};
    });
    return results;
}

/**
 * One quantity measured on a resample: `evaluate` reads how many times each row was drawn (`counts[row]`, the
 * multiplicities of a resample of n rows with replacement) and returns `width` numbers, NaN where undefined on
 * that resample (an AUC with one class drawn). A paired difference evaluates both variants on the same counts.
 * `resample` numbers the draw, so statistics sharing a part (variant A in A-vs-B and A-vs-C) can compute it once.
 * A statistic may instead read a batch of resamples at once, their counts packed in lanes (`evaluateLanes`,
 * resampleLanes.ts), and return `width` numbers per lane.
 */
export type ResampledStatistic = {width: number, evaluate: (counts: Int32Array, resample: number) => ArrayLike<number>}
    | {width: number, evaluateLanes: (counts: PackedCounts) => ReadonlyArray<ArrayLike<number>>};

export type Interval = {low: number, high: number};

export type BootstrapOptions = {
    seed: number,
    /** Resamples drawn; default 2000. */
    resamples?: number,
    /** Two-sided coverage; default 0.95. */
    level?: number,
    /** Resample these clusters of positions, each with all its rows, instead of single rows. */
    clusters?: Clusters
};

export const defaultResamples = 2000;

/**
 * Percentile bootstrap intervals over rows (over clusters of rows when `clusters` is given: each resample draws as
 * many clusters as there are, with replacement, and counts every row of each): each resample draws n row indexes with replacement from a seeded
 * generator, once, and every statistic reads the same draw, so differences are paired (both variants see the
 * same rows) and one pass serves every metric. The resamples are drawn in batches, their counts packed in lanes
 * (resampleLanes.ts), which a statistic with `evaluateLanes` reads at once. Returns, per statistic, one interval
 * per output, or null where fewer than half the resamples gave a number.
 */
export function bootstrapIntervals(n: number, statistics: readonly ResampledStatistic[], options: BootstrapOptions): Array<Array<Interval | null>> {
    const resamples = Math.max(1, Math.floor(options.resamples ?? defaultResamples));
    const alpha = (1 - (options.level ?? 0.95)) / 2;
    const values = statistics.map((statistic) => Array.from({length: statistic.width}, () => new Float64Array(resamples)));
    if (n === 0) return statistics.map((statistic) => new Array<Interval | null>(statistic.width).fill(null));
    const random = new SeededRandom(options.seed);
    const groups = options.clusters?.members;
    // A resample's counts sum to n, or with clusters to the rows of the clusters drawn, at most this many.
    const largest = groups === undefined ? n : groups.length * groups.reduce((most, group) => Math.max(most, group.length), 0);
    const {bits, lanes} = laneLayout(largest);
    const units = laneUnits(bits, lanes);
    const packed = new Float64Array(n), counts = new Int32Array(n);
    const weighing = new SharedWeighing(n);
    // With clusters: each cluster's packed count (one more, never drawn, for rows in none), then spread to its rows.
    const clusterOf = groups === undefined ? null : clusterOfPositions(groups, n);
    const clusterCounts = new Float64Array(groups === undefined ? 0 : groups.length + 1);
    for (let first = 0; first < resamples; first += lanes) {
        const batch = Math.min(lanes, resamples - first);
        packed.fill(0);
        clusterCounts.fill(0);
        weighing.nextBatch();
        // The resamples one after another from the one generator: the same draws whatever the batch size.
        for (let lane = 0; lane < batch; lane++) {
            const unit = units[lane];
            if (groups === undefined) random.addDraws(packed, n, unit);
            else addClusterDraws(random, clusterCounts, groups.length, unit);
        }
        if (clusterOf !== null) spreadClusterCounts(clusterCounts, clusterOf, packed);
        const drawn: PackedCounts = {packed, lanes: batch, bits, first, weighing};
        statistics.forEach((statistic, index) => {
            const lanesOf = "evaluateLanes" in statistic ? statistic.evaluateLanes(drawn)
                : Array.from({length: batch}, (_unused, lane) => Array.from(statistic.evaluate(laneCounts(drawn, lane, counts), first + lane)));
            for (let lane = 0; lane < batch; lane++) for (let output = 0; output < statistic.width; output++) values[index][output][first + lane] = lanesOf[lane][output];
        });
    }
    return values.map((outputs) => outputs.map((resampled) => {
        const finite = resampled.filter(Number.isFinite).sort();
        if (finite.length * 2 < resamples) return null;
        return {low: percentile(finite, alpha)!, high: percentile(finite, 1 - alpha)!};
    }));
}
