import type {CellResult} from "./types.ts";
import {wilsonInterval} from "./stats.ts";

// What a chat variant's repeats say beyond its pass rate. Each row was asked K times; its K answers pass or fail
// (an errored answer fails). Per row: the share of its answers that passed, the row's spread. Over rows:
// - pass@k, the chance that at least one of k answers passes (Chen et al. 2021's unbiased estimator from n answers of
//   which c passed: 1 − C(n−c, k)/C(n, k), averaged over rows), and pass^k, the chance that all k pass (Yao et al.
//   2024, τ-bench: C(c, k)/C(n, k));
// - the noise split (law of total variance, Miller 2024): the variance of the mean over n rows is
//   σ²_between / n + σ²_within / (n·K). σ²_within is the mean of each row's sample variance over its answers (the
//   prediction noise), σ²_between the variance of the row means less σ²_within / K (the data noise). More repeats
//   shrink only the second term: with one answer per row the standard error would have been
//   √((σ²_between + σ²_within) / n), and `narrowing` is the standard error with the repeats over that.

/** pass@k and pass^k at one k, over the rows with at least k answers, each a mean of per-row estimates. */
export type PassAtK = {k: number, passAtK: number, passHatK: number, rows: number,
    /** At k = K, both are shares of rows (some / every answer passed): their 95% Wilson intervals. */
    passAtKInterval?: {low: number, high: number}, passHatKInterval?: {low: number, high: number}};

/** A metric's variance split between rows and within rows (over their repeats). */
export type NoiseSplit = {
    metric: string,
    /** Rows with at least two answers (the within-row variance needs two). */
    rows: number,
    mean: number,
    /** Variance between rows' true values (data noise), estimated, at least 0. */
    between: number,
    /** Variance of answers around their row's mean (prediction noise). */
    within: number,
    /** The mean's standard error with the repeats asked, and had each row been asked once. */
    standardError: number,
    standardErrorOnce: number,
    /** standardError / standardErrorOnce: below 1 when the repeats narrowed the interval. */
    narrowing: number
};

export type RepeatStats = {
    repeats: number,
    /** Rows by how many of their answers passed every check: `rowsByPasses[c]` rows passed c times (rows with all K answers). */
    rowsByPasses: number[],
    passAtK: PassAtK[],
    noise: NoiseSplit[]
};

/** C(n, k) / C(m, k) computed as a product, stable for the small counts of repeats. */
function binomialRatio(n: number, m: number, k: number): number {
    if (k > n) return 0;
    let ratio = 1;
    for (let i = 0; i < k; i++) ratio *= (n - i) / (m - i);
    return ratio;
}

/** Unbiased pass@k from n answers of which c passed (Chen et al. 2021). */
export function passAtK(n: number, c: number, k: number): number {
    return 1 - binomialRatio(n - c, n, k);
}

/** Unbiased pass^k from n answers of which c passed: the chance k drawn without replacement all pass (Yao et al. 2024). */
export function passHatK(n: number, c: number, k: number): number {
    return binomialRatio(c, n, k);
}

/**
 * The noise split of per-row answer values (`values[row]` holds a row's answers): rows with fewer than two answers
 * are left out. `repeats` is the K the standard error with repeats is stated for.
 */
export function noiseSplit(metric: string, values: ReadonlyArray<readonly number[]>, repeats: number): NoiseSplit | null {
    const rows = values.filter((answers) => answers.length >= 2);
    const n = rows.length;
    if (n < 2) return null;
    const means = rows.map((answers) => answers.reduce((a, b) => a + b, 0) / answers.length);
    const mean = means.reduce((a, b) => a + b, 0) / n;
    const within = rows.reduce((sum, answers, row) => sum + answers.reduce((s, value) => s + (value - means[row]) ** 2, 0) / (answers.length - 1), 0) / n;
    const ofMeans = means.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
    // E[variance of row means] = σ²_between + σ²_within / K (each row's K answers averaged); K per row when unequal.
    const withinShare = rows.reduce((sum, answers) => sum + 1 / answers.length, 0) / n;
    const between = Math.max(0, ofMeans - within * withinShare);
    const standardError = Math.sqrt((between + within / repeats) / n);
    const standardErrorOnce = Math.sqrt((between + within) / n);
    return {metric, rows: n, mean, between, within, standardError, standardErrorOnce, narrowing: standardErrorOnce > 0 ? standardError / standardErrorOnce : 1};
}

/**
 * A chat variant's repeat statistics from its cells (`rowOf` gives a cell's row position, -1 when out of the
 * sample): pass_rate's and each grader score's noise split, pass@k and pass^k for k = 1..K, and how many rows
 * passed how many times. `graders` are the checks whose score is a grader's.
 */
export function repeatStats(cells: readonly CellResult[], repeats: number, rowOf: (cell: CellResult) => number, graders: readonly string[]): RepeatStats {
    const passes = new Map<number, number[]>();
    const scores = new Map<string, Map<number, number[]>>(graders.map((name) => [name, new Map()]));
    for (const cell of cells) {
        const row = rowOf(cell);
        if (row < 0) continue;
        const passed = cell.ok && (cell.checks ?? []).every((check) => check.pass) ? 1 : 0;
        (passes.get(row) ?? passes.set(row, []).get(row)!).push(passed);
        if (!cell.ok) continue;
        for (const check of cell.checks ?? []) {
            const byRow = scores.get(check.name);
            if (byRow !== undefined) (byRow.get(row) ?? byRow.set(row, []).get(row)!).push(check.score);
        }
    }
    const rowsPassed = [...passes.values()];
    const complete = rowsPassed.filter((answers) => answers.length >= repeats);
    const rowsByPasses = new Array<number>(repeats + 1).fill(0);
    for (const answers of complete) rowsByPasses[answers.slice(0, repeats).reduce((a, b) => a + b, 0)]++;
    const atK: PassAtK[] = [];
    for (let k = 1; k <= repeats; k++) {
        const eligible = rowsPassed.filter((answers) => answers.length >= k);
        if (eligible.length === 0) continue;
        let some = 0, every = 0;
        for (const answers of eligible) {
            const c = answers.reduce((a, b) => a + b, 0);
            some += passAtK(answers.length, c, k);
            every += passHatK(answers.length, c, k);
        }
        const entry: PassAtK = {k, passAtK: some / eligible.length, passHatK: every / eligible.length, rows: eligible.length};
        if (k === repeats) {
            // With k = K and every row asked K times, each row's estimate is 0 or 1: the shares of rows take Wilson intervals.
            const rows = complete.length;
            if (rows > 0 && rows === eligible.length) {
                entry.passAtKInterval = wilsonInterval(rows - rowsByPasses[0], rows);
                entry.passHatKInterval = wilsonInterval(rowsByPasses[repeats], rows);
            }
        }
        atK.push(entry);
    }
    const noise = [noiseSplit("pass_rate", rowsPassed, repeats), ...graders.map((name) => noiseSplit(`score:${name}`, [...scores.get(name)!.values()], repeats))]
        .filter((split): split is NoiseSplit => split !== null);
    return {repeats, rowsByPasses, passAtK: atK, noise};
}

/** Rows that passed in fewer than `least` of their K answers, from rowsByPasses: what a "passes in m of K" gate fails on. */
export function rowsBelow(stats: RepeatStats, least: number): number {
    return stats.rowsByPasses.slice(0, Math.max(0, least)).reduce((a, b) => a + b, 0);
}
