import {displayMoney, microsPerUnit} from "../../protocol/admin/money.ts";
import type {ExperimentSummary, MetricKey, QuestionKind} from "./types.ts";
import {brierDefinition, eceDefinition, probabilityFloor} from "../scoring/evaluation.ts";
import {scoreDefinitions} from "../scoring/scoreLevels.ts";

// Every metric's name, definition and direction, and how its numbers are written: the one place the matrix, the
// verdicts, the HTML report and the CLI read them from, so the same number reads the same everywhere.

export type MetricDefinition = {
    label: string,
    /** One or two sentences for the hover text next to the number. */
    definition: string,
    /** False for losses and errors: "better" then means lower. */
    higherIsBetter: boolean
};

const definitions: Record<Exclude<MetricKey, `pass:${string}` | `score:${string}`>, MetricDefinition> = {
    accuracy: {label: "Accuracy", higherIsBetter: true, definition: "Share of labelled rows whose predicted option is the labelled one (yes/no: P(yes) ≥ 0.5 predicts yes). A row whose request ended in an error has no answer and is left out: n counts the rows scored."},
    macro_f1: {label: "Macro F1", higherIsBetter: true, definition: "Mean over the options of F1 (the harmonic mean of precision and recall), every option counted equally however rare."},
    brier: {label: "Brier", higherIsBetter: false, definition: brierDefinition()},
    log_loss: {label: "Log loss", higherIsBetter: false, definition: `Mean of −ln P(labelled option), probabilities clipped to [${probabilityFloor}, ${1 - probabilityFloor}]. Lower is better.`},
    ece: {label: "ECE", higherIsBetter: false, definition: eceDefinition()},
    auc: {label: "ROC AUC", higherIsBetter: true, definition: "Yes/no questions: the chance that a row labelled yes gets a higher P(yes) than a row labelled no (ties count half); 0.5 is guessing."},
    mae: {label: "MAE", higherIsBetter: false, definition: `Score questions: mean |expected score − labelled level|. ${scoreDefinitions.expected} Lower is better.`},
    pass_rate: {label: "Pass rate", higherIsBetter: true, definition: "Share of rows whose reply passed every check; a row whose request ended in an error counts as failed."}
};

const passPrefix = "pass:", scorePrefix = "score:";

/** The metric key of a check's pass share: `pass:<name>`. */
export function passMetric(check: string): MetricKey {
    return `${passPrefix}${check}`;
}

/** The metric key of a grader check's mean score (mean P(yes)): `score:<name>`. */
export function scoreMetric(check: string): MetricKey {
    return `${scorePrefix}${check}`;
}

/** The check's name inside a `pass:<name>` key (the share of rows that passed it), or null for other metrics. */
export function passCheckName(metric: string): string | null {
    return metric.startsWith(passPrefix) ? metric.slice(passPrefix.length) : null;
}

/** The check's name inside a `score:<name>` key (a grader's mean P(yes)), or null for other metrics. */
export function scoreCheckName(metric: string): string | null {
    return metric.startsWith(scorePrefix) ? metric.slice(scorePrefix.length) : null;
}

/** Whether a metric is a share of rows that passed or were right, compared with McNemar's exact test. */
export function isPassFailMetric(metric: MetricKey): boolean {
    return metric === "accuracy" || metric === "pass_rate" || passCheckName(metric) !== null;
}

/**
 * A metric's label, definition and direction. `kind`, the question's kind, picks the wording of the ECE and the
 * Brier score (a yes/no question's ECE is on P(yes), a choice's on the top option); without it both are described.
 */
export function metricDefinition(metric: MetricKey, kind?: QuestionKind): MetricDefinition {
    const passed = passCheckName(metric);
    if (passed !== null)
        return {label: passed, higherIsBetter: true, definition: `Share of rows whose reply passed the check "${passed}" (a grader passes at its threshold); a row whose request ended in an error counts as failed.`};
    const scored = scoreCheckName(metric);
    if (scored !== null)
        return {label: `${scored} score`, higherIsBetter: true, definition: `Mean of the grader "${scored}"'s score, its P(yes), over the replies it graded (a row whose request ended in an error has none and is left out). Not the share that passed: that is "${scored}".`};
    const definition = definitions[metric as keyof typeof definitions] as MetricDefinition | undefined;
    // A key no run produces (a gate naming a retired metric) reads as itself, so callers can say it was not measured.
    if (definition === undefined) return {label: metric, higherIsBetter: true, definition: `No metric is called "${metric}".`};
    if (kind === undefined) return definition;
    if (metric === "ece") return {...definition, definition: eceDefinition(kind)};
    if (metric === "brier") return {...definition, definition: brierDefinition(kind)};
    return definition;
}

