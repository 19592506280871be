import type {ExperimentSummary, GraderAgreement} from "./types.ts";
import {formatCount, formatMetric, formatRate} from "./metricDefinitions.ts";
import {eceBinCount} from "../scoring/evaluation.ts";
import type {QuestionCalibration} from "../scoring/calibration.ts";

// A grader measured against human labels, as the app, the HTML report and the CLI write it: one table, a row per
// variant and grader, each column with its definition for the hover beside it, so the three read the same.

/** Each column of the grader-against-humans table: its heading and its definition. */
export const graderAgreementColumns = [
    {label: "Variant", definition: "The chat variant whose replies were graded."},
    {label: "Grader", definition: "The grader check, and the dataset column holding a person's verdict on the same property."},
    {label: "Sensitivity", definition: "Of the labelled replies a person passed, the share the grader passed too (with its 95% Wilson interval and n, the replies a person passed)."},
    {label: "Specificity", definition: "Of the labelled replies a person failed, the share the grader failed too (with its 95% Wilson interval and n, the replies a person failed)."},
    {label: "ECE", definition: `Expected calibration error of the grader's score read as the chance a person passes the reply: the labelled replies go into ${eceBinCount} equal-width bins of the score, and each bin's gap between its mean score and the share a person passed is weighted by its share of the replies. Lower is better.`},
    {label: "Calibration", definition: "A grader carrying a calibration (Platt scaling of its score, fitted on rows people labelled, as question sets are calibrated) is judged on its calibrated score: the ECE of its score before → after calibration on these labelled rows, then the fit's own ECE before → after. The fit's figures are measured out of fold (each row's calibrated score from a fit on the other four fifths of the rows) when it had 10 labelled rows or more, else on the rows it was fitted on, which flatters it. When these labelled rows are the ones it was fitted on, every figure in this row but the out-of-fold one is measured on its own fitting rows and is optimistic too: judge it on rows labelled later."},
    {label: "Cohen's κ", definition: "Agreement of the grader's pass / fail with the person's beyond what chance would give at their own pass shares: (observed agreement − chance agreement)/(1 − chance agreement); 1 agrees on every reply, 0 is chance (Cohen 1960)."},
    {label: "Grader pass rate", definition: "The share of every graded reply the grader passed, with its 95% Wilson interval: biased when the grader errs one way more than the other."},
    {label: "Corrected pass rate", definition: "The share a person would pass, estimated from the grader's pass rate p and its sensitivity Se and specificity Sp on the labelled rows: (p + Sp − 1)/(Se + Sp − 1), clipped to 0..1 (Rogan & Gladen 1978). Its 95% interval is the delta method's and adds the error of Se and Sp to that of p, so few labelled rows widen it; none when Se + Sp ≤ 1 (the grader does no better than chance). Assumes the labelled rows are like the others."}
] as const;

/** "0.875 (0.71–0.95) n=40": a measured share with its interval, else its value, then its n. */
function measured(value: {value: number | null, n: number, interval?: {low: number, high: number}}): string {
    return `${formatRate(value)} n=${formatCount(value.n)}`;
}

function correctedText(agreement: GraderAgreement): string {
    const corrected = agreement.corrected;
    return corrected === null ? "– (grader no better than chance)" : `${formatRate({value: corrected.value, interval: corrected})} n=${formatCount(corrected.n)}`;
}

/** One table row's cells, aligned with graderAgreementColumns. */
function rowCells(variant: string, agreement: GraderAgreement): string[] {
    return [variant, `${agreement.check} vs ${agreement.column} (${formatCount(agreement.labelled)} labelled)`, measured(agreement.sensitivity), measured(agreement.specificity),
        `${formatMetric(agreement.ece.value)} n=${formatCount(agreement.ece.n)}`, calibrationText(agreement), `${formatMetric(agreement.kappa.value)} n=${formatCount(agreement.kappa.n)}`,
        measured(agreement.observed), correctedText(agreement)];
}

/** "0.198 → 0.061 out of fold (5 folds, 40 rows)": a fitted calibration's ECE before and after, and where it was measured. */
export function describeCalibrationFit(fit: Pick<QuestionCalibration, "fittedOn" | "evaluatedOn" | "heldOut" | "folds"> & {eceBefore: number, eceAfter: number}): string {
    const where = fit.heldOut ? `out of fold (${fit.folds ?? "–"} folds, ${formatCount(fit.evaluatedOn)} rows)` : `on its ${formatCount(fit.fittedOn)} fitting rows`;
    return `${formatMetric(fit.eceBefore)} → ${formatMetric(fit.eceAfter)} ${where}`;
}

/** "0.214 → 0.052; fit 0.198 → 0.061 out of fold (5 folds, 40 rows)": ECEs, or "–" for a grader carrying no calibration. */
function calibrationText(agreement: GraderAgreement): string {
    const calibration = agreement.calibration;
    if (calibration === undefined) return "–";
    return `${formatMetric(calibration.uncalibratedEce.value)} → ${formatMetric(agreement.ece.value)}; fit ${describeCalibrationFit(calibration)}`;
}

/** The table's rows, one per variant and grader measured against people; empty when no grader has human labels. */
export function graderAgreementRows(summary: ExperimentSummary): string[][] {
    return summary.variants.flatMap((variant) => (variant.graders ?? []).map((agreement) => rowCells(variant.name, agreement)));
}

/** What the table is, in a sentence under it. */
export const graderAgreementNote = "Graders against human labels: on the rows with a person's verdict, the person is taken as right; the corrected pass rate is the share a person would pass, with the grader's own errors in its interval.";
