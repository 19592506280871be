import {type BinaryReport, type RocPoint, type ThresholdRow, clipProbability, f1Score, ratio, reliabilityBins, type ClassMetrics, type MulticlassReport, eceBinCount} from "./evaluation.ts";
import {expectedScore} from "./scoreLevels.ts";

export type BinaryRow = {
    /** P(true) as answered. */
    probability: number,
    label: boolean,
    /** Frequency weight: the row counts as this many identical rows (default 1), e.g. its count in a bootstrap resample. */
    weight?: number
};

export type BinaryOptions = {threshold?: number, bins?: number};

/**
 * Metrics of a yes/no question against labels: at `threshold` (default 0.5, true when P >= threshold) the
 * confusion counts, accuracy, precision, recall, F1; threshold-free the Brier score, log loss, ECE with its
 * reliability bins (default 10), the ROC curve with its AUC, and precision / recall at every threshold.
 */
export function evaluateBinary(rows: readonly BinaryRow[], options: BinaryOptions = {}): BinaryReport {
    const threshold = options.threshold ?? 0.5;
    const n = totalWeight(rows);
    if (rows.length === 0 || n === 0) throw new RangeError("evaluateBinary: no labelled rows");
    let tp = 0, fp = 0, tn = 0, fn = 0, brier = 0, logLoss = 0;
    for (const {probability, label, weight = 1} of rows) {
        const predicted = probability >= threshold;
        if (predicted && label) tp += weight;
        else if (predicted) fp += weight;
        else if (label) fn += weight;
        else tn += weight;
        const y = label ? 1 : 0;
        brier += weight * (probability - y) ** 2;
        const clipped = clipProbability(probability);
        logLoss -= weight * (label ? Math.log(clipped) : Math.log(1 - clipped));
    }
    const precision = ratio(tp, tp + fp);
    const recall = ratio(tp, tp + fn);
    const {reliability, ece} = reliabilityBins(rows.map((row) => row.probability), rows.map((row) => row.label), options.bins ?? eceBinCount, rows.map((row) => row.weight ?? 1));
    const {roc, auc, thresholds} = sweepThresholds(rows, n);
    return {
        kind: "binary",
        n,
        positives: tp + fn,
        threshold,
        confusion: {tp, fp, tn, fn},
        accuracy: (tp + tn) / n,
        precision,
        recall,
        f1: f1Score(tp, fp, fn),
        macroF1: macroF1([f1Score(tp, fp, fn), f1Score(tn, fn, fp)]),
        brier: brier / n,
        logLoss: logLoss / n,
        ece,
        reliability,
        roc,
        auc,
        thresholds
    };
}

/**
 * Lowers the threshold through every distinct probability, highest first; rows with equal probabilities
 * cross together, so ties give one diagonal ROC step and the trapezoid AUC equals the Mann-Whitney statistic
 * (a tied positive-negative pair counts one half).
 */
function sweepThresholds(rows: readonly BinaryRow[], total: number): {roc: RocPoint[], auc: number | null, thresholds: ThresholdRow[]} {
    const sorted = [...rows].sort((a, b) => b.probability - a.probability);
    const positives = totalWeight(rows.filter((row) => row.label));
    const negatives = total - positives;
    const roc: RocPoint[] = [{threshold: null, falsePositiveRate: 0, truePositiveRate: 0}];
    const thresholds: ThresholdRow[] = [];
    let tp = 0, fp = 0, auc = 0;
    for (let index = 0; index < sorted.length;) {
        const threshold = sorted[index].probability;
        for (; index < sorted.length && sorted[index].probability === threshold; index++) {
            if (sorted[index].label) tp += sorted[index].weight ?? 1;
            else fp += sorted[index].weight ?? 1;
        }
        const fn = positives - tp, tn = negatives - fp;
        const precision = ratio(tp, tp + fp), recall = ratio(tp, positives);
        thresholds.push({threshold, tp, fp, tn, fn, precision, recall, f1: f1Score(tp, fp, fn), accuracy: (tp + tn) / total, falsePositiveRate: ratio(fp, negatives)});
        if (positives > 0 && negatives > 0) {
            const previous = roc[roc.length - 1];
            const point = {threshold, falsePositiveRate: fp / negatives, truePositiveRate: tp / positives};
            auc += (point.falsePositiveRate - previous.falsePositiveRate) * (point.truePositiveRate + previous.truePositiveRate) / 2;
            roc.push(point);
        }
    }
    if (positives === 0 || negatives === 0) return {roc: [], auc: null, thresholds};
    return {roc, auc, thresholds};
}

