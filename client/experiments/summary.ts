import type {CellResult, CellUsage, Difference, ExperimentSpec, MetricValue, Prices, Variant, VariantSummary, ExperimentSummary} from "./types.ts";
import {type MetricTable, usedPositions} from "./metricTables.ts";
import {decisionTables, type DecisionAnswers, type DecisionDataset} from "./decisionTables.ts";
import {chatTable, checkNames} from "./chatTables.ts";
import {bootstrapIntervals, defaultResamples, mcnemarExact, medianAndP95, type ResampledStatistic} from "./stats.ts";
import {formatInterval, metricDefinition} from "./metricDefinitions.ts";
import {findDisagreements} from "./disagreements.ts";

// An experiment's results in numbers: per variant its metrics, usage, cost and latency; for every metric the
// difference between variants with a paired, seeded bootstrap 95% interval and a verdict in words; and the rows
// where the variants disagree. Pure: the app, the CLI and the HTML report all summarise through this function.

export type SummaryDataset = DecisionDataset;

export type SummaryOptions = {
    /** Dataset row indexes the experiment ran on (its sample), in order; default every row. */
    rowIndexes?: readonly number[],
    /** Bootstrap resamples; default 2000, fewer only where resamples × rows would pass `maxBootstrapWork`. */
    resamples?: number,
    /** Which variants are compared: the first against each other (default) or every pair. */
    pairs?: "first" | "all",
    /** Prices for variants on the local engine (`{profile: "local"}`) that carry none of their own. */
    localPrices?: Prices,
    /** Rows visited across all resamples before the resample count is lowered (the time a summary may take). */
    maxBootstrapWork?: number
};

/** Resamples never drop below this, however large the experiment: enough for stable 2.5% and 97.5% quantiles. */
export const minimumResamples = 300;
const defaultMaxBootstrapWork = 4e7;

type Positions = {count: number, positionOf: (rowIndex: number) => number};

function positionsOf(dataset: SummaryDataset, rowIndexes?: readonly number[]): Positions {
    const indexes = rowIndexes ?? dataset.rows.map((_row, index) => index);
    const map = new Int32Array(dataset.rows.length).fill(-1);
    indexes.forEach((rowIndex, position) => {
        if (rowIndex >= 0 && rowIndex < map.length) map[rowIndex] = position;
    });
    return {count: indexes.length, positionOf: (rowIndex) => rowIndex >= 0 && rowIndex < map.length ? map[rowIndex] : -1};
}

/** Summarises an experiment's cells (any subset: a running experiment's summary fills in as cells arrive). */
export function summarizeExperiment(spec: ExperimentSpec, dataset: SummaryDataset, cells: readonly CellResult[], options: SummaryOptions = {}): ExperimentSummary {
    const positions = positionsOf(dataset, options.rowIndexes);
    const byVariant = spec.variants.map(() => [] as CellResult[]);
    for (const cell of cells) if (positions.positionOf(cell.rowIndex) >= 0 && byVariant[cell.variant] !== undefined) byVariant[cell.variant].push(cell);
    const names = checkNames(cells);
    const warnings: string[] = [];
    const tables: MetricTable[][] = [];
    const answers: Array<DecisionAnswers[] | null> = [];
    spec.variants.forEach((variant, index) => {
        if (variant.version.prompt.kind === "decision") {
            const result = decisionTables(variant.version.prompt, byVariant[index], dataset, positions.positionOf, positions.count);
            tables.push(result.tables);
            answers.push(result.answers);
            warnings.push(...result.warnings.map((warning) => `${variant.name}: ${warning}`));
        } else {
            const table = chatTable(byVariant[index], names, positions.positionOf, positions.count);
            tables.push(table === null ? [] : [table]);
            answers.push(null);
        }
    });

    const variants = spec.variants.map((variant, index) => variantSummary(variant, index, byVariant[index], tables[index], positions.count, options.localPrices));
    const sides = new Map<MetricTable, Side>();
    const sideOf = (table: MetricTable) => sides.get(table) ?? sides.set(table, new Side(table)).get(table)!;
    const comparisons = pairsOf(spec.variants.length, options.pairs ?? "first").flatMap(([a, b]) => comparisonsOf(a, b, tables[a], tables[b], sideOf));
    // Rows visited per resample: each table once over all its rows, plus again per comparison on fewer rows.
    const work = [...sides.values()].reduce((sum, side) => sum + side.all.length, 0) +
        comparisons.reduce((sum, comparison) => sum + (comparison.common.length < comparison.sideA.all.length ? comparison.common.length : 0) + (comparison.common.length < comparison.sideB.all.length ? comparison.common.length : 0), 0);
    const requested = options.resamples ?? defaultResamples;
    const budget = Math.floor((options.maxBootstrapWork ?? defaultMaxBootstrapWork) / Math.max(1, work));
    const resamples = Math.max(Math.min(requested, minimumResamples), Math.min(requested, budget));
    // Every resample draws from all the sample's rows, shared by every comparison; each comparison reads the drawn
    // rows that both its variants used (all of them once the experiment has finished without errors).
    const intervals = bootstrapIntervals(positions.count, comparisons.map((comparison) => comparison.statistic), {seed: spec.seed, resamples});
    const differences = comparisons.flatMap((comparison, index) => differencesOf(comparison, intervals[index], spec.variants));
    const disagreements = findDisagreements(spec.variants.length, byVariant, answers, positions);
    return {rows: positions.count, variants, differences, disagreements, resamples, warnings};
}