/** The hover text of a metric: "Brier: <its definition>", the direction said once, inside the definition. */
export function metricHover(metric: MetricKey, kind?: QuestionKind): string {
    const definition = metricDefinition(metric, kind);
    return `${definition.label}: ${definition.definition}`;
}

/** "Accuracy", "Accuracy (calibrated)", with the question in front when there is one: "sentiment · Brier". */
export function metricTitle(metric: MetricKey, question?: string, calibrated = false): string {
    const label = metricDefinition(metric).label + (calibrated ? " (calibrated)" : "");
    return question === undefined ? label : `${question} · ${label}`;
}

/**
 * How a verdict is reached, for the hover next to the verdicts and the report: the rule every verdict follows.
 */
export const verdictRule = "Pass/fail metrics (accuracy, pass rate, a check's pass share) are compared with McNemar's exact test on the rows " +
    "only one variant got right, and their interval is the exact one that goes with it (Clopper–Pearson on those rows, widened over the " +
    "share of rows where the variants disagree, so a few such rows give a wide interval), so it excludes 0 exactly when p < 0.05. Other metrics have a paired bootstrap 95% interval over the rows both variants have. One primary metric per " +
    "comparison says which variant is better (question sets: the first question's accuracy, uncalibrated; chat prompts: the pass rate); " +
    "with several comparisons, their primary tests get Holm's correction, and each primary interval is at the level of its Holm step. " +
    "Every other metric is secondary: its verdict gives a direction, not a winner. While some rows have no result yet, verdicts are provisional. " +
    "\"No clear difference\" says the smallest difference the comparison had an 80% chance to detect at its level: for pass/fail metrics by " +
    "Connor's (1987) formula for McNemar's test at the share of rows only one variant got right, for the others (z₀.₉₇₅ + z₀.₈) = 2.80 standard " +
    "errors read from the interval. " +
    "With a cluster column, bootstrap intervals resample clusters instead of rows, and pass/fail differences are tested with their clustered " +
    "(Liang–Zeger) variance, a normal test and its interval, instead of McNemar's test on rows.";

/** An interval's coverage: "95%", "98.3%". */
export function formatLevel(level: number): string {
    return `${Number((level * 100).toFixed(1))}%`;
}

/** A metric's value as every screen writes it: 3 decimals, "–" when undefined. */
export function formatMetric(value: number | null | undefined): string {
    return value == null || !Number.isFinite(value) ? "–" : value.toFixed(3);
}

/** Decimals that show a non-zero number's sign and first significant digit: 2 for 0.03, 3 for 0.004. */
function significantDecimals(value: number): number {
    if (value === 0 || !Number.isFinite(value)) return 0;
    let decimals = Math.max(0, -Math.floor(Math.log10(Math.abs(value))));
    while (decimals < maxDecimals && Number(Math.abs(value).toFixed(decimals)) === 0) decimals++;
    return decimals;
}

const maxDecimals = 15;

/** A number at `decimals`, never "-0.00": a value that rounds to zero is written without a sign. */
function fixedText(value: number, decimals: number): string {
    const text = value.toFixed(decimals);
    return Number(text) === 0 ? (0).toFixed(decimals) : text;
}

/**
 * A difference and its interval, "0.06 (0.02–0.10)", or "-0.13 (-0.16 to -0.10)" when an end is negative (a dash
 * would read as a minus): 2 decimals, 3 when the interval is too narrow for 2 to tell its ends apart, and more
 * when a non-zero end would otherwise round to 0, so an end never reads "0.00" unless it is 0: "0.04 (0.003–0.08)"
 * is written "0.040 (0.003–0.080)". Signs are kept; verdicts pass the gain in the better variant's favour.
 */
