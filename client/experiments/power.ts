import {normalCdf, normalQuantile} from "./normal.ts";
import {tQuantile} from "./studentT.ts";
import {clusterDegrees} from "./clusters.ts";
import type {Difference, ExperimentSpec, ExperimentSummary} from "./types.ts";

// What a comparison can detect: closed forms for the power of a paired comparison, before a run (the setup: the
// smallest difference the sample can detect, and the rows a typed difference needs) and after it ("no clear
// difference" says what the run could have detected).
// - Paired pass / fail outcomes (McNemar): Connor (1987, Biometrics 43:207–211). With discordance ψ (the share of
//   rows only one variant gets right) and difference δ, the rows needed at two-sided α and power 1 − β are
//   n = (z_{α/2}·√ψ + z_β·√(ψ − δ²))² / δ², and the power at n is Φ((√n·|δ| − z_{α/2}·√ψ) / √(ψ − δ²)).
// - Paired continuous metrics (a normal approximation): n = (z_{α/2} + z_β)²·σ_d² / δ², σ_d the standard deviation
//   of the per-row differences, so the smallest detectable difference is (z_{α/2} + z_β)·σ_d/√n.
// Both approximate the tests' large-sample forms; McNemar's exact test, which the summary uses, is slightly
// conservative, so its power at the figure given is a few points below 80% (power.test.ts measures it).

export type PowerOptions = {
    /** Two-sided level of the test; default 0.05. */
    alpha?: number,
    /** The chance of finding a real difference of the size asked about; default 0.8. */
    power?: number
};

export const defaultPower = 0.8;
const defaultAlpha = 0.05;

function quantiles(options: PowerOptions): {zAlpha: number, zBeta: number} {
    return {zAlpha: normalQuantile(1 - (options.alpha ?? defaultAlpha) / 2), zBeta: normalQuantile(options.power ?? defaultPower)};
}

/**
 * Connor's power of McNemar's test on n paired rows: the chance of a significant result (in the direction of δ)
 * when the share of discordant rows is ψ and the difference δ. 0 when |δ| exceeds ψ (no such pair of variants exists).
 */
export function mcnemarPower(n: number, delta: number, discordance: number, options: PowerOptions = {}): number {
    const size = Math.abs(delta);
    if (n <= 0 || size === 0 || size > discordance) return 0;
    const {zAlpha} = quantiles(options);
    const spread = Math.sqrt(discordance - size * size);
    if (spread === 0) return 1;
    return normalCdf((Math.sqrt(n) * size - zAlpha * Math.sqrt(discordance)) / spread);
}

/** Rows McNemar's test needs to find a difference δ at discordance ψ with the power asked (Connor); null when |δ| > ψ. */
export function mcnemarRowsNeeded(delta: number, discordance: number, options: PowerOptions = {}): number | null {
    const size = Math.abs(delta);
    if (size === 0 || !(discordance > 0) || size > discordance) return null;
    const {zAlpha, zBeta} = quantiles(options);
    return Math.ceil((zAlpha * Math.sqrt(discordance) + zBeta * Math.sqrt(discordance - size * size)) ** 2 / (size * size));
}

/**
 * The smallest difference McNemar's test finds with the power asked on n rows at discordance ψ: Connor's formula
 * solved for δ (the power rises with δ, so by bisection). Null when even δ = ψ, every discordant row one variant's,
 * is not found that often (too few rows), or when there is no discordance.
 */
export function mcnemarDetectable(n: number, discordance: number, options: PowerOptions = {}): number | null {
    if (n <= 0 || !(discordance > 0)) return null;
    const target = options.power ?? defaultPower;
    if (mcnemarPower(n, discordance, discordance, options) < target) return null;
    let below = 0, above = discordance;
    for (let step = 0; step < 100; step++) {
        const middle = (below + above) / 2;
        if (mcnemarPower(n, middle, discordance, options) >= target) above = middle;
        else below = middle;
    }
    return above;
}

/** Rows a paired comparison of a continuous metric needs to find δ when the per-row differences spread by σ_d. */
export function pairedRowsNeeded(delta: number, sdDifference: number, options: PowerOptions = {}): number | null {
    if (delta === 0 || !(sdDifference >= 0)) return null;
    const {zAlpha, zBeta} = quantiles(options);
    return Math.ceil((zAlpha + zBeta) ** 2 * sdDifference ** 2 / (delta * delta));
}