export type MulticlassRow = {
    /** Aligned with `labels`. */
    probabilities: readonly number[],
    /** Index of the predicted class; default the most probable (the first one on a tie). */
    predicted?: number,
    /** Index of the labelled class. */
    label: number,
    /** Score questions: the expected level for the mean absolute error; default computed from `probabilities`. */
    expected?: number,
    /** Frequency weight, as BinaryRow's. */
    weight?: number
};

export type MulticlassOptions = {
    bins?: number,
    /** Score questions: also report the mean absolute error of the expected score against the label. */
    ordinal?: boolean
};

/**
 * Metrics of a choice (or score) question against labels: accuracy, per-class precision / recall / F1 with
 * support, macro F1, the confusion matrix, multiclass Brier score, log loss of the labelled class, and the
 * top-label ECE (confidence = the predicted class's probability, observed = fraction correct).
 */
export function evaluateMulticlass(rows: readonly MulticlassRow[], labels: readonly string[], options: MulticlassOptions = {}): MulticlassReport {
    const n = totalWeight(rows);
    if (rows.length === 0 || n === 0) throw new RangeError("evaluateMulticlass: no labelled rows");
    const k = labels.length;
    const confusion = labels.map(() => new Array<number>(k).fill(0));
    let correct = 0, brier = 0, logLoss = 0, absoluteError = 0;
    const confidences: number[] = [];
    const hits: boolean[] = [];
    const weights: number[] = [];
    for (const row of rows) {
        if (row.probabilities.length !== k) throw new RangeError(`evaluateMulticlass: a row has ${row.probabilities.length} probabilities for ${k} labels`);
        if (!Number.isInteger(row.label) || row.label < 0 || row.label >= k) throw new RangeError(`evaluateMulticlass: label index ${row.label} out of range`);
        const weight = row.weight ?? 1;
        const predicted = row.predicted ?? argmax(row.probabilities);
        confusion[row.label][predicted] += weight;
        if (predicted === row.label) correct += weight;
        let squares = 0;
        row.probabilities.forEach((probability, index) => squares += (probability - (index === row.label ? 1 : 0)) ** 2);
        brier += weight * squares;
        logLoss -= weight * Math.log(clipProbability(row.probabilities[row.label]));
        confidences.push(row.probabilities[predicted]);
        hits.push(predicted === row.label);
        weights.push(weight);
        if (options.ordinal) absoluteError += weight * Math.abs((row.expected ?? expectedScore(row.probabilities)) - row.label);
    }
    const perClass = labels.map((label, index): ClassMetrics => {
        const support = confusion[index].reduce((a, b) => a + b, 0);
        const predicted = confusion.reduce((sum, actual) => sum + actual[index], 0);
        const tp = confusion[index][index];
        return {label, support, predicted, precision: ratio(tp, predicted), recall: ratio(tp, support), f1: f1Score(tp, predicted - tp, support - tp)};
    });
    const {reliability, ece} = reliabilityBins(confidences, hits, options.bins ?? eceBinCount, weights);
    return {
        kind: "multiclass",
        n,
        labels: [...labels],
        accuracy: correct / n,
        perClass,
        macroF1: macroF1(perClass.map((entry) => entry.f1)),
        confusion,
        brier: brier / n,
        logLoss: logLoss / n,
        ece,
        reliability,
        ...(options.ordinal ? {meanAbsoluteError: absoluteError / n} : {})
    };
}

/** Unweighted mean of the classes' F1 over those that were labelled or predicted at least once (F1 not null). */
export function macroF1(f1s: ReadonlyArray<number | null>): number | null {
    const defined = f1s.filter((f1): f1 is number => f1 !== null);
    return defined.length === 0 ? null : defined.reduce((a, b) => a + b, 0) / defined.length;
}

/** The rows' summed frequency weights: the number of rows when none has a weight. */
function totalWeight(rows: ReadonlyArray<{weight?: number}>): number {
    let total = 0;
    for (const row of rows) total += row.weight ?? 1;
    return total;
}

export function argmax(values: readonly number[]): number {
    let best = 0;
    for (let index = 1; index < values.length; index++) if (values[index] > values[best]) best = index;
    return best;
}
