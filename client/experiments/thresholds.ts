import {parseQuestionSet, questionInfos} from "../scoring/questions.ts";
import {checkNames} from "./checks.ts";
import {formatMetric, metricDefinition, metricTitle} from "./metricDefinitions.ts";
import type {ExperimentSpec, ExperimentSummary, MetricKey} from "./types.ts";

// Thresholds a headless run must meet (`svc-studio eval --fail-under ...`): `[variant:]metric[@question]=value`, e.g.
// `accuracy=0.8` (every variant, every question), `B:accuracy@sentiment=0.8`, `pass_rate=0.9`, `check:grounded=0.7`.
// For metrics where lower is better (brier, log_loss, ece, mae) the value is a ceiling: the run fails above it.

const plainMetrics = ["accuracy", "macro_f1", "brier", "log_loss", "ece", "auc", "mae", "pass_rate"];

export type Threshold = {text: string, variant: number | null, metric: MetricKey, question: string | null, value: number};

export type ThresholdResult = {threshold: Threshold, ok: boolean, message: string};

export class ThresholdError extends Error {
    public constructor(text: string, message: string) {
        super(`--fail-under ${text}: ${message}`);
        this.name = "ThresholdError";
    }
}

/** Reads one threshold against the experiment: its variant, check and question must exist. */
export function parseThreshold(text: string, spec: ExperimentSpec): Threshold {
    const equals = text.lastIndexOf("=");
    if (equals < 0) throw new ThresholdError(text, "write metric=value, e.g. accuracy=0.8 or B:pass_rate=0.9");
    const valueText = text.slice(equals + 1).trim();
    const value = Number(valueText);
    if (valueText === "" || !Number.isFinite(value)) throw new ThresholdError(text, `${JSON.stringify(valueText)} is not a number`);
    let left = text.slice(0, equals).trim();
    let variant: number | null = null;
    // `check:<name>` is a metric; otherwise the longest variant name followed by ":" names the variant.
    const named = isCheckMetric(left, spec) ? undefined : spec.variants.map((item, index) => ({name: item.name, index}))
        .sort((a, b) => b.name.length - a.name.length).find((item) => left.startsWith(`${item.name}:`));
    if (named !== undefined) {
        variant = named.index;
        left = left.slice(named.name.length + 1);
    }
    const at = left.indexOf("@", left.startsWith("check:") ? "check:".length : 0);
    const metric = (at < 0 ? left : left.slice(0, at)) as MetricKey;
    const question = at < 0 ? null : left.slice(at + 1);
    if (metric.startsWith("check:")) {
        const names = checkNames(spec.checks);
        if (!names.includes(metric.slice("check:".length)))
            throw new ThresholdError(text, `the experiment has no check ${JSON.stringify(metric.slice("check:".length))} (checks: ${names.join(", ") || "none"})`);
    } else if (!plainMetrics.includes(metric))
        throw new ThresholdError(text, `unknown metric ${JSON.stringify(metric)} (metrics: ${plainMetrics.join(", ")}, check:<name>; a variant goes first: ${spec.variants[0]?.name ?? "A"}:accuracy=0.8)`);
    if (question !== null) {
        const questions = new Set(spec.variants.flatMap((item) => item.version.prompt.kind === "decision" ? questionInfos(parseQuestionSet(item.version.prompt.questionSet).normalized).map((info) => info.name) : []));
        if (!questions.has(question)) throw new ThresholdError(text, `no decision variant has a question ${JSON.stringify(question)} (questions: ${[...questions].join(", ") || "none"})`);
    }
    return {text, variant, metric, question, value};
}

function isCheckMetric(left: string, spec: ExperimentSpec): boolean {
    return left.startsWith("check:") && checkNames(spec.checks).includes(left.slice("check:".length).split("@")[0]);
}

/**
 * Each threshold against the summary: every matching number (each variant when none is named, each question when
 * none is named; uncalibrated values) must be at least the value, or at most it where lower is better. A metric the
 * run did not measure (no labelled rows, a variant without it) fails: a gate that cannot be checked is not passed.
 */
export function evaluateThresholds(thresholds: readonly Threshold[], summary: ExperimentSummary): ThresholdResult[] {
    return thresholds.map((threshold) => {
        const {higherIsBetter} = metricDefinition(threshold.metric);
        const values = summary.variants
            .filter((variant) => threshold.variant === null || variant.variant === threshold.variant)
            .flatMap((variant) => variant.metrics
                .filter((metric) => metric.metric === threshold.metric && !metric.calibrated && (threshold.question === null || metric.question === threshold.question))
                .map((metric) => ({variant: variant.name, metric})));
        if (values.length === 0) return {threshold, ok: false, message: `${threshold.text}: not measured by this run`};
        const misses = values.filter(({metric}) => metric.value === null || (higherIsBetter ? metric.value < threshold.value : metric.value > threshold.value));
        const describe = ({variant, metric}: (typeof values)[number]) => `${variant} ${metricTitle(threshold.metric, metric.question)} ${formatMetric(metric.value)}`;
        const bound = higherIsBetter ? "at least" : "at most";
        return misses.length === 0
            ? {threshold, ok: true, message: `${threshold.text}: met (${values.map(describe).join(", ")})`}
            : {threshold, ok: false, message: `${threshold.text}: missed, ${bound} ${threshold.value} wanted (${misses.map(describe).join(", ")})`};
    });
}
