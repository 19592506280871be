import type {CellResult, CellUsage, Difference, ExperimentSpec, MetricValue, Prices, Variant, VariantSummary, ExperimentSummary} from "./types.ts";
import {evaluateLanes, type MetricTable, usedPositions} from "./metricTables.ts";
import type {PackedCounts} from "./resampleLanes.ts";
import type {DecisionDataset} from "./decisionTables.ts";
import {positionsOf, variantTables, type Positions} from "./variantTables.ts";
import {bootstrapIntervals, defaultResamples, holm, medianAndP95, pairedExact, wilsonInterval, type Interval, type ResampledStatistic} from "./stats.ts";
import {metricDefinition} from "./metricDefinitions.ts";
import {findDisagreements} from "./disagreements.ts";
import {detectableDifference} from "./power.ts";
import {verdictText} from "./verdictText.ts";
import {clusterDegrees, clusteredPaired, clusteredRate, clustersOf, clusterWarnings, fewClusters, waldInterval, type Clusters} from "./clusters.ts";
import {graderAgreements} from "./graderAgreement.ts";
import {repeatsOf, rowClusters} from "./repeats.ts";
import {repeatStats} from "./repeatStats.ts";

// An experiment's results in numbers: per variant its metrics, usage, cost and latency; for every metric the
// difference between compared variants with a 95% interval and a verdict in words; and the rows where the variants
// disagree. Pass / fail metrics are compared with McNemar's exact test and the conditional exact interval that goes
// with it, so verdict and test never disagree; the other metrics with a paired, seeded bootstrap. One primary
// metric per comparison decides which variant is better, with Holm's correction when there are several
// comparisons; the rest are secondary. Pure: the app, the CLI and the HTML report all summarise through this.

export type SummaryDataset = DecisionDataset;

export type SummaryOptions = {
    /** Dataset row indexes the experiment ran on (its sample), in order; default every row. */
    rowIndexes?: readonly number[],
    /** Bootstrap resamples; default 2000, fewer only where resamples × rows would pass `maxBootstrapWork`. */
    resamples?: number,
    /**
     * Which variants are compared: "first" (default), per kind (question sets, chat prompts) the first variant of
     * that kind against each other variant of that kind; "all", every pair of variants that share a metric.
     */
    pairs?: PairChoice,
    /** Prices for variants on the local engine (`{profile: "local"}`) that carry none of their own. */
    localPrices?: Prices,
    /**
     * Rows visited across all resamples (each table once per resample) before the resample count is lowered, to bound
     * the time a summary may take: by default 2,000 resamples up to 100,000 rows × 20 tables (variants × questions).
     */
    maxBootstrapWork?: number
};

/** Family-wise level of the verdicts, and the coverage of an interval that is not a corrected primary one. */
const alpha = 0.05;
const defaultLevel = 1 - alpha;

/** Resamples never drop below this, however large the experiment: enough for stable 2.5% and 97.5% quantiles. */
export const minimumResamples = 300;
const defaultMaxBootstrapWork = 4e9;

