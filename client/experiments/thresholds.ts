import {parseQuestionSet, questionInfos, type QuestionInfo} from "../scoring/questions.ts";
import {checkNames} from "./checks.ts";
import {labelColumnOf, metricsOf, type DecisionDataset} from "./decisionTables.ts";
import {formatMetric, isPassFailMetric, metricTitle} from "./metricDefinitions.ts";
import {wilsonInterval} from "./stats.ts";
import type {ExperimentSpec, ExperimentSummary, MetricKey, VariantSummary} from "./types.ts";

// Gates a headless run must meet (`svc-studio eval --fail-under ...`): `[variant:]metric[@question]=value`.
// - Question-set (decision) variants, per question: accuracy, macro_f1, brier, log_loss, ece, auc (yes/no questions
//   only), mae (score questions only); `@question` picks one question, else every labelled question that has it.
// - Chat variants: pass_rate (every check passed), `pass:<check>` (share of rows passing that check), and
//   `score:<grader>` (a grader check's mean P(yes)). `check:<name>` is refused: it could mean either of the last two.
// - Any variant: error_rate, errored cells / the variant's cells.
// For brier, log_loss, ece, mae and error_rate, where lower is better, the value is a ceiling. Every gate is checked
// against the experiment before anything is sent: its variant, metric, question and value must make sense, and a gate
// without a variant applies to the variants that have its metric (at least one must). Once any gate is given, a
// variant no explicit error_rate gate covers must have no errored cell: a metric computed without some rows is not a
// pass by default.

export type GateMetric = MetricKey | "error_rate";

/** Where a gate applies: each variant, with the questions it is read on (null for chat metrics and error_rate). */
export type GateScope = Array<{variant: number, questions: string[] | null}>;

/**
 * A gate. `bound`: read on the 95% Wilson interval of a rate (`--fail-under-bound`), its lower end against a floor,
 * or, for error_rate, its upper end against a ceiling, so a rate met only by luck on few rows does not pass.
 */
export type Threshold = {text: string, variant: number | null, metric: GateMetric, question: string | null, value: number, scope: GateScope, bound?: true};

export type ThresholdResult = {threshold: Threshold, ok: boolean, message: string};

export class ThresholdError extends Error {
    public constructor(public readonly text: string, public readonly reason: string, public readonly flag = "--fail-under") {
        super(`${flag} ${text}: ${reason}`);
        this.name = "ThresholdError";
    }
}

const decisionMetrics = ["accuracy", "macro_f1", "brier", "log_loss", "ece", "auc", "mae"];
const plainMetrics = [...decisionMetrics, "pass_rate", "error_rate"];
const ceilings = new Set(["brier", "log_loss", "ece", "mae", "error_rate"]);
const namedPrefixes = ["pass:", "score:", "check:"];

/** Whether the run fails above the value (losses, errors) rather than below it. */
export function isCeiling(metric: GateMetric): boolean {
    return ceilings.has(metric);
}

/**
 * The values a metric can take: shares, AUC, Brier (a mean over the options), ECE and the error rate lie in [0, 1];
 * log loss and MAE are 0 or more.
 */
export function metricRange(metric: GateMetric): {min: number, max: number} {
    return {min: 0, max: metric === "log_loss" || metric === "mae" ? Number.POSITIVE_INFINITY : 1};
}

type VariantGates =
    | {name: string, kind: "chat"}
    | {name: string, kind: "decision", questions: Array<{info: QuestionInfo, labelled: boolean}>};

/** What each variant can be gated on: chat variants the checks, decision variants their questions with a label column. */
function variantGates(spec: ExperimentSpec, dataset: DecisionDataset): VariantGates[] {
    return spec.variants.map((variant): VariantGates => {
        const prompt = variant.version.prompt;
        if (prompt.kind !== "decision") return {name: variant.name, kind: "chat"};
        let infos: QuestionInfo[] = [];
        try {
            infos = questionInfos(parseQuestionSet(prompt.questionSet).normalized);
        } catch {
            // A question set that does not parse is the input checks' to report; it has no question to gate.
        }
        return {name: variant.name, kind: "decision", questions: infos.map((info) => ({info, labelled: labelColumnOf(info.name, dataset) >= 0}))};
    });
}

/** The text before "=" and "@" looks like a metric (so what comes before it and a ":" would be a variant's name). */
function looksLikeMetric(text: string): boolean {
    return namedPrefixes.some((prefix) => text.startsWith(prefix)) || plainMetrics.includes(text.split("@")[0]);
}

