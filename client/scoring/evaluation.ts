import type {QuestionInfo, NormalizedAnswer} from "./questions.ts";
import type {CellValue} from "./types.ts";
import {argmax, evaluateBinary, type BinaryOptions, evaluateMulticlass, type MulticlassRow} from "./metrics.ts";
import {levelsAreNumbered, readLevelLabel, readScore} from "./scoreLevels.ts";

// Reports of client/evaluation. Metrics that are undefined on the data (a precision with nothing predicted
// positive, an AUC without both classes) are null rather than NaN, so a report survives JSON.

/** One reliability-diagram bin: equal-width bins of predicted probability (binary) or confidence (multiclass). */
export type ReliabilityBin = {
    lower: number,
    upper: number,
    count: number,
    /** Mean predicted probability (binary: P(true); multiclass: the top probability) in the bin; null when empty. */
    meanPredicted: number | null,
    /** Fraction true (binary) or fraction correct (multiclass) in the bin; null when empty. */
    observed: number | null
};

export type Confusion = {tp: number, fp: number, tn: number, fn: number};

/** Predicting true when P(true) >= threshold. */
export type ThresholdRow = Confusion & {
    threshold: number,
    precision: number | null,
    recall: number | null,
    f1: number | null,
    accuracy: number,
    /** Recall of the false class, for a picker that shows both kinds of mistake. */
    falsePositiveRate: number | null
};

/** `threshold` null: the origin, above every probability (nothing predicted true). */
export type RocPoint = {threshold: number | null, falsePositiveRate: number, truePositiveRate: number};

export type CalibrationMetrics = {
    /** Mean negative log-likelihood, probabilities clipped to [probabilityFloor, 1 - probabilityFloor]. */
    logLoss: number,
    /**
     * Mean over rows of the mean over the options of (p_k - y_k)^2 (y one-hot): binary (p - y)^2 (scikit-learn's
     * brier_score_loss); k options 0 to 2/k, a two-option choice the same number as the yes/no question.
     */
    brier: number,
    /** Expected calibration error over `reliability`: sum of |observed - meanPredicted| weighted by bin share. */
    ece: number,
    reliability: ReliabilityBin[]
};

export type BinaryReport = CalibrationMetrics & {
    kind: "binary",
    n: number,
    positives: number,
    threshold: number,
    confusion: Confusion,
    accuracy: number,
    precision: number | null,
    recall: number | null,
    f1: number | null,
    /** Mean of the F1 of true and the F1 of false (as a choice question's macro F1 over its two options). */
    macroF1: number | null,
    /** From (0, 0) to (1, 1), one point per distinct probability; empty when a class is missing. */
    roc: RocPoint[],
    auc: number | null,
    /** Precision / recall at each distinct probability, highest threshold first: a threshold picker's data. */
    thresholds: ThresholdRow[]
};

export type ClassMetrics = {label: string, support: number, predicted: number, precision: number | null, recall: number | null, f1: number | null};

export type MulticlassReport = CalibrationMetrics & {
    kind: "multiclass",
    n: number,
    labels: string[],
    accuracy: number,
    perClass: ClassMetrics[],
    /** Unweighted mean of the per-class F1 over the classes that were labelled or predicted at least once. */
    macroF1: number | null,
    /** confusion[actual][predicted], indexes as in `labels`. */
    confusion: number[][],
    /** Score questions only: mean |expected level - labelled level|. */
    meanAbsoluteError?: number
};

export type Report = BinaryReport | MulticlassReport;

const yes = new Set(["true", "yes", "y", "1", "t"]);
const no = new Set(["false", "no", "n", "0", "f"]);

/**
 * The option a label cell names, as an index into `info.options`; null for an empty cell (unlabelled), and
 * undefined for a label that names no option (reported, never guessed). yesno: true / false, yes / no, y / n,
 * 1 / 0, t / f in any case. choice: the value as written, else ignoring case and outer spaces. score: the level's
 * label (any case), else its index (0 = lowest) where no level's label holds a digit (readLevelLabel says why).
 */
export function readLabel(info: QuestionInfo, cell: CellValue): number | null | undefined {
    if (cell === null || (typeof cell === "string" && cell.trim() === "")) return null;
    const text = String(cell).trim();
    if (info.kind === "yesno") {
        const lower = text.toLowerCase();
        if (yes.has(lower)) return 0;
        if (no.has(lower)) return 1;
        return undefined;
    }
    if (info.kind === "score") return readLevelLabel(info.options, String(cell));
    const raw = String(cell);
    const exact = info.options.findIndex((option) => String(option.value) === raw);
    if (exact >= 0) return exact;
    const folded = info.options.findIndex((option) => String(option.value).trim().toLowerCase() === text.toLowerCase());
    return folded >= 0 ? folded : undefined;
}