/** Summarises an experiment's cells (any subset: a running experiment's summary fills in as cells arrive). */
export function summarizeExperiment(spec: ExperimentSpec, dataset: SummaryDataset, cells: readonly CellResult[], options: SummaryOptions = {}): ExperimentSummary {
    const repeats = repeatsOf(spec);
    const positions = positionsOf(dataset, options.rowIndexes, repeats);
    const {byVariant, tables, answers, graders: graderNames, warnings} = variantTables(spec, dataset, cells, positions);
    const clusterColumn = spec.cluster === undefined ? -1 : dataset.columns.indexOf(spec.cluster);
    const columnClusters = clusterColumn < 0 ? undefined : clustersOf(dataset.rows, options.rowIndexes ?? dataset.rows.map((_row, index) => index), clusterColumn, spec.cluster!);
    // A row's repeats are one cluster (within the cluster column's, when there is one): intervals resample rows
    // with all their answers, and tests use the variance clustered by row.
    const clusters = rowClusters(columnClusters, positions.rows, repeats);

    const variants = spec.variants.map((variant, index) => variantSummary(variant, index, byVariant[index], tables[index], positions, options.localPrices, clusters, columnClusters !== undefined));
    if (columnClusters !== undefined) warnings.push(...clusterWarnings(columnClusters, variants));
    else if (repeats > 1 && positions.rows < fewClusters)
        warnings.push(`The ${positions.rows} rows were each asked ${repeats} times: a row's answers count as one cluster, and with fewer than ${fewClusters} rows its intervals and tests are rough.`);
    if (repeats > 1) {
        variants.forEach((summary, index) => {
            if (spec.variants[index].version.prompt.kind === "chat" && byVariant[index].length > 0)
                summary.repeats = repeatStats(byVariant[index], repeats, (cell) => positions.rowPositionOf(cell.rowIndex), graderNames);
        });
    }
    // Graders with human labels: each chat variant's graded replies measured against the people.
    variants.forEach((summary, index) => {
        const graders = spec.variants[index].version.prompt.kind === "chat" ? graderAgreements(spec, dataset, byVariant[index]) : [];
        if (graders.length > 0) summary.graders = graders;
    });
    const sides = new Map<MetricTable, Side>();
    const sideOf = (table: MetricTable) => sides.get(table) ?? sides.set(table, new Side(table)).get(table)!;
    const pairs = pairsOf(spec.variants, options.pairs ?? "first");
    const comparisons = pairs.flatMap(([a, b]) => comparisonsOf(a, b, tables[a], tables[b], sideOf));
    // Only tables with a metric other than pass / fail ones need the bootstrap.
    const resampled = comparisons.filter((comparison) => comparison.tableA.metrics.some((metric) => !comparison.tableA.outcomes.has(metric)));
    // Rows visited per resample: each table once over all its rows, plus again per comparison on fewer rows.
    const resampledSides = new Set(resampled.flatMap((comparison) => [comparison.sideA, comparison.sideB]));
    const work = [...resampledSides].reduce((sum, side) => sum + side.all.length, 0) +
        resampled.reduce((sum, comparison) => sum + (comparison.common.length < comparison.sideA.all.length ? comparison.common.length : 0) + (comparison.common.length < comparison.sideB.all.length ? comparison.common.length : 0), 0);
    const requested = options.resamples ?? defaultResamples;
    const budget = Math.floor((options.maxBootstrapWork ?? defaultMaxBootstrapWork) / Math.max(1, work));
    const resamples = Math.max(Math.min(requested, minimumResamples), Math.min(requested, budget));
    // Every resample draws from all the sample's rows, shared by every comparison; each comparison reads the drawn
    // rows that both its variants used (all of them once the experiment has finished without errors).
    const intervals = bootstrapIntervals(positions.count, resampled.map((comparison) => comparison.statistic), {seed: spec.seed, resamples, ...(clusters === undefined ? {} : {clusters})});
    const intervalsOf = new Map(resampled.map((comparison, index) => [comparison, intervals[index]]));
    const primaries = new Set(pairs.flatMap(([a, b]) => {
        const primary = comparisons.find((comparison) => comparison.a === a && comparison.b === b && comparison.tableA.outcomes.has(primaryMetricOf(comparison)) && !comparison.tableA.calibrated);
        return primary === undefined ? [] : [primary];
    }));
    const differences = comparisons.flatMap((comparison) => differencesOf(comparison, intervalsOf.get(comparison) ?? null, primaries.has(comparison) ? primaryMetricOf(comparison) : null, clusters));
    correctPrimaries(differences);
    for (const difference of differences) {
        if (repeats > 1) difference.repeats = repeats;
        difference.provisional = variants[difference.a].done < positions.count || variants[difference.b].done < positions.count;
        const detectable = detectableDifference(difference);
        if (detectable !== undefined) difference.detectable = detectable;
        difference.verdict = verdictText(difference, spec.variants.map((variant) => variant.name), positions.count);
    }
    const compared = pairs.filter(([a, b]) => comparisons.some((comparison) => comparison.a === a && comparison.b === b)).map(([a, b]) => ({a, b}));
    const disagreements = findDisagreements(spec.variants.length, byVariant, answers, positions);
    return {rows: positions.rows, ...(repeats > 1 ? {repeats} : {}), comparisons: compared, comparedText: comparedText(spec.variants, pairs, compared, options.pairs ?? "first"), variants, differences, disagreements, resamples,
        ...(columnClusters === undefined ? {} : {clustering: {column: columnClusters.column, clusters: columnClusters.members.length}}), warnings};
}

