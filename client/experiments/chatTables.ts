import type {CellResult, MetricKey} from "./types.ts";
import {type MetricTable, GroupedRows} from "./metricTables.ts";

// A chat or Responses variant's check results: pass_rate (every check passed) and, per check, the mean of its
// scores (1 pass / 0 fail; a grader's P(yes)). A row counts when its cell succeeded and carries every check.

/** Check names in the order they first appear across the cells. */
export function checkNames(cells: readonly CellResult[]): string[] {
    const names = new Set<string>();
    for (const cell of cells) for (const check of cell.checks ?? []) names.add(check.name);
    return [...names];
}

/** Each metric's weighted mean over the groups: pass_rate is the mean of 1 (passed all) / 0. */
function weightedMeans(values: readonly Float64Array[], weights: Float64Array, width: number): Float64Array {
    const sums = new Float64Array(width);
    let total = 0;
    values.forEach((row, group) => {
        const weight = weights[group];
        if (weight === 0) return;
        total += weight;
        for (let metric = 0; metric < width; metric++) sums[metric] += weight * row[metric];
    });
    return sums.map((sum) => total === 0 ? Number.NaN : sum / total);
}

/** One table holding pass_rate and `check:<name>` per check of `names`; null when there are no checks. */
export function chatTable(cells: readonly CellResult[], names: readonly string[], positionOf: (rowIndex: number) => number, positions: number): MetricTable | null {
    if (names.length === 0) return null;
    const metrics: MetricKey[] = ["pass_rate", ...names.map((name): MetricKey => `check:${name}`)];
    const groups = new GroupedRows<Float64Array>(positions);
    const correct = new Uint8Array(positions);
    for (const cell of cells) {
        const position = positionOf(cell.rowIndex);
        if (position < 0 || !cell.ok || cell.checks === undefined) continue;
        const results = names.map((name) => cell.checks!.find((check) => check.name === name));
        if (results.some((result) => result === undefined)) continue;
        const pass = results.every((result) => result!.pass) ? 1 : 0;
        const row = Float64Array.from([pass, ...results.map((result) => result!.score)]);
        correct[position] = pass;
        groups.add(position, row.join(","), () => row);
    }
    return {
        key: "checks",
        calibrated: false,
        metrics,
        used: groups.used(),
        evaluate: (at, counts) => weightedMeans(groups.members, groups.weigh(at, counts), metrics.length),
        correct,
        pairedOutcome: "pass_rate"
    };
}