/** What readLabel accepts for a question, in words, for a message that refuses a label. */
export function acceptedLabels(info: QuestionInfo): string {
    if (info.kind === "yesno") return "true / false, yes / no, y / n, t / f or 1 / 0, any case";
    const names = info.options.map((option) => JSON.stringify(info.kind === "score" ? option.label : String(option.value))).join(", ");
    if (info.kind === "choice") return `${names}, any case`;
    return levelsAreNumbered(info.options) ? `${names}, any case` : `${names}, any case, or a level index 0–${info.options.length - 1} (0 = lowest)`;
}

/**
 * The option an answer picks: a score question's most likely level (scoreLevels.ts says why not the rounded
 * expected score); the server's `choice` when it names an option (it came from unrounded values, so it breaks
 * ties that rounding made), else the most probable option.
 */
export function predictedIndex(info: QuestionInfo, answer: NormalizedAnswer): number {
    if (info.kind === "score") return readScore(answer).mostLikely;
    if (answer.choice !== undefined) {
        const index = info.options.findIndex((option) => option.value === answer.choice);
        if (index >= 0 && answer.probabilities[index] === Math.max(...answer.probabilities)) return index;
    }
    return argmax(answer.probabilities);
}

// Answers carry probabilities rounded to hundredths (spec 2.8), so a 0 means "below 0.005", not impossible.
// Log loss and logits clip to [floor, 1 - floor]: one confident miss then costs ln(200) = 5.3, not infinity.
export const probabilityFloor = 0.005;

export function clipProbability(probability: number): number {
    return Math.min(1 - probabilityFloor, Math.max(probabilityFloor, probability));
}

/** numerator / denominator, or null when the denominator is 0 (a metric undefined on this data). */
export function ratio(numerator: number, denominator: number): number | null {
    return denominator === 0 ? null : numerator / denominator;
}

/**
 * F1 as 2tp / (2tp + fp + fn): the harmonic mean of precision and recall where both exist, 0 for a class
 * that is labelled but never predicted (or predicted but never labelled), null only when it is neither.
 */
export function f1Score(tp: number, fp: number, fn: number): number | null {
    return ratio(2 * tp, 2 * tp + fp + fn);
}

/** Reliability bins of every ECE the app computes: cards, charts and calibration before / after alike. */
export const eceBinCount = 10;

/**
 * How an ECE is measured, for the hover text next to one (yes/no: P(true); choice and score: the top label);
 * without a kind, both.
 */
export function eceDefinition(kind?: QuestionInfo["kind"]): string {
    if (kind === undefined)
        return `Expected calibration error: the rows go into ${eceBinCount} equal-width bins (0–0.1, …, 0.9–1) of P(true) for a yes/no question, ` +
            `of the predicted option's probability for a choice or score question, and each bin's gap between that probability and the fraction ` +
            `labelled true (yes/no) or predicted right (choice, score) is weighted by its share of the rows. Lower is better.`;
    const what = kind === "yesno" ? "P(true) against the fraction of rows labelled true" : "the predicted option's probability against the fraction predicted right";
    return `Expected calibration error: the rows go into ${eceBinCount} equal-width bins of ${kind === "yesno" ? "P(true)" : "that probability"} ` +
        `(0–0.1, …, 0.9–1), and each bin's gap between ${what} is weighted by its share of the rows. Lower is better.`;
}

/**
 * How the Brier score is measured, for the hover text next to one: one definition for every kind (the mean over
 * the options of the squared gap), written for the kind at hand; without a kind, for both.
 */
export function brierDefinition(kind?: QuestionInfo["kind"]): string {
    const mean = "Mean over the options of the squared gap between the option's probability and the label (1 for the labelled option, 0 for the others), averaged over the rows";
    const yesno = "For a yes/no question this is (P(true) − y)², y = 1 when labelled true, and a two-option choice gives the same number";
    const body = kind === "yesno" ? `${mean}. ${yesno}; 0.25 is a constant 50%.`
        : kind === undefined ? `${mean}. ${yesno}.` : `${mean}; with k options it runs from 0 to 2/k. ${yesno}.`;
    return `${body} Lower is better.`;
}

/** The bin of a probability among `binCount` equal-width bins over [0, 1]; 1.0 goes in the last one. */
export function reliabilityBinIndex(probability: number, binCount: number): number {
    // The tiny nudge keeps 0.3 in [0.3, 0.4) although 0.3 * 10 is 2.9999999999999996 in floating point.
    return Math.min(binCount - 1, Math.max(0, Math.floor(probability * binCount + 1e-9)));
}