/** Question sets and chat (or Responses) prompts: variants of one kind share metrics, of two kinds none. */
function kindOf(variant: Variant): "decision" | "chat" {
    return variant.version.prompt.kind;
}

/**
 * Which variants are compared: "first", per kind, the first variant of the kind with each later one of it; "all",
 * every pair; or the pairs given, [a, b] each (B's metric less A's), e.g. a variant with its namesake in another run.
 */
export type PairChoice = "first" | "all" | ReadonlyArray<readonly [number, number]>;

/** The pairs compared, B after A (those sharing no metric are dropped later). */
function pairsOf(variants: readonly Variant[], which: PairChoice): Array<[number, number]> {
    if (typeof which !== "string") return which.filter(([a, b]) => a !== b && variants[a] !== undefined && variants[b] !== undefined).map(([a, b]) => [a, b]);
    const pairs: Array<[number, number]> = [];
    for (let a = 0; a < variants.length; a++) {
        const baseline = which === "all" || variants.findIndex((variant) => kindOf(variant) === kindOf(variants[a])) === a;
        if (!baseline) continue;
        for (let b = a + 1; b < variants.length; b++) if (which === "all" || kindOf(variants[b]) === kindOf(variants[a])) pairs.push([a, b]);
    }
    return pairs;
}

const kindNames = {decision: "question sets", chat: "chat prompts"} as const;

/** Names joined for a sentence: "B", "B and C", "B, C and D". */
function joinNames(names: readonly string[]): string {
    return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** What was compared with what, for the screen, the report and the CLI; "" with fewer than two variants. */
function comparedText(variants: readonly Variant[], pairs: ReadonlyArray<[number, number]>, compared: ReadonlyArray<{a: number, b: number}>, which: PairChoice): string {
    if (variants.length < 2) return "";
    const name = (index: number) => variants[index].name;
    const sentences: string[] = [];
    if (compared.length === 0) sentences.push("Nothing compared: no two variants share a metric.");
    else if (typeof which !== "string") sentences.push(`Compared: ${compared.map(({a, b}) => `${name(b)} with ${name(a)}`).join(", ")}.`);
    else if (which === "all") sentences.push(`Every pair of variants that share a metric is compared: ${compared.map(({a, b}) => `${name(b)} with ${name(a)}`).join(", ")}.`);
    else {
        const baselines = [...new Set(compared.map(({a}) => a))];
        const groups = baselines.map((a) => `${joinNames(compared.filter((pair) => pair.a === a).map(({b}) => name(b)))} with ${name(a)} (${kindNames[kindOf(variants[a])]})`);
        sentences.push(`Each variant is compared with the first variant of its kind: ${groups.join("; ")}.`);
    }
    const missed = pairs.filter(([a, b]) => kindOf(variants[a]) === kindOf(variants[b]) && !compared.some((pair) => pair.a === a && pair.b === b));
    if (missed.length > 0) sentences.push(`Not compared, no metric in common: ${missed.map(([a, b]) => `${name(b)} with ${name(a)}`).join(", ")}.`);
    if (new Set(variants.map(kindOf)).size > 1) sentences.push("Question sets and chat prompts share no metric and are not compared with each other.");
    const kinds = new Set(compared.map(({a}) => kindOf(variants[a])));
    const primaries = [...(kinds.has("decision") ? ["the first question's accuracy, uncalibrated (question sets)"] : []), ...(kinds.has("chat") ? ["the pass rate (chat prompts)"] : [])];
    if (primaries.length > 0) sentences.push(`Primary metric, which decides: ${primaries.join("; ")}; the others are secondary.`);
    return sentences.join(" ");
}

/**
 * A variant's metrics, usage, cost and latency. `done` and `total` count answers (rows × repeats). With
 * `clusters` a rate's interval is clustered; its design effect is shown only for a cluster column
 * (`showDesignEffect`): with repeats alone, the noise split says what the repeats did.
 */
function variantSummary(variant: Variant, index: number, cells: readonly CellResult[], tables: readonly MetricTable[], positions: Positions, localPrices: Prices | undefined, clusters: Clusters | undefined, showDesignEffect: boolean): VariantSummary {
    const usage: CellUsage = {promptTokens: 0, completionTokens: 0, totalTokens: 0};
    const latencies: number[] = [];
    const total = positions.count;
    const answered = new Uint8Array(total);
    let errors = 0, done = 0;
    for (const cell of cells) {
        const position = positions.positionOf(cell.rowIndex, cell.repeat);
        if (position >= 0 && answered[position] === 0) {
            answered[position] = 1;
            done++;
        }
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
        return table.metrics.map((metric, at) => {
            const outcome = table.outcomes.get(metric);
            const value = Number.isFinite(values[at]) ? values[at] : null;
            const rate = outcome === undefined || value === null || positions.length === 0 ? null
                : clusters === undefined ? {interval: wilsonInterval(successes(outcome, positions), positions.length, defaultLevel), designEffect: null}
                : clusteredRate(outcome, positions, clusters, defaultLevel);
            return {
                metric,
                ...(table.question === undefined ? {} : {question: table.question}),
                ...(table.kind === undefined ? {} : {kind: table.kind}),
                calibrated: table.calibrated,
                value,
                n: positions.length,
                ...(rate === null ? {} : {interval: rate.interval}),
                ...(rate?.designEffect == null || !showDesignEffect ? {} : {designEffect: rate.designEffect}),
                ...(metric === "ece" && table.reliability ? {reliability: table.reliability(positions)} : {})
            };
        });
    });
    return {variant: index, name: variant.name, done, total, errors, metrics, usage, cost, latencyP50Ms: p50, latencyP95Ms: p95};
}