function pairsOf(count: number, which: "first" | "all"): Array<[number, number]> {
    const pairs: Array<[number, number]> = [];
    for (let a = 0; a < count; a++) {
        for (let b = a + 1; b < count; b++) pairs.push([a, b]);
        if (which === "first") break;
    }
    return pairs;
}

function variantSummary(variant: Variant, index: number, cells: readonly CellResult[], tables: readonly MetricTable[], total: number, localPrices?: Prices): VariantSummary {
    const usage: CellUsage = {promptTokens: 0, completionTokens: 0, totalTokens: 0};
    const latencies: number[] = [];
    const done = new Set<number>();
    let errors = 0;
    for (const cell of cells) {
        done.add(cell.rowIndex);
        if (!cell.ok) errors++;
        else latencies.push(cell.latencyMs);
        usage.promptTokens += cell.usage?.promptTokens ?? 0;
        usage.completionTokens += cell.usage?.completionTokens ?? 0;
        usage.totalTokens += cell.usage?.totalTokens ?? 0;
    }
    const prices = variant.prices ?? ("profile" in variant.connection && variant.connection.profile === "local" ? localPrices : undefined);
    const cost = prices === undefined ? null : (usage.promptTokens * prices.inputPerMillion + usage.completionTokens * prices.outputPerMillion) / 1e6;
    const {p50, p95} = medianAndP95(latencies);
    const metrics = tables.flatMap((table): MetricValue[] => {
        const positions = usedPositions(table.used);
        const values = table.evaluate(positions, null);
        return table.metrics.map((metric, at) => ({
            metric,
            ...(table.question === undefined ? {} : {question: table.question}),
            calibrated: table.calibrated,
            value: Number.isFinite(values[at]) ? values[at] : null,
            n: positions.length,
            ...(metric === "ece" && table.reliability ? {reliability: table.reliability(positions)} : {})
        }));
    });
    return {variant: index, name: variant.name, done: done.size, total, errors, metrics, usage, cost, latencyP50Ms: p50, latencyP95Ms: p95};
}

/**
 * A table in the comparisons: its metrics on a resample over all its rows are kept for that resample, so the first
 * variant, compared with each of the others on the same rows (the usual case), is evaluated once per resample.
 */
class Side {
    public readonly all: Int32Array;
    private resample = -1;
    private values: Float64Array = new Float64Array(0);

    public constructor(public readonly table: MetricTable) {
        this.all = usedPositions(table.used);
    }

    public evaluate(at: Int32Array, counts: Int32Array, resample: number): Float64Array {
        if (at.length !== this.all.length) return this.table.evaluate(at, counts);
        if (resample !== this.resample) {
            this.values = this.table.evaluate(this.all, counts);
            this.resample = resample;
        }
        return this.values;
    }
}