/** The smallest difference a paired comparison of a continuous metric finds on n rows: (z_{α/2} + z_β)·σ_d/√n. */
export function pairedDetectable(n: number, sdDifference: number, options: PowerOptions = {}): number | null {
    if (n <= 0 || !(sdDifference >= 0)) return null;
    const {zAlpha, zBeta} = quantiles(options);
    return (zAlpha + zBeta) * sdDifference / Math.sqrt(n);
}

/**
 * The smallest difference a paired bootstrap comparison would find with the power asked: the normal approximation
 * above, with σ_d/√n read from the interval itself (a two-sided interval at `level` spans 2·z·SE), so the
 * comparison's own spread stands for the per-row differences'. Null when the interval has no width.
 */
export function detectableFromInterval(low: number, high: number, level: number, options: PowerOptions = {}, degrees?: number): number | null {
    const p = 1 - (1 - level) / 2;
    const standardError = (high - low) / (2 * (degrees === undefined ? normalQuantile(p) : tQuantile(p, degrees)));
    if (!(standardError > 0)) return null;
    if (degrees === undefined) return pairedDetectable(1, standardError, options);
    // A test on t with few degrees of freedom needs a larger difference: (t_{α/2} + t_β)·SE.
    return (tQuantile(1 - (options.alpha ?? defaultAlpha) / 2, degrees) + tQuantile(options.power ?? defaultPower, degrees)) * standardError;
}

/**
 * What a finished comparison could have detected at 80% power, at its own level (a Holm-corrected primary's is
 * stricter): pass / fail metrics by Connor's formula at the discordance the run observed, other metrics (and pass /
 * fail ones tested on clusters) from their interval. Undefined when there is nothing to say (no rows, no interval, no discordant row, an interval
 * of no width); null when no difference at all could have been detected that often on so few rows.
 */
export function detectableDifference(difference: Pick<Difference, "n" | "delta" | "low" | "high" | "level" | "mcnemar" | "method"> & Partial<Pick<Difference, "clustered">>): number | null | undefined {
    const {n, delta, low, high, level, mcnemar, method, clustered} = difference;
    if (n <= 0 || delta === null || low === null || high === null) return undefined;
    const options = {alpha: 1 - level};
    // A clustered difference's interval is a Wald interval on its clustered standard error: read it as the others.
    if (mcnemar !== undefined && method !== "cluster") {
        const discordance = (mcnemar.onlyA + mcnemar.onlyB) / n;
        return discordance === 0 ? undefined : mcnemarDetectable(n, discordance, options);
    }
    return detectableFromInterval(low, high, level, options, method === "cluster" && clustered !== undefined ? clusterDegrees(clustered.clusters) : undefined) ?? undefined;
}

/**
 * The discordance a finished summary measured: the mean over its primary comparisons of (only A + only B) / n, the
 * share of rows only one variant got right; null while a primary comparison is provisional, or when there is none.
 */
export function measuredDiscordance(summary: ExperimentSummary): number | null {
    const primaries = summary.differences.filter((difference) => difference.primary && difference.mcnemar !== undefined && difference.n > 0);
    if (primaries.length === 0 || primaries.some((difference) => difference.provisional)) return null;
    return primaries.reduce((sum, difference) => sum + (difference.mcnemar!.onlyA + difference.mcnemar!.onlyB) / difference.n, 0) / primaries.length;
}

/** The discordance assumed when no earlier run has measured one: 1 row in 5 answered differently. */
export const assumedDiscordance = 0.2;

/**
 * What a run of `rows` rows can detect, in a sentence (eval prints it before sending): "on 40 rows, a difference of
 * 0.173 in the primary metric has an 80% chance of a clear verdict (α = 0.05, discordance 0.200 assumed)".
 */
export function describeDetectable(rows: number, discordance: number, source: string): string {
    const detectable = mcnemarDetectable(rows, discordance);
    const percent = `${Math.round(defaultPower * 100)}%`;
    const what = detectable === null ? `no difference in the primary metric has an ${percent} chance of a clear verdict`
        : `a difference of ${detectable.toFixed(3)} in the primary metric has an ${percent} chance of a clear verdict`;
    return `on ${rows.toLocaleString("en-US")} rows, ${what} (α = 0.05, discordance ${discordance.toFixed(3)} ${source})`;
}

/** Whether an experiment compares two variants of one kind (the first of a kind with a later one). */
export function comparesVariants(spec: ExperimentSpec): boolean {
    const kinds = spec.variants.map((variant) => variant.version.prompt.kind);
    return kinds.some((kind, index) => kinds.indexOf(kind) !== index);
}