export function formatInterval(delta: number, low: number, high: number): string {
    const width = Math.abs(high - low);
    const decimals = Math.min(maxDecimals, Math.max(width > 1e-12 && width < 0.02 ? 3 : 2, significantDecimals(low), significantDecimals(high)));
    const lowText = fixedText(low, decimals), highText = fixedText(high, decimals);
    return `${fixedText(delta, decimals)} (${lowText}${lowText.startsWith("-") || highText.startsWith("-") ? " to " : "–"}${highText})`;
}

/**
 * What the interval after a rate is, for the hover beside it and the report: the Wilson score interval, in words.
 */
export const rateIntervalDefinition = "In brackets, the 95% Wilson score interval of the rate: the rates p for which the observed share is within 1.96 " +
    "standard errors, √(p(1 − p)/n), of p. It assumes the rows are independent draws from the rows the experiment stands for, and says how far the " +
    "rate on such rows could lie from this sample's; unlike the share ± 1.96·√(share·(1 − share)/n) it stays within 0 and 1, is not empty at 0 or n " +
    "of n, and keeps its coverage on few rows (Wilson 1927; Agresti & Coull 1998).";

/** What a design effect is, for the hover beside it, the report and the docs. */
export const designEffectDefinition = "Design effect: the variance of a rate with rows grouped by the cluster column (Σ over clusters of the squared sum of " +
    "the rows' deviations, over n²; Liang & Zeger 1986) over its variance were the rows independent. About 1 + (m − 1)·ρ for clusters of m rows " +
    "whose outcomes correlate by ρ: rows of one cluster repeat each other, so the sample holds about n / design effect independent rows, and the " +
    "rate's interval is the Wilson interval on that many.";

/**
 * What clustering did to a summary, in a sentence for the screen, the report and the CLI: the column, its number of
 * clusters, and the design effect of each variant's primary rate; "" without a cluster column.
 */
export function describeClustering(summary: ExperimentSummary): string {
    if (summary.clustering === undefined) return "";
    const {column, clusters} = summary.clustering;
    const effects = summary.variants.flatMap((variant) => {
        const primary = variant.metrics.find((value) => !value.calibrated && value.designEffect !== undefined && (value.metric === "pass_rate" || value.metric === "accuracy"));
        return primary === undefined ? [] : [`${variant.name} ${primary.designEffect!.toFixed(2)}`];
    });
    return `Rows are clustered by ${column} (${clusters} cluster${clusters === 1 ? "" : "s"}): intervals resample clusters, and pass/fail differences are tested on the ` +
        `clustered variance${effects.length === 0 ? "" : `. Design effect of the primary rate: ${effects.join(", ")}`}.`;
}

/** The line under the CLI's table that says what the brackets after a rate are (the app says it on hover). */
export const rateIntervalNote = "In brackets after a rate (accuracy, a pass rate, a check's share): its 95% Wilson score interval.";

/**
 * A metric's value as every screen writes it, with its interval when it has one (a rate shown alone: accuracy, a
 * pass rate, a check's share): "0.750 (0.612–0.850)"; otherwise as formatMetric.
 */
export function formatRate(value: {value: number | null, interval?: {low: number, high: number}} | undefined): string {
    if (value?.interval === undefined || value.value === null) return formatMetric(value?.value);
    return `${formatMetric(value.value)} (${formatMetric(value.interval.low)}–${formatMetric(value.interval.high)})`;
}

/** Whole numbers with thousands separators: "12,345". */
export function formatCount(value: number | null | undefined): string {
    return value == null || !Number.isFinite(value) ? "–" : Math.round(value).toLocaleString("en-US");
}

/** A cost in credits (the workspace's money), written as the Workspace screen writes money (displayMoney); "–" when no prices apply. */
export function formatCost(value: number | null | undefined): string {
    if (value == null || !Number.isFinite(value)) return "–";
    return displayMoney(Math.round(value * microsPerUnit));
}

/** A latency: "850 ms" under a second, "1.25 s" above; "–" when unknown. */
export function formatLatency(ms: number | null | undefined): string {
    if (ms == null || !Number.isFinite(ms)) return "–";
    return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** A p-value: "p < 0.001" or "p = 0.034". */
export function formatPValue(p: number): string {
    return p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`;
}
