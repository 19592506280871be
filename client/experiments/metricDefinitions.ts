import type {MetricKey} from "./types.ts";
import type {QuestionInfo} from "../scoring/questions.ts";
import {eceDefinition, probabilityFloor} from "../scoring/evaluation.ts";
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

const fixed: Record<Exclude<MetricKey, `check:${string}`>, MetricDefinition> = {
    accuracy: {label: "Accuracy", higherIsBetter: true, definition: "Share of labelled rows whose predicted option is the labelled one (yes/no: P(yes) ≥ 0.5 predicts yes)."},
    macro_f1: {label: "Macro F1", higherIsBetter: true, definition: "Mean over the options of F1 (the harmonic mean of precision and recall), every option counted equally however rare."},
    brier: {label: "Brier", higherIsBetter: false, definition: "Mean squared gap between the answer's probabilities and the label (1 for the labelled option, 0 for the others), summed over the options. Lower is better."},
    log_loss: {label: "Log loss", higherIsBetter: false, definition: `Mean of −ln P(labelled option), probabilities clipped to [${probabilityFloor}, ${1 - probabilityFloor}]. Lower is better.`},
    ece: {label: "ECE", higherIsBetter: false, definition: eceDefinition("choice")},
    auc: {label: "ROC AUC", higherIsBetter: true, definition: "Yes/no questions: the chance that a row labelled yes gets a higher P(yes) than a row labelled no (ties count half); 0.5 is guessing."},
    mae: {label: "MAE", higherIsBetter: false, definition: `Score questions: mean |expected score − labelled level|. ${scoreDefinitions.expected} Lower is better.`},
    pass_rate: {label: "Pass rate", higherIsBetter: true, definition: "Share of rows whose reply passed every check."}
};

/** The check's name inside a `check:<name>` key, or null for the other metrics. */
export function checkName(metric: MetricKey): string | null {
    return metric.startsWith("check:") ? metric.slice("check:".length) : null;
}

/** A metric's label, definition and direction; `kind` picks the ECE wording of a yes/no question. */
export function metricDefinition(metric: MetricKey, kind?: QuestionInfo["kind"]): MetricDefinition {
    const check = checkName(metric);
    if (check !== null)
        return {label: check, higherIsBetter: true, definition: `Mean score of the check "${check}" over the rows: 1 pass, 0 fail; a grader's score is its P(yes).`};
    const definition = fixed[metric as keyof typeof fixed];
    return metric === "ece" && kind !== undefined ? {...definition, definition: eceDefinition(kind)} : definition;
}

/** "Accuracy", "Accuracy (calibrated)", with the question in front when there is one: "sentiment · Brier". */
export function metricTitle(metric: MetricKey, question?: string, calibrated = false): string {
    const label = metricDefinition(metric).label + (calibrated ? " (calibrated)" : "");
    return question === undefined ? label : `${question} · ${label}`;
}

/** A metric's value as every screen writes it: 3 decimals, "–" when undefined. */
export function formatMetric(value: number | null | undefined): string {
    return value == null || !Number.isFinite(value) ? "–" : value.toFixed(3);
}

/**
 * A difference and its interval, "0.06 (0.02–0.10)", or "-0.13 (-0.16 to -0.10)" when an end is negative (a dash
 * would read as a minus): 2 decimals, 3 when the interval is too narrow for 2 to tell its ends apart. Signs are
 * kept; verdicts pass the gain in the better variant's favour, which is positive.
 */
export function formatInterval(delta: number, low: number, high: number): string {
    const decimals = Math.abs(high - low) < 0.02 ? 3 : 2;
    return `${delta.toFixed(decimals)} (${low.toFixed(decimals)}${low < 0 || high < 0 ? " to " : "–"}${high.toFixed(decimals)})`;
}

/** Whole numbers with thousands separators: "12,345". */
export function formatCount(value: number | null | undefined): string {
    return value == null || !Number.isFinite(value) ? "–" : Math.round(value).toLocaleString("en-US");
}

/** A cost in the workspace's currency units: 4 decimals below 1, else 2; "–" when no prices apply. */
export function formatCost(value: number | null | undefined): string {
    if (value == null || !Number.isFinite(value)) return "–";
    return value < 1 ? value.toFixed(4) : value.toFixed(2);
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