/** Rows right or passed among `positions`, from a pass / fail metric's per-row outcome. */
function successes(outcome: Uint8Array, positions: Int32Array): number {
    let count = 0;
    for (const position of positions) count += outcome[position];
    return count;
}

/**
 * A table in the comparisons: its metrics on a batch of resamples over all its rows are kept for that batch, so the
 * first variant, compared with each of the others on the same rows (the usual case), is evaluated once per batch.
 */
class Side {
    public readonly all: Int32Array;
    private batch = -1;
    private values: Float64Array[] = [];

    public constructor(public readonly table: MetricTable) {
        this.all = usedPositions(table.used);
    }

    public evaluate(at: Int32Array, counts: PackedCounts): Float64Array[] {
        if (at.length !== this.all.length) return evaluateLanes(this.table, at, counts);
        if (counts.first !== this.batch) {
            this.values = evaluateLanes(this.table, this.all, counts);
            this.batch = counts.first;
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
            evaluateLanes: (counts) => {
                const lanesA = sideA.evaluate(common, counts), lanesB = sideB.evaluate(common, counts);
                return lanesB.map((valuesB, lane) => valuesB.map((value, index) => value - lanesA[lane][index]));
            }
        };
        return [{a, b, tableA, tableB, sideA, sideB, common, statistic}];
    });
}

/** The metric that decides a comparison: pass_rate between chat variants, accuracy between decision variants. */
function primaryMetricOf(comparison: Comparison): "pass_rate" | "accuracy" {
    return comparison.tableA.outcomes.has("pass_rate") ? "pass_rate" : "accuracy";
}

/** The variant on whose side an interval lies (B when it is above 0 on a higher-is-better metric), else null. */
function favoured(interval: Interval | null, higherIsBetter: boolean, a: number, b: number): number | null {
    if (interval === null || !(interval.low > 0 || interval.high < 0)) return null;
    return (interval.low > 0) === higherIsBetter ? b : a;
}