/** Whether a gate metric is a rate with a Wilson interval (what `--fail-under-bound` reads). */
export function isRateMetric(metric: GateMetric): boolean {
    return metric === "error_rate" || isPassFailMetric(metric);
}

/**
 * Reads one gate against the experiment and its dataset; anything that cannot be checked is a ThresholdError.
 * `bound`: a `--fail-under-bound` gate, read on a rate's Wilson interval, so only rates are accepted.
 */
export function parseThreshold(text: string, spec: ExperimentSpec, dataset: DecisionDataset, bound = false): Threshold {
    try {
        const threshold = parseGate(text, spec, dataset);
        if (!bound) return threshold;
        if (!isRateMetric(threshold.metric))
            throw new ThresholdError(text, `${threshold.metric} is not a rate, so it has no Wilson interval to bound: --fail-under-bound takes accuracy, pass_rate, pass:<check> and error_rate; gate ${threshold.metric} on its value with --fail-under`);
        return {...threshold, bound: true};
    } catch (error) {
        if (bound && error instanceof ThresholdError && error.flag !== "--fail-under-bound") throw new ThresholdError(error.text, error.reason, "--fail-under-bound");
        throw error;
    }
}

function parseGate(text: string, spec: ExperimentSpec, dataset: DecisionDataset): Threshold {
    const equals = text.lastIndexOf("=");
    if (equals < 0) throw new ThresholdError(text, `write metric=value, e.g. accuracy=0.8 or ${spec.variants[0]?.name ?? "A"}:pass_rate=0.9`);
    const valueText = text.slice(equals + 1).trim();
    const value = Number(valueText);
    if (valueText === "" || !Number.isFinite(value)) throw new ThresholdError(text, `${JSON.stringify(valueText)} is not a number`);
    let left = text.slice(0, equals).trim();
    const variantNames = spec.variants.map((variant) => variant.name);

    // The variant: the longest variant name followed by ":" and a metric; else none when the whole reads as a
    // metric; else what stands before a ":" and a metric names a variant the experiment does not have.
    let variant: number | null = null;
    const named = spec.variants.map((item, index) => ({name: item.name, index})).sort((a, b) => b.name.length - a.name.length)
        .find((item) => left.startsWith(`${item.name}:`) && looksLikeMetric(left.slice(item.name.length + 1)));
    if (named !== undefined) {
        variant = named.index;
        left = left.slice(named.name.length + 1);
    } else if (!looksLikeMetric(left)) {
        const colons = [...left.matchAll(/:/g)].map((match) => match.index);
        const at = colons.find((index) => looksLikeMetric(left.slice(index + 1)));
        if (at !== undefined) throw new ThresholdError(text, `no variant ${JSON.stringify(left.slice(0, at))} (variants: ${variantNames.join(", ")})`);
        throw new ThresholdError(text, `unknown metric ${JSON.stringify(left.split("@")[0])} (metrics: ${plainMetrics.join(", ")}, pass:<check>, score:<grader>; a variant goes first: ${variantNames[0] ?? "A"}:accuracy=0.8)`);
    }

    const names = checkNames(spec.checks);
    const prefix = namedPrefixes.find((item) => left.startsWith(item));
    let metricText: string, question: string | null;
    if (prefix !== undefined && names.includes(left.slice(prefix.length))) [metricText, question] = [left, null];
    else {
        const at = left.indexOf("@", prefix?.length ?? 0);
        [metricText, question] = at < 0 ? [left, null] : [left.slice(0, at), left.slice(at + 1)];
    }
    if (prefix !== undefined) {
        const name = metricText.slice(prefix.length);
        const index = names.indexOf(name);
        if (index < 0) throw new ThresholdError(text, `the experiment has no check ${JSON.stringify(name)} (checks: ${names.join(", ") || "none"})`);
        const grader = spec.checks[index].kind === "grader";
        if (prefix === "check:")
            throw new ThresholdError(text, `check:${name} could mean two numbers: write pass:${name} (the share of rows passing it, errored rows counted as failures)` +
                ` or score:${name} (its mean P(yes), grader checks only${grader ? "" : `, which ${name} is not`})`);
        if (prefix === "score:" && !grader)
            throw new ThresholdError(text, `score:${name} is a grader check's mean P(yes), and ${name} is not a grader: write pass:${name} (the share of rows passing it)`);
    }
    const metric = metricText as GateMetric;
    const isDecisionMetric = decisionMetrics.includes(metric);
    if (question !== null && !isDecisionMetric)
        throw new ThresholdError(text, `${metric} takes no @question: questions are those of question-set (decision) variants, gated on ${decisionMetrics.join(", ")}`);
    if (question !== null && variant === null) {
        const questions = new Set(variantGates(spec, dataset).flatMap((item) => item.kind === "decision" ? item.questions.map((entry) => entry.info.name) : []));
        if (!questions.has(question)) throw new ThresholdError(text, `no decision variant has a question ${JSON.stringify(question)} (questions: ${[...questions].join(", ") || "none"})`);
    }
    const range = metricRange(metric);
    if (value < range.min || value > range.max)
        throw new ThresholdError(text, `${value} is outside ${metric}'s range (${range.max === Number.POSITIVE_INFINITY ? `${range.min} or more` : `${range.min} to ${range.max}`}), so the gate could never ${isCeiling(metric) === value < range.min ? "be met" : "be missed"}`);

    const gates = variantGates(spec, dataset);
    const reach = (index: number) => gateReach(gates[index], metric, question);
    let scope: GateScope;
    if (variant !== null) {
        const reached = reach(variant);
        if ("reason" in reached) throw new ThresholdError(text, reached.reason);
        scope = [{variant, questions: reached.questions}];
    } else {
        const reached = gates.map((_gate, index) => ({variant: index, ...reach(index)}));
        scope = reached.flatMap((item) => "reason" in item ? [] : [{variant: item.variant, questions: item.questions}]);
        if (scope.length === 0) {
            // Why each variant lacks it; with a question, only the variants that ask that question have a say.
            const asking = reached.filter((item) => question === null || gates[item.variant].kind === "decision" && (gates[item.variant] as Extract<VariantGates, {kind: "decision"}>).questions.some((entry) => entry.info.name === question));
            const reasons = [...new Set(asking.map((item) => "reason" in item ? item.reason : ""))];
            throw new ThresholdError(text, question === null ? `no variant has it: ${reasons.join("; ")}` : reasons.join("; "));
        }
    }
    return {text, variant, metric, question, value, scope};
}