type Comparison = {a: number, b: number, tableA: MetricTable, tableB: MetricTable, sideA: Side, sideB: Side, common: Int32Array, statistic: ResampledStatistic};

/** For each table both variants have: the rows both used, and B's metrics less A's on a resample of them. */
function comparisonsOf(a: number, b: number, tablesA: readonly MetricTable[], tablesB: readonly MetricTable[], sideOf: (table: MetricTable) => Side): Comparison[] {
    return tablesA.flatMap((tableA) => {
        const tableB = tablesB.find((candidate) => candidate.key === tableA.key && candidate.metrics.join() === tableA.metrics.join());
        if (tableB === undefined) return [];
        const common = usedPositions(tableA.used.map((flag, position) => flag & tableB.used[position]));
        const sideA = sideOf(tableA), sideB = sideOf(tableB);
        const statistic: ResampledStatistic = {
            width: tableA.metrics.length,
            evaluate: (counts, resample) => {
                const valuesA = sideA.evaluate(common, counts, resample), valuesB = sideB.evaluate(common, counts, resample);
                return valuesB.map((value, index) => value - valuesA[index]);
            }
        };
        return [{a, b, tableA, tableB, sideA, sideB, common, statistic}];
    });
}

function differencesOf(comparison: Comparison, intervals: ReadonlyArray<{low: number, high: number} | null>, variants: readonly Variant[]): Difference[] {
    const {a, b, tableA, tableB, common} = comparison;
    const valuesA = tableA.evaluate(common, null);
    const valuesB = tableB.evaluate(common, null);
    return tableA.metrics.map((metric, index): Difference => {
        const valueA = Number.isFinite(valuesA[index]) ? valuesA[index] : null;
        const valueB = Number.isFinite(valuesB[index]) ? valuesB[index] : null;
        const delta = valueA === null || valueB === null ? null : valueB - valueA;
        const interval = delta === null ? null : intervals[index];
        const higherIsBetter = metricDefinition(metric).higherIsBetter;
        let better: number | null = null;
        if (interval !== null && (interval.low > 0 || interval.high < 0)) better = (interval.low > 0) === higherIsBetter ? b : a;
        const difference: Difference = {
            metric,
            ...(tableA.question === undefined ? {} : {question: tableA.question}),
            calibrated: tableA.calibrated,
            a,
            b,
            n: common.length,
            delta,
            low: interval?.low ?? null,
            high: interval?.high ?? null,
            better,
            valueA,
            valueB,
            verdict: ""
        };
        if (metric === tableA.pairedOutcome) difference.mcnemar = mcnemarOf(comparison);
        difference.verdict = verdictText(difference, variants[better ?? a].name);
        return difference;
    });
}

function mcnemarOf({tableA, tableB, common}: Comparison): {onlyA: number, onlyB: number, pValue: number} {
    let onlyA = 0, onlyB = 0;
    for (const position of common) {
        const rightA = tableA.correct[position], rightB = tableB.correct[position];
        if (rightA > rightB) onlyA++;
        else if (rightB > rightA) onlyB++;
    }
    return {onlyA, onlyB, pValue: mcnemarExact(onlyA, onlyB)};
}

/**
 * "B is better by 0.06 (0.02–0.10)": the gain in the better variant's favour (for a lower-is-better metric, how
 * much lower), with its interval; else "no clear difference on 50 rows".
 */
export function verdictText(difference: Pick<Difference, "metric" | "a" | "b" | "n" | "delta" | "low" | "high" | "better">, betterName: string): string {
    const {delta, low, high, better, n} = difference;
    const rows = `${n} ${n === 1 ? "row" : "rows"}`;
    if (delta === null || low === null || high === null) return `not enough rows to compare (${rows})`;
    if (better === null) return `no clear difference on ${rows}`;
    // The gain is B less A when B is better on a higher-is-better metric or A is better on a lower-is-better one.
    const sign = (better === difference.b) === metricDefinition(difference.metric).higherIsBetter ? 1 : -1;
    const [gainLow, gainHigh] = sign === 1 ? [low, high] : [-high, -low];
    return `${betterName} is better by ${formatInterval(sign * delta, gainLow, gainHigh)}`;
}