/** Rows only A passed (or got right) and only B, among the rows both have. */
function discordance(outcomeA: Uint8Array, outcomeB: Uint8Array, common: Int32Array): {onlyA: number, onlyB: number} {
    let onlyA = 0, onlyB = 0;
    for (const position of common) {
        if (outcomeA[position] > outcomeB[position]) onlyA++;
        else if (outcomeB[position] > outcomeA[position]) onlyB++;
    }
    return {onlyA, onlyB};
}

function differencesOf(comparison: Comparison, intervals: ReadonlyArray<Interval | null> | null, primaryMetric: string | null, clusters?: Clusters): Difference[] {
    const {a, b, tableA, tableB, common} = comparison;
    const valuesA = tableA.evaluate(common, null);
    const valuesB = tableB.evaluate(common, null);
    return tableA.metrics.map((metric, index): Difference => {
        const valueA = Number.isFinite(valuesA[index]) ? valuesA[index] : null;
        const valueB = Number.isFinite(valuesB[index]) ? valuesB[index] : null;
        const delta = valueA === null || valueB === null ? null : valueB - valueA;
        const outcomeA = tableA.outcomes.get(metric), outcomeB = tableB.outcomes.get(metric);
        const exact = outcomeA !== undefined && outcomeB !== undefined;
        let interval: Interval | null = null;
        let mcnemar: Difference["mcnemar"];
        // With clusters, a pass / fail difference is tested on its clustered variance, unless no row differs.
        const clustered = exact && clusters !== undefined ? clusteredPaired(outcomeA, outcomeB, common, clusters) : null;
        const robust = clustered !== null && clustered.standardError > 0 ? clustered : null;
        if (exact) {
            const {onlyA, onlyB} = discordance(outcomeA, outcomeB, common);
            const paired = pairedExact(onlyA, onlyB, common.length, defaultLevel);
            mcnemar = {onlyA, onlyB, pValue: paired.pValue};
            if (delta !== null) interval = robust === null ? {low: paired.low, high: paired.high} : waldInterval(robust.delta, robust.standardError, defaultLevel, clusterDegrees(robust.clusters));
        } else if (delta !== null) interval = intervals?.[index] ?? null;
        const difference: Difference = {
            metric,
            ...(tableA.question === undefined ? {} : {question: tableA.question}),
            ...(tableA.kind === undefined ? {} : {kind: tableA.kind}),
            calibrated: tableA.calibrated,
            a,
            b,
            n: common.length,
            delta,
            low: interval?.low ?? null,
            high: interval?.high ?? null,
            level: defaultLevel,
            method: robust !== null ? "cluster" : exact ? "exact" : "bootstrap",
            better: favoured(interval, metricDefinition(metric).higherIsBetter, a, b),
            primary: metric === primaryMetric,
            provisional: false,
            valueA,
            valueB,
            verdict: ""
        };
        if (mcnemar !== undefined) difference.mcnemar = mcnemar;
        if (robust !== null) difference.clustered = {pValue: robust.pValue, standardError: robust.standardError, clusters: robust.clusters};
        return difference;
    });
}

/**
 * Holm's correction over the comparisons' primary tests, when there are several: each primary difference gets its
 * adjusted p-value and the interval at the level of its Holm step (stats.ts holm), so that its interval excludes 0
 * exactly when the corrected test rejects, and `better` follows.
 */
function correctPrimaries(differences: readonly Difference[]): void {
    const tested = differences.filter((difference) => difference.primary && difference.delta !== null && difference.mcnemar !== undefined);
    if (tested.length < 2) return;
    const corrected = holm(tested.map((difference) => difference.clustered?.pValue ?? difference.mcnemar!.pValue), alpha);
    tested.forEach((difference, index) => {
        const {onlyA, onlyB} = difference.mcnemar!;
        const paired = difference.clustered === undefined ? pairedExact(onlyA, onlyB, difference.n, corrected[index].level)
            : waldInterval(difference.delta!, difference.clustered.standardError, corrected[index].level, clusterDegrees(difference.clustered.clusters));
        difference.low = paired.low;
        difference.high = paired.high;
        difference.level = corrected[index].level;
        difference.better = favoured(paired, true, difference.a, difference.b);
        difference.holm = {comparisons: tested.length, pValue: corrected[index].adjusted};
    });
}