/**
 * Equal-width bins over [0, 1] of `predicted` (1.0 goes in the last bin) with the observed rate of `hit` in
 * each, and the expected calibration error: the bins' |observed - mean predicted| weighted by their share.
 * `weights` (default 1 each) count a row as that many identical rows, as a bootstrap resample does.
 */
export function reliabilityBins(predicted: readonly number[], hit: readonly boolean[], binCount: number, weights?: readonly number[]): {reliability: ReliabilityBin[], ece: number} {
    const counts = new Array<number>(binCount).fill(0);
    const sums = new Array<number>(binCount).fill(0);
    const hits = new Array<number>(binCount).fill(0);
    let total = 0;
    predicted.forEach((probability, index) => {
        const bin = reliabilityBinIndex(probability, binCount);
        const weight = weights?.[index] ?? 1;
        counts[bin] += weight;
        sums[bin] += weight * probability;
        if (hit[index]) hits[bin] += weight;
        total += weight;
    });
    let ece = 0;
    const reliability = counts.map((count, bin): ReliabilityBin => {
        const meanPredicted = count === 0 ? null : sums[bin] / count;
        const observed = count === 0 ? null : hits[bin] / count;
        if (count > 0) ece += count / total * Math.abs(observed! - meanPredicted!);
        return {lower: bin / binCount, upper: (bin + 1) / binCount, count, meanPredicted, observed};
    });
    return {reliability, ece};
}

export type LabelledAnswer = {
    /** The row's answer; null when the row has none (an error, or not scored yet). */
    answer: NormalizedAnswer | null,
    /** The cell of the label column. */
    label: CellValue
};

export type QuestionEvaluation = {
    question: string,
    kind: QuestionInfo["kind"],
    /** Rows used: answered and labelled with a known option. */
    used: number,
    skipped: {unlabelled: number, unanswered: number, unknownLabel: number},
    /** Up to 10 distinct labels that named no option, to show next to the label column picker. */
    unknownLabels: string[],
    /** Null when no row could be used. */
    report: Report | null,
    /** True when the answers were calibrated ones. */
    calibrated: boolean
};

export type EvaluateOptions = BinaryOptions;

/** Pairs each answer with its label (readLabel) and reports the question's metrics (binary or multiclass). */
export function evaluateQuestion(info: QuestionInfo, rows: readonly LabelledAnswer[], options: EvaluateOptions = {}): QuestionEvaluation {
    const skipped = {unlabelled: 0, unanswered: 0, unknownLabel: 0};
    const unknown = new Set<string>();
    const used: Array<{answer: NormalizedAnswer, label: number}> = [];
    for (const row of rows) {
        const label = readLabel(info, row.label);
        if (label === null) skipped.unlabelled++;
        else if (label === undefined) {
            skipped.unknownLabel++;
            if (unknown.size < 10) unknown.add(String(row.label));
        } else if (row.answer === null) skipped.unanswered++;
        else used.push({answer: row.answer, label});
    }
    return {
        question: info.name,
        kind: info.kind,
        used: used.length,
        skipped,
        unknownLabels: [...unknown],
        report: used.length === 0 ? null : reportOf(info, used, options),
        calibrated: used.length > 0 && used.every((row) => row.answer.calibrated === true)
    };
}

/** An answer paired with the index of the option its label names; `weight` as BinaryRow's (default 1). */
export type ReadLabelledAnswer = {answer: NormalizedAnswer, label: number, weight?: number};

/**
 * The report of one question's answers against their labels: the single place where answers become metrics, so
 * the evaluation cards, their charts and a calibration's before / after agree (same predicted option, same bins).
 */
export function reportOf(info: QuestionInfo, rows: readonly ReadLabelledAnswer[], options: EvaluateOptions = {}): Report {
    const bins = options.bins ?? eceBinCount;
    if (info.kind === "yesno")
        return evaluateBinary(rows.map((row) => ({probability: row.answer.probabilities[0], label: row.label === 0, ...(row.weight === undefined ? {} : {weight: row.weight})})), {...options, bins});
    const labels = info.options.map((option) => info.kind === "score" ? `${option.value}: ${option.label}` : String(option.value));
    return evaluateMulticlass(rows.map((row) => multiclassRowOf(info, row)), labels, {bins, ordinal: info.kind === "score"});
}

/** A choice or score answer as the multiclass metrics read it: its predicted option (predictedIndex) and expected level. */
export function multiclassRowOf(info: QuestionInfo, row: ReadLabelledAnswer): MulticlassRow {
    return {
        probabilities: row.answer.probabilities,
        predicted: predictedIndex(info, row.answer),
        label: row.label,
        ...(row.weight === undefined ? {} : {weight: row.weight}),
        ...(info.kind === "score" ? {expected: readScore(row.answer).expected} : {})
    };
}
