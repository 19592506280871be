import type {ExperimentSummary, MetricKey} from "./types.ts";
import {binomialCdf, holm} from "./stats.ts";
import {isPassFailMetric, metricTitle} from "./metricDefinitions.ts";
import {outcomeTable, type PreparedRun} from "./rowOutcomes.ts";

// This run against an approved earlier one (`svc-studio eval --baseline <results> --no-regression`): for each gated
// pass / fail metric, the rows both runs have (matched by their stable row key, rowOutcomes.ts) are paired, and the
// metric regressed only when McNemar's exact test, one-sided, says this run is worse: of the paired rows where the
// two runs differ, the baseline alone right on `regressed` and this run alone on `improved`, p = P(X ≥ regressed)
// for X ~ Binomial(regressed + improved, ½). Holm's step-down keeps the chance of any false "regressed" across all
// the gated metrics at α, so noise passes and a real drop fails. Rows only one run has are reported, never dropped
// silently.

/** What one regression test is on: a variant of this run (its namesake in the baseline), a metric, a question. */
export type RegressionTarget = {variant: number, metric: MetricKey, question: string | null};

export type RegressionTest = RegressionTarget & {
    /** "B · urgent · Accuracy". */
    title: string,
    /** Rows both runs have with a result for the metric. */
    rows: number,
    /** Of those: right (passed) in the baseline only, in this run only, and alike. */
    regressed: number,
    improved: number,
    unchanged: number,
    /** The metric on the paired rows, baseline and this run. */
    baselineValue: number | null,
    currentValue: number | null,
    /** One-sided exact p-value (this run worse), and Holm-adjusted over every test. */
    pValue: number,
    adjusted: number,
    /** Significantly worse after Holm's correction: the gate fails. */
    significant: boolean,
    /** Matched rows without a result for the metric on one side (an errored or unlabelled decision row). */
    unpaired: number,
    /** Why the test could not be made (no namesake variant, no such metric in the baseline): the gate fails. */
    problem?: string
};

export type BaselineComparison = {
    tests: RegressionTest[],
    /** Rows of both samples with the same key. */
    matched: number,
    /** 1-based dataset row numbers of the baseline's rows this run lacks, and of this run's rows the baseline lacks. */
    onlyInBaseline: number[],
    onlyInCurrent: number[],
    alpha: number
};

/** P(X ≥ worse) for X ~ Binomial(worse + better, ½): the exact one-sided McNemar p-value that the second run is worse. */
export function oneSidedMcnemar(worse: number, better: number): number {
    const m = worse + better;
    if (m === 0 || worse === 0) return 1;
    // P(X ≥ worse) = P(m − X ≤ m − worse), and m − X is Binomial(m, ½) too: the tail read directly, never as 1 − a sum.
    return Math.min(1, binomialCdf(m - worse, m, 0.5));
}

/**
 * Every pass / fail metric (accuracy per question, pass_rate, each check's pass share) each variant of a run measured,
 * as its summary lists them: what the app tests against a pinned baseline, all in one Holm family.
 */
export function baselineTargets(summary: ExperimentSummary): RegressionTarget[] {
    return summary.variants.flatMap((variant) => variant.metrics
        .filter((value) => !value.calibrated && isPassFailMetric(value.metric))
        .map((value) => ({variant: variant.variant, metric: value.metric, question: value.question ?? null})));
}

function title(run: PreparedRun, target: RegressionTarget): string {
    return `${run.spec.variants[target.variant]?.name ?? target.variant} · ${metricTitle(target.metric, target.question ?? undefined)}`;
}

/** Each target tested against the baseline, with Holm's correction over all of them at `alpha`. */
export function compareWithBaseline(current: PreparedRun, baseline: PreparedRun, targets: readonly RegressionTarget[], alpha = 0.05): BaselineComparison {
    const baselineByKey = new Map(baseline.keys.map((key, position) => [key, position]));
    const currentKeys = new Set(current.keys);
    const pairs = current.keys.flatMap((key, position) => {
        const other = baselineByKey.get(key);
        return other === undefined ? [] : [[position, other] as const];
    });
    const tests = targets.map((target): RegressionTest => {
        const base = {...target, title: title(current, target), rows: 0, regressed: 0, improved: 0, unchanged: 0, baselineValue: null, currentValue: null, pValue: 1, adjusted: 1, significant: false, unpaired: 0};
        const name = current.spec.variants[target.variant]?.name;
        const baselineVariant = baseline.spec.variants.findIndex((variant) => variant.name === name);
        if (baselineVariant < 0) return {...base, problem: `the baseline has no variant ${JSON.stringify(name)} (its variants: ${baseline.spec.variants.map((variant) => variant.name).join(", ")})`};
        // McNemar's test pairs one outcome per row; a row asked several times has a share of passes instead.
        if (current.positions.repeats > 1 || baseline.positions.repeats > 1) return {...base, problem: `${current.positions.repeats > 1 ? "this run" : "the baseline"} asks each row ${Math.max(current.positions.repeats, baseline.positions.repeats)} times, and the regression test pairs one answer per row: compare runs without repeats`};
        const mine = outcomeTable(current, target.variant, target.metric, target.question);
        const theirs = outcomeTable(baseline, baselineVariant, target.metric, target.question);
        if (mine === null) return {...base, problem: "this run did not measure it"};
        if (theirs === null) return {...base, problem: "the baseline did not measure it"};
        let regressed = 0, improved = 0, unchanged = 0, unpaired = 0, baselineRight = 0, currentRight = 0;
        for (const [position, other] of pairs) {
            if (mine.used[position] !== 1 || theirs.used[other] !== 1) {
                if (mine.used[position] === 1 || theirs.used[other] === 1) unpaired++;
                continue;
            }
            const now = mine.outcome[position], before = theirs.outcome[other];
            baselineRight += before;
            currentRight += now;
            if (before > now) regressed++;
            else if (now > before) improved++;
            else unchanged++;
        }
        const rows = regressed + improved + unchanged;
        return {...base, rows, regressed, improved, unchanged, unpaired, pValue: oneSidedMcnemar(regressed, improved),
            baselineValue: rows === 0 ? null : baselineRight / rows, currentValue: rows === 0 ? null : currentRight / rows};
    });
    const tested = tests.filter((test) => test.problem === undefined);
    holm(tested.map((test) => test.pValue), alpha).forEach((result, index) => {
        tested[index].adjusted = result.adjusted;
        tested[index].significant = result.rejected && tested[index].regressed > tested[index].improved;
    });
    return {
        tests,
        matched: pairs.length,
        onlyInBaseline: baseline.keys.flatMap((key, position) => currentKeys.has(key) ? [] : [baseline.rowIndexes[position] + 1]),
        onlyInCurrent: current.keys.flatMap((key, position) => baselineByKey.has(key) ? [] : [current.rowIndexes[position] + 1]),
        alpha
    };
}
