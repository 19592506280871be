import type {InputProblem} from "../dataset.ts";
import {compareWithBaseline, type BaselineComparison, type RegressionTarget} from "../baseline.ts";
import {prepareRun, RowKeyError, rowKeys, rowsPassed, type PreparedRun} from "../rowOutcomes.ts";
import {evaluateThresholds, parseThreshold, ThresholdError, type Threshold} from "../thresholds.ts";
import {formatMetric, formatPValue, isPassFailMetric} from "../metricDefinitions.ts";
import {questionInfos, parseQuestionSet} from "../../scoring/questions.ts";
import type {CellResult, Dataset, ExperimentSpec, ExperimentSummary} from "../types.ts";
import type {EvalArgs} from "./evalArgs.ts";
import {readRunFile} from "./evalRuns.ts";
import {rowPassesMessage, rowPassesProblem, rowPassesShortfalls} from "./rowPassesGate.ts";
import {repeatsOf} from "../repeats.ts";

// eval's gates beyond --fail-under, read and checked before anything is sent, then checked on the finished run:
// --fail-under-bound (a rate's Wilson bound), --baseline with --no-regression (one-sided paired tests under Holm's
// correction, rows matched by --row-key), --required (rows that must pass), and --filter-failing (only the rows
// that failed in an earlier results file). Every gate's outcome is one GateResult, which the console, --junit,
// --json and --summary-md all read.

export type GateResult = {
    /** What the gate is, as the person typed it or in words: "pass_rate=0.9", "no regression: B · Pass rate". */
    name: string,
    kind: "threshold" | "bound" | "regression" | "required" | "repeats" | "errors",
    ok: boolean,
    message: string
};

/** A required row's outcome for one variant. */
export type RequiredRow = {variant: string, row: number, ok: boolean, reason: string};

/** What the gates need before the run, found from the arguments, the experiment and the files they name. */
export type GatePlan = {
    thresholds: Threshold[],
    baseline: {file: string, run: PreparedRun, targets: RegressionTarget[]} | null,
    required: string | null,
    /** --row-passes: the answers of K each row must pass. */
    rowPasses: number | null,
    rowKey: string | undefined,
    /** With --filter-failing: the sample's rows that failed there, and what to say about them. */
    filtered: {rows: number[], note: string} | null
};

/**
 * What --no-regression checks: each named metric (`[variant:]metric[@question]`, pass / fail metrics only) where
 * it applies; bare, each variant's primary metric (chat: pass_rate; question sets: the first question's accuracy).
 */
function regressionTargets(names: readonly string[], spec: ExperimentSpec, dataset: Dataset, problems: InputProblem[]): RegressionTarget[] {
    const targets: RegressionTarget[] = [];
    const add = (target: RegressionTarget) => {
        if (!targets.some((item) => item.variant === target.variant && item.metric === target.metric && item.question === target.question)) targets.push(target);
    };
    for (const name of names) {
        if (name === "") {
            spec.variants.forEach((variant, index) => {
                const prompt = variant.version.prompt;
                if (prompt.kind !== "decision") return add({variant: index, metric: "pass_rate", question: null});
                try {
                    const first = questionInfos(parseQuestionSet(prompt.questionSet).normalized)[0];
                    if (first !== undefined && dataset.columns.includes(first.name)) add({variant: index, metric: "accuracy", question: first.name});
                } catch {
                    // A question set that does not parse is the input checks' to report.
                }
            });
            continue;
        }
        try {
            const gate = parseThreshold(`${name}=0`, spec, dataset);
            const metric = gate.metric;
            if (metric === "error_rate" || !isPassFailMetric(metric)) {
                problems.push({path: `--no-regression ${name}`, message: `${metric} is not a pass/fail metric: regressions are tested on accuracy, pass_rate and pass:<check>, row by row`});
                continue;
            }
            for (const {variant, questions} of gate.scope) for (const question of questions ?? [null]) add({variant, metric, question});
        } catch (error) {
            if (!(error instanceof ThresholdError)) throw error;
            problems.push({path: `--no-regression ${name}`, message: error.reason});
        }
    }
    return targets;
}

/** Whether a --required cell marks its row: anything but blank, false, no, n and 0. */
export function marksRequired(value: unknown): boolean {
    if (value === null || value === undefined || value === false) return false;
    return !["", "false", "no", "n", "0"].includes(String(value).trim().toLowerCase());
}

/** Reads every gate's input; problems go to `problems` (nothing is sent while there is one). */
export async function planGates(args: EvalArgs, spec: ExperimentSpec, dataset: Dataset, rows: readonly number[], problems: InputProblem[]): Promise<GatePlan> {
    const thresholds: Threshold[] = [];
    for (const [flag, texts, bound] of [["--fail-under", args.failUnder, false], ["--fail-under-bound", args.failUnderBound, true]] as const)
        for (const text of texts) {
            try {
                thresholds.push(parseThreshold(text, spec, dataset, bound));
            } catch (error) {
                if (!(error instanceof ThresholdError)) throw error;
                problems.push({path: `${flag} ${error.text}`, message: error.reason});
            }
        }
    try {
        rowKeys(dataset, rows, args.rowKey);
    } catch (error) {
        if (!(error instanceof RowKeyError)) throw error;
        problems.push({path: "--row-key", message: error.message});
    }
    if (args.required !== undefined && !dataset.columns.includes(args.required))
        problems.push({path: "--required", message: `no column named ${JSON.stringify(args.required)} (columns: ${dataset.columns.join(", ")})`});
    let baseline: GatePlan["baseline"] = null;
    if (args.baseline !== undefined) {
        const run = await readRunFile("--baseline", args.baseline, args, problems);
        const targets = regressionTargets(args.noRegression.length === 0 ? [""] : args.noRegression, spec, dataset, problems);
        if (run !== null) {
            try {
                baseline = {file: args.baseline, run: prepareRun(run, args.rowKey), targets};
            } catch (error) {
                if (!(error instanceof RowKeyError)) throw error;
                problems.push({path: "--baseline", message: `${args.baseline}: ${error.message}`});
            }
        }
    }
    let filtered: GatePlan["filtered"] = null;
    if (args.filterFailing !== undefined) {
        const run = await readRunFile("--filter-failing", args.filterFailing, args, problems);
        if (run !== null) {
            try {
                filtered = failingRows(prepareRun(run, args.rowKey), args.filterFailing, dataset, rows, args.rowKey);
            } catch (error) {
                if (!(error instanceof RowKeyError)) throw error;
                problems.push({path: "--filter-failing", message: `${args.filterFailing}: ${error.message}`});
            }
        }
    }
    const rowPasses = args.rowPasses ?? null;
    const rowPassesInput = rowPasses === null ? null : rowPassesProblem(rowPasses, spec);
    if (rowPassesInput !== null) problems.push(rowPassesInput);
    return {thresholds, baseline, required: args.required ?? null, rowPasses, rowKey: args.rowKey, filtered};
}

