import {seededRandom} from "../../base/common/seededRandom.ts";

// The statistics behind "is the difference real?": percentiles, McNemar's exact test and a paired, seeded
// bootstrap over rows. Pure functions; the same seed gives the same interval on every machine and every view.

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

/**
 * McNemar's exact test on paired right / wrong outcomes: of the rows where exactly one variant was right,
 * `onlyA` were A's and `onlyB` B's. Under "no difference" each such row is a fair coin, so the two-sided p-value
 * is twice the binomial(onlyA + onlyB, 1/2) tail at the smaller count, at most 1 (1 when there are none).
 */
export function mcnemarExact(onlyA: number, onlyB: number): number {
    const m = onlyA + onlyB;
    if (m === 0) return 1;
    const smaller = Math.min(onlyA, onlyB);
    // Terms C(m, k) / 2^m in log space, so thousands of discordant rows neither overflow nor underflow.
    let logTerm = -m * Math.LN2;
    let tail = Math.exp(logTerm);
    for (let k = 1; k <= smaller; k++) {
        logTerm += Math.log((m - k + 1) / k);
        tail += Math.exp(logTerm);
    }
    return Math.min(1, 2 * tail);
}

/**
 * One quantity measured on a resample: `evaluate` reads how many times each row was drawn (`counts[row]`, the
 * multiplicities of a resample of n rows with replacement) and returns `width` numbers, NaN where undefined on
 * that resample (an AUC with one class drawn). A paired difference evaluates both variants on the same counts.
 * `resample` numbers the draw, so statistics sharing a part (variant A in A-vs-B and A-vs-C) can compute it once.
 */
export type ResampledStatistic = {width: number, evaluate: (counts: Int32Array, resample: number) => ArrayLike<number>};

export type Interval = {low: number, high: number};

export type BootstrapOptions = {
    seed: number,
    /** Resamples drawn; default 2000. */
    resamples?: number,
    /** Two-sided coverage; default 0.95. */
    level?: number
};

export const defaultResamples = 2000;

/**
 * Percentile bootstrap intervals over rows: each resample draws n row indexes with replacement from a seeded
 * generator, once, and every statistic reads the same draw, so differences are paired (both variants see the
 * same rows) and one pass serves every metric. Returns, per statistic, one interval per output, or null where
 * fewer than half the resamples gave a number.
 */
export function bootstrapIntervals(n: number, statistics: readonly ResampledStatistic[], options: BootstrapOptions): Array<Array<Interval | null>> {
    const resamples = Math.max(1, Math.floor(options.resamples ?? defaultResamples));
    const alpha = (1 - (options.level ?? 0.95)) / 2;
    const draws = statistics.map((statistic) => Array.from({length: statistic.width}, () => new Float64Array(resamples)));
    if (n === 0) return statistics.map((statistic) => new Array<Interval | null>(statistic.width).fill(null));
    const random = seededRandom(options.seed);
    const counts = new Int32Array(n);
    for (let resample = 0; resample < resamples; resample++) {
        counts.fill(0);
        for (let draw = 0; draw < n; draw++) counts[Math.floor(random() * n)]++;
        statistics.forEach((statistic, index) => {
            const values = statistic.evaluate(counts, resample);
            for (let output = 0; output < statistic.width; output++) draws[index][output][resample] = values[output];
        });
    }
    return draws.map((outputs) => outputs.map((values) => {
        const finite = values.filter(Number.isFinite).sort();
        if (finite.length * 2 < resamples) return null;
        return {low: percentile(finite, alpha)!, high: percentile(finite, 1 - alpha)!};
    }));
}
