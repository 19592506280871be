import type {CellResult, MetricKey} from "./types.ts";
import type {MetricTable} from "./metricTables.ts";
import {RowPatterns} from "./rowPatterns.ts";
import {passMetric, scoreMetric} from "./metricDefinitions.ts";
import type {Positions} from "./variantTables.ts";

// A chat or Responses variant's check results as two tables. Pass / fail: pass_rate (every check passed) and, per
// check, `pass:<name>` (the share of rows whose reply passed it); a cell that ended in an error (a 400, a timeout)
// is a row that passed nothing, so errors lower these shares instead of leaving the denominator. Scores: per
// grader, `score:<name>`, the mean of its P(yes) over the replies it graded; an errored row has no score and is
// left out (its n says so).

/** Check names in the order they first appear across the cells. */
export function checkNames(cells: readonly CellResult[]): string[] {
    const names = new Set<string>();
    for (const cell of cells) for (const check of cell.checks ?? []) names.add(check.name);
    return [...names];
}

/** Each metric's weighted mean over the groups (each `width` values in `values`): pass_rate is the mean of 1 (passed all) / 0. */
function weightedMeans(values: Float64Array, weights: Float64Array, width: number): Float64Array {
    const sums = new Float64Array(width);
    let total = 0;
    for (let group = 0; group < weights.length; group++) {
        const weight = weights[group];
        if (weight === 0) continue;
        total += weight;
        for (let metric = 0; metric < width; metric++) sums[metric] += weight * values[group * width + metric];
    }
    return sums.map((sum) => total === 0 ? Number.NaN : sum / total);
}

/** 1 where a position has a group, else 0. */
function usedOf(groupOf: Int32Array): Uint8Array {
    const used = new Uint8Array(groupOf.length);
    for (let position = 0; position < groupOf.length; position++) used[position] = groupOf[position] >= 0 ? 1 : 0;
    return used;
}

/** A table of weighted means over rows grouped by their values (rowPatterns.ts: rows with the same values share a group). */
function meansTable(key: string, metrics: MetricKey[], groups: RowPatterns, outcomes: ReadonlyMap<MetricKey, Uint8Array>): MetricTable {
    return {
        key,
        calibrated: false,
        metrics,
        used: usedOf(groups.of),
        evaluate: (at, counts) => weightedMeans(groups.values, groups.weigh(at, counts), metrics.length),
        evaluateLanes: (at, counts) => groups.weighLanes(at, counts).map((weights) => weightedMeans(groups.values, weights, metrics.length)),
        outcomes
    };
}

/**
 * The chat tables of a variant's cells for the checks `names`, of which `graders` are graders: the pass / fail
 * table (pass_rate, then `pass:<name>` per check; every row with a result, an errored one failing every check),
 * and, when there are graders, the score table (`score:<name>` per grader, over the rows whose reply was graded).
 * Empty when there are no checks. A reply missing one of the checks' results is left out of both.
 */
export function chatTables(cells: readonly CellResult[], names: readonly string[], graders: ReadonlySet<string>, {positionOf, count: positions}: Pick<Positions, "positionOf" | "count">): MetricTable[] {
    if (names.length === 0) return [];
    const scored = names.filter((name) => graders.has(name));
    const passMetrics: MetricKey[] = ["pass_rate", ...names.map(passMetric)];
    const passGroups = new RowPatterns(positions, passMetrics.length), scoreGroups = new RowPatterns(positions, Math.max(1, scored.length));
    const passed = passMetrics.map(() => new Uint8Array(positions));
    // One row's check results, pass / fail metrics and grader scores, reused: a pattern keeps its own copy.
    const results = new Array<NonNullable<CellResult["checks"]>[number]>(names.length);
    const row = new Float64Array(passMetrics.length), scores = new Float64Array(Math.max(1, scored.length));
    const scoredAt = scored.map((name) => names.indexOf(name));
    for (const cell of cells) {
        const position = positionOf(cell.rowIndex, cell.repeat);
        if (position < 0) continue;
        if (!cell.ok) {
            passGroups.add(position, new Float64Array(passMetrics.length));
            continue;
        }
        if (cell.checks === undefined) continue;
        // The check results in the order of `names` (a cell usually holds them in that order already).
        let complete = true;
        for (let index = 0; index < names.length && complete; index++) {
            const check = cell.checks[index]?.name === names[index] ? cell.checks[index] : cell.checks.find((candidate) => candidate.name === names[index]);
            if (check === undefined) complete = false;
            else results[index] = check;
        }
        if (!complete) continue;
        let all = 1;
        for (let index = 0; index < names.length; index++) {
            row[index + 1] = results[index].pass ? 1 : 0;
            all &= row[index + 1];
        }
        row[0] = all;
        for (let metric = 0; metric < row.length; metric++) passed[metric][position] = row[metric];
        passGroups.add(position, row);
        if (scored.length > 0) {
            for (let index = 0; index < scored.length; index++) scores[index] = results[scoredAt[index]].score;
            scoreGroups.add(position, scores);
        }
    }
    const tables = [meansTable("checks", passMetrics, passGroups, new Map(passMetrics.map((metric, index) => [metric, passed[index]])))];
    if (scored.length > 0) tables.push(meansTable("scores", scored.map(scoreMetric), scoreGroups, new Map()));
    return tables;
}