/** The sample's rows whose key names a row that failed for some variant of `earlier`. */
function failingRows(earlier: PreparedRun, file: string, dataset: Dataset, rows: readonly number[], rowKey: string | undefined): NonNullable<GatePlan["filtered"]> {
    const failed = new Set<string>();
    earlier.spec.variants.forEach((_variant, index) => rowsPassed(earlier, index).forEach((passed, position) => {
        if (passed === false) failed.add(earlier.keys[position]);
    }));
    const keys = rowKeys(dataset, rows, rowKey);
    const kept = rows.filter((_row, position) => failed.has(keys[position]));
    const missing = failed.size - kept.length;
    return {rows: kept, note: `--filter-failing: ${failed.size} row${failed.size === 1 ? "" : "s"} failed in ${file}; running the ${kept.length} of them in this sample` +
        (missing > 0 ? ` (${missing} ${missing === 1 ? "is" : "are"} not in it)` : "")};
}

/** The required rows' outcomes: each variant must pass every marked row (an errored or missing result fails). */
function requiredRows(run: PreparedRun, column: string): RequiredRow[] {
    const index = run.dataset.columns.indexOf(column);
    const marked = run.rowIndexes.flatMap((rowIndex, position) => marksRequired(run.dataset.rows[rowIndex]?.[index]) ? [{rowIndex, position}] : []);
    return run.spec.variants.flatMap((variant, at) => {
        const passed = rowsPassed(run, at);
        return marked.map(({rowIndex, position}): RequiredRow => {
            const ok = passed[position] === true;
            const reason = passed[position] === null ? "no result (or no label) for it" : ok ? "passed" : "failed";
            return {variant: variant.name, row: rowIndex + 1, ok, reason};
        });
    });
}

/** Every gate against the finished run. */
export function checkGates(plan: GatePlan, summary: ExperimentSummary, run: {spec: ExperimentSpec, dataset: Dataset, rowIndexes: readonly number[], cells: readonly CellResult[]}):
    {results: GateResult[], required: RequiredRow[], baseline: BaselineComparison | null} {
    // evaluateThresholds adds the implied "no errored cells" gate after the ones given.
    const results: GateResult[] = evaluateThresholds(plan.thresholds, summary).map((result) => ({
        name: plan.thresholds.includes(result.threshold) ? result.threshold.text : "no errored cells",
        kind: !plan.thresholds.includes(result.threshold) ? "errors" : result.threshold.bound ? "bound" : "threshold",
        ok: result.ok, message: result.message
    }));
    const needsRun = plan.baseline !== null || plan.required !== null;
    const current = needsRun ? prepareRun(run, plan.rowKey) : null;
    let baseline: BaselineComparison | null = null;
    if (plan.baseline !== null && current !== null) {
        baseline = compareWithBaseline(current, plan.baseline.run, plan.baseline.targets);
        for (const test of baseline.tests) {
            const name = `no regression: ${test.title}`;
            if (test.problem !== undefined) {
                results.push({name, kind: "regression", ok: false, message: `${name}: not tested, ${test.problem}`});
                continue;
            }
            const counts = `${formatMetric(test.baselineValue)} → ${formatMetric(test.currentValue)} on ${test.rows} paired rows: ${test.regressed} regressed, ${test.improved} improved`;
            const verdict = test.significant ? "regressed" : "no significant regression";
            results.push({name, kind: "regression", ok: !test.significant, message: `${name}: ${verdict} (${counts}; one-sided ${formatPValue(test.pValue)}, Holm-adjusted ${formatPValue(test.adjusted)})`});
        }
    }
    const required = plan.required !== null && current !== null ? requiredRows(current, plan.required) : [];
    if (plan.required !== null) {
        const failed = required.filter((row) => !row.ok);
        const rows = new Set(required.map((row) => row.row)).size;
        results.push({name: `required rows (${plan.required})`, kind: "required", ok: failed.length === 0,
            message: failed.length === 0 ? `required rows (${plan.required}): met, every variant passed all ${rows}`
                : `required rows (${plan.required}): missed, ${failed.map((row) => `${row.variant} row ${row.row} ${row.reason}`).join(", ")}`});
    }
    if (plan.rowPasses !== null) {
        const {ok, message} = rowPassesMessage(plan.rowPasses, repeatsOf(run.spec), rowPassesShortfalls(plan.rowPasses, run.spec, run.rowIndexes, run.cells));
        results.push({name: `rows passing in at least ${plan.rowPasses} of ${repeatsOf(run.spec)}`, kind: "repeats", ok, message});
    }
    return {results, required, baseline};
}