/** The questions a metric is read on for one variant (null: not per question), or why the variant does not have it. */
function gateReach(gates: VariantGates, metric: GateMetric, question: string | null): {questions: string[] | null} | {reason: string} {
    if (metric === "error_rate") return {questions: null};
    if (!decisionMetrics.includes(metric)) {
        if (gates.kind === "decision") return {reason: `${gates.name} is a question-set (decision) variant, and ${metric} is measured on chat variants`};
        return {questions: null};
    }
    if (gates.kind === "chat") return {reason: `${gates.name} is a chat variant, and ${metric} is measured per question on question-set (decision) variants`};
    const kindOf = {auc: "yesno", mae: "score"} as Partial<Record<string, QuestionInfo["kind"]>>;
    const kindName = {yesno: "yes/no", choice: "choice", score: "score"} as const;
    const needs = kindOf[metric];
    if (question !== null) {
        const entry = gates.questions.find((item) => item.info.name === question);
        if (entry === undefined) return {reason: `${gates.name} has no question ${JSON.stringify(question)} (questions: ${gates.questions.map((item) => item.info.name).join(", ") || "none"})`};
        if (!metricsOf(entry.info.kind).includes(metric as MetricKey))
            return {reason: `${question} is a ${kindName[entry.info.kind]} question in ${gates.name}, and ${metric} exists for ${kindName[needs!]} questions only`};
        if (!entry.labelled) return {reason: `${question} has no label column in the dataset, so ${gates.name}'s metrics for it are not computed`};
        return {questions: [question]};
    }
    const questions = gates.questions.filter((item) => item.labelled && metricsOf(item.info.kind).includes(metric as MetricKey)).map((item) => item.info.name);
    if (questions.length === 0) return {reason: `${gates.name} has no ${needs === undefined ? "" : `${kindName[needs]} `}question with a label column, so no ${metric}`};
    return {questions};
}

/** "accuracy=0.8 applies to A (urgent, mood), B (urgent)": what a gate without a variant is checked on. */
export function describeScope(threshold: Threshold, spec: ExperimentSpec): string {
    const parts = threshold.scope.map(({variant, questions}) => {
        const name = spec.variants[variant]?.name ?? String(variant);
        return questions === null || threshold.question !== null ? name : `${name} (${questions.join(", ")})`;
    });
    return `${threshold.text} applies to ${parts.join(", ")}`;
}

