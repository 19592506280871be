import {normalQuantile} from "./normal.ts";
import {tCdf, tQuantile} from "./studentT.ts";
import {wilsonInterval} from "./stats.ts";

// Rows that share a passage, a conversation, a topic or a user are not independent: an experiment can name a dataset
// column as its cluster (`cluster` in the file). Then intervals resample clusters, not rows (stats.ts
// bootstrapIntervals), and a mean's variance is the clustered (Liang–Zeger sandwich) one,
// SE² = Σ_g (Σ_{i∈g} (y_i − ȳ))² / n², whose ratio to the naive Σ_i (y_i − ȳ)² / n² is the design effect, about
// 1 + (m − 1)·ρ for clusters of m rows with intra-cluster correlation ρ. Paired pass / fail differences are tested on
// the per-row differences with that variance, times G/(G − 1) for G clusters (CR1), against Student's t on G − 1
// degrees of freedom: a cluster-robust test that stays near its level with few clusters, where the normal would
// claim too much (Cameron & Miller 2015); with many clusters of one row it is McNemar's large-sample test.

/** The sample's positions grouped by the cluster column's value; a blank value is a cluster of its own row. */
export type Clusters = {
    column: string,
    /** Cluster index per position in the sample. */
    of: Int32Array,
    /** The positions of each cluster. */
    members: Int32Array[]
};

/** The clusters of the sample's rows (`rowIndexes`, in sample order) by the values of `column` (its index). */
export function clustersOf(rows: ReadonlyArray<readonly unknown[]>, rowIndexes: readonly number[], column: number, name: string): Clusters {
    const ids = new Map<string, number>();
    const of = new Int32Array(rowIndexes.length);
    const members: number[][] = [];
    rowIndexes.forEach((rowIndex, position) => {
        const value = rows[rowIndex]?.[column];
        const text = value === null || value === undefined ? "" : String(value).trim();
        // A blank cell belongs to no cluster: its row stands alone.
        const key = text === "" ? `\u0000${position}` : text;
        let id = ids.get(key);
        if (id === undefined) {
            id = members.length;
            ids.set(key, id);
            members.push([]);
        }
        of[position] = id;
        members[id].push(position);
    });
    return {column: name, of, members: members.map((list) => Int32Array.from(list))};
}

/** The clustered and the naive variance of the mean of `value(position)` over `positions`, and the clusters they span. */
export function meanVariances(value: (position: number) => number, positions: Int32Array, clusters: Clusters): {mean: number, clustered: number, naive: number, clusters: number} {
    const n = positions.length;
    if (n === 0) return {mean: Number.NaN, clustered: Number.NaN, naive: Number.NaN, clusters: 0};
    let sum = 0;
    for (const position of positions) sum += value(position);
    const mean = sum / n;
    const residuals = new Map<number, number>();
    let squares = 0;
    for (const position of positions) {
        const residual = value(position) - mean;
        squares += residual * residual;
        const cluster = clusters.of[position];
        residuals.set(cluster, (residuals.get(cluster) ?? 0) + residual);
    }
    let clustered = 0;
    for (const total of residuals.values()) clustered += total * total;
    return {mean, clustered: clustered / (n * n), naive: squares / (n * n), clusters: residuals.size};
}

/** The design effect of a rate: its clustered variance over the naive one; null when the naive one is 0 (all alike). */
export function designEffect(outcome: Uint8Array, positions: Int32Array, clusters: Clusters): number | null {
    const {clustered, naive} = meanVariances((position) => outcome[position], positions, clusters);
    return naive > 0 ? clustered / naive : null;
}

/** A paired pass / fail difference tested with its clustered variance. */
export type ClusteredPaired = {delta: number, standardError: number, pValue: number, clusters: number};

/** The degrees of freedom of a test on G clusters: G − 1 (at least 1). */
export function clusterDegrees(clusters: number): number {
    return Math.max(1, clusters - 1);
}

/**
 * B's rate less A's over `positions`, from the per-row differences d = B − A (each −1, 0 or 1): δ = mean(d), its
 * clustered standard error with the G/(G − 1) correction, and the two-sided p-value 2·P(T ≤ −|δ|/SE) for T on G − 1
 * degrees of freedom (1 when SE is 0: no row differs).
 */
export function clusteredPaired(outcomeA: Uint8Array, outcomeB: Uint8Array, positions: Int32Array, clusters: Clusters): ClusteredPaired {
    const {mean, clustered, clusters: count} = meanVariances((position) => outcomeB[position] - outcomeA[position], positions, clusters);
    const standardError = Math.sqrt(count > 1 ? clustered * count / (count - 1) : clustered);
    const pValue = !(standardError > 0) ? 1 : 2 * tCdf(-Math.abs(mean) / standardError, clusterDegrees(count));
    return {delta: Number.isFinite(mean) ? mean : 0, standardError, pValue, clusters: count};
}

/**
 * The interval δ ± q·SE at two-sided coverage `level`: q is Student's t quantile on `degrees` degrees of freedom
 * (a clustered test's G − 1), or the normal's without them.
 */
export function waldInterval(delta: number, standardError: number, level: number, degrees?: number): {low: number, high: number} {
    const p = 1 - (1 - level) / 2;
    const q = degrees === undefined ? normalQuantile(p) : tQuantile(p, degrees);
    return {low: delta - q * standardError, high: delta + q * standardError};
}

/**
 * A rate's interval with a cluster column: the Wilson interval on the effective number of rows, n / design effect
 * (the design effect taken as at least 1, so clustering never narrows it), with the same share of successes.
 */
export function clusteredRate(outcome: Uint8Array, positions: Int32Array, clusters: Clusters, level: number): {interval: {low: number, high: number}, designEffect: number | null} {
    const n = positions.length;
    let successes = 0;
    for (const position of positions) successes += outcome[position];
    const effect = designEffect(outcome, positions, clusters);
    const effective = n / Math.max(1, effect ?? 1);
    return {interval: wilsonInterval(successes / n * effective, effective, level), designEffect: effect};
}

/** A design effect above this is said in the summary's warnings: the intervals are √2 ≈ 1.4 times as wide or more. */
export const largeDesignEffect = 2;

/** Fewer clusters than this make the clustered variance (and so its intervals and tests) rough. */
export const fewClusters = 20;

/** What the summary says about clustering: few clusters, and each variant's large design effects (primary metric first). */
export function clusterWarnings(clusters: Clusters, variants: ReadonlyArray<{name: string, metrics: ReadonlyArray<{metric: string, question?: string, calibrated: boolean, designEffect?: number}>}>): string[] {
    const warnings: string[] = [];
    if (clusters.members.length < fewClusters)
        warnings.push(`The rows fall in ${clusters.members.length} clusters of ${clusters.column}: with fewer than ${fewClusters}, clustered intervals and tests are rough.`);
    for (const variant of variants) {
        const large = variant.metrics.filter((value) => !value.calibrated && (value.designEffect ?? 0) > largeDesignEffect);
        if (large.length === 0) continue;
        const worst = large.reduce((x, y) => (y.designEffect ?? 0) > (x.designEffect ?? 0) ? y : x);
        const effect = worst.designEffect!;
        warnings.push(`${variant.name}: rows of the same ${clusters.column} are alike (design effect ${effect.toFixed(1)} on ${worst.question === undefined ? "" : `${worst.question} `}${worst.metric}): ` +
            `its intervals are ${Math.sqrt(effect).toFixed(1)}× as wide as for independent rows; more ${clusters.column} values, not more rows of each, narrow them.`);
    }
    return warnings;
}