function title(metric: GateMetric, question?: string): string {
    if (metric === "error_rate") return "error rate";
    if (namedPrefixes.some((prefix) => metric.startsWith(prefix))) return metric;
    return metricTitle(metric, question);
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** One gate against the summary: every value in its scope must be at least the value (at most, for a ceiling). */
function evaluateOne(threshold: Threshold, summary: ExperimentSummary, label = threshold.text): ThresholdResult {
    const ceiling = isCeiling(threshold.metric);
    type Found = {variant: VariantSummary, question?: string, value: number | null, n: number | null, bound?: number | null};
    const found: Found[] = [];
    const unmeasured: string[] = [];
    for (const {variant: index, questions} of threshold.scope) {
        const variant = summary.variants.find((item) => item.variant === index);
        if (variant === undefined) {
            unmeasured.push(String(index));
            continue;
        }
        if (threshold.metric === "error_rate") {
            const value = variant.total === 0 ? null : variant.errors / variant.total;
            // A bound on the error rate is the upper end of its Wilson interval over the variant's cells.
            found.push({variant, value, n: null, ...(threshold.bound ? {bound: value === null ? null : wilsonInterval(variant.errors, variant.total).high} : {})});
            continue;
        }
        for (const question of questions ?? [undefined]) {
            const metric = variant.metrics.find((item) => item.metric === threshold.metric && !item.calibrated && item.question === question);
            if (metric === undefined) unmeasured.push(question === undefined ? variant.name : `${variant.name} ${question}`);
            else found.push({variant, question, value: metric.value, n: metric.n, ...(threshold.bound ? {bound: metric.interval?.low ?? null} : {})});
        }
    }
    const describe = ({variant, question, value, n, bound}: Found) => {
        const base = `${variant.name} ${title(threshold.metric, question)} ${formatMetric(value)}${bound === undefined ? "" : `, 95% ${ceiling ? "upper" : "lower"} bound ${formatMetric(bound)}`}`;
        if (threshold.metric === "error_rate") return `${base}: ${variant.errors} of ${plural(variant.total, "cell")} errored`;
        // Errored cells or unlabelled rows are not in the number: say on how many rows it stands.
        return n !== null && n < variant.total ? `${base} on ${n} of ${plural(variant.total, "row")}` : base;
    };
    // A bound gate reads the interval's end, a plain gate the value itself.
    const misses = found.map((item) => ({item, read: threshold.bound ? item.bound ?? null : item.value}))
        .filter(({read}) => read === null || (ceiling ? read > threshold.value : read < threshold.value)).map(({item}) => item);
    if (unmeasured.length > 0 && found.length === 0) return {threshold, ok: false, message: `${label}: not measured by this run (${unmeasured.join(", ")})`};
    const wanted = threshold.bound ? `a 95% ${ceiling ? "upper bound of at most" : "lower bound of at least"}` : ceiling ? "at most" : "at least";
    const missed = [...misses.map(describe), ...unmeasured.map((name) => `${name} not measured`)];
    return missed.length === 0
        ? {threshold, ok: true, message: `${label}: met (${found.map(describe).join(", ")})`}
        : {threshold, ok: false, message: `${label}: missed, ${wanted} ${threshold.value} wanted (${missed.join(", ")})`};
}

/**
 * Each gate against the summary (uncalibrated values). A gate that cannot be read (a variant without the metric,
 * an undefined value) fails: a gate that cannot be checked is not passed. When any gate is given, every variant
 * that no explicit error_rate gate covers gets an implied `error_rate=0`: an errored cell fails the run.
 */
export function evaluateThresholds(thresholds: readonly Threshold[], summary: ExperimentSummary): ThresholdResult[] {
    const results = thresholds.map((threshold) => evaluateOne(threshold, summary));
    const covered = new Set(thresholds.filter((threshold) => threshold.metric === "error_rate").flatMap((threshold) => threshold.scope.map((item) => item.variant)));
    const rest = summary.variants.filter((variant) => !covered.has(variant.variant));
    if (thresholds.length > 0 && rest.length > 0) {
        const implied: Threshold = {text: "error_rate=0", variant: null, metric: "error_rate", question: null, value: 0, scope: rest.map((variant) => ({variant: variant.variant, questions: null}))};
        const result = evaluateOne(implied, summary, "no errored cells (implied by --fail-under unless an error_rate gate is given)");
        results.push(result.ok ? result : {...result, message: `${result.message}; allow some with --fail-under error_rate=<max>, or send them again with --retry-errors`});
    }
    return results;
}
