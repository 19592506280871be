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
        const terms = binaryRowTerms(probability, label, threshold);
        if (terms.predicted && label) tp += weight;
        else if (terms.predicted) fp += weight;
        else if (label) fn += weight;
        else tn += weight;
        brier += weight * terms.brier;
        logLoss += weight * terms.logLoss;
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
        macroF1: macroF1OfConfusion([[tp, fn], [fp, tn]]),
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
 * What one yes/no row adds to a report: its prediction at `threshold` (true when P >= threshold), its Brier term
 * (P - y)^2 and its log loss (-ln of the clipped probability given to the label). The report's Brier score and
 * log loss are the weighted means of these.
 */
export function binaryRowTerms(probability: number, label: boolean, threshold: number): {predicted: boolean, brier: number, logLoss: number} {
    const clipped = clipProbability(probability);
    return {predicted: probability >= threshold, brier: (probability - (label ? 1 : 0)) ** 2, logLoss: -(label ? Math.log(clipped) : Math.log(1 - clipped))};
}

/**
 * ROC AUC from the (weighted) positives and negatives at each distinct probability, highest first: the trapezoid
 * area under the curve that lowers the threshold through them. Rows at one probability cross together, so ties
 * make one diagonal step and the area equals the Mann-Whitney statistic; null without both classes.
 */
export function rocAuc(positivesAt: ArrayLike<number>, negativesAt: ArrayLike<number>): number | null {
    let positives = 0, negatives = 0;
    for (let level = 0; level < positivesAt.length; level++) {
        positives += positivesAt[level];
        negatives += negativesAt[level];
    }
    if (positives === 0 || negatives === 0) return null;
    let tp = 0, fp = 0, area = 0;
    for (let level = 0; level < positivesAt.length; level++) {
        const nextTp = tp + positivesAt[level], nextFp = fp + negativesAt[level];
        area += (nextFp - fp) * (nextTp + tp);
        tp = nextTp;
        fp = nextFp;
    }
    return area / (2 * positives * negatives);
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
    const positivesAt: number[] = [], negativesAt: number[] = [];
    let tp = 0, fp = 0;
    for (let index = 0; index < sorted.length;) {
        const threshold = sorted[index].probability;
        const tpBefore = tp, fpBefore = fp;
        for (; index < sorted.length && sorted[index].probability === threshold; index++) {
            if (sorted[index].label) tp += sorted[index].weight ?? 1;
            else fp += sorted[index].weight ?? 1;
        }
        positivesAt.push(tp - tpBefore);
        negativesAt.push(fp - fpBefore);
        const fn = positives - tp, tn = negatives - fp;
        const precision = ratio(tp, tp + fp), recall = ratio(tp, positives);
        thresholds.push({threshold, tp, fp, tn, fn, precision, recall, f1: f1Score(tp, fp, fn), accuracy: (tp + tn) / total, falsePositiveRate: ratio(fp, negatives)});
        if (positives > 0 && negatives > 0) roc.push({threshold, falsePositiveRate: fp / negatives, truePositiveRate: tp / positives});
    }
    if (positives === 0 || negatives === 0) return {roc: [], auc: null, thresholds};
    return {roc, auc: rocAuc(positivesAt, negativesAt), thresholds};
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
 * support, macro F1, the confusion matrix, the Brier score (mean over the classes), log loss of the labelled class,
 * and the top-label ECE (confidence = the predicted class's probability, observed = fraction correct).
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
        const terms = multiclassRowTerms(row, options.ordinal);
        confusion[row.label][terms.predicted] += weight;
        if (terms.hit) correct += weight;
        brier += weight * terms.brier;
        logLoss += weight * terms.logLoss;
        confidences.push(terms.confidence);
        hits.push(terms.hit);
        weights.push(weight);
        absoluteError += weight * terms.absoluteError;
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
        macroF1: macroF1OfConfusion(confusion),
        confusion,
        brier: brier / n,
        logLoss: logLoss / n,
        ece,
        reliability,
        ...(options.ordinal ? {meanAbsoluteError: absoluteError / n} : {})
    };
}

/**
 * What one choice or score row adds to a report: its predicted class, whether that is the label, its Brier term
 * (the mean over the k classes of (p_k - y_k)^2, y the one-hot label: for two classes exactly (p - y)^2 of either
 * class, so a yes/no question and the same question asked as a two-option choice score alike), its log loss (-ln
 * of the label's clipped probability), the predicted class's probability (the top-label ECE's confidence) and, for
 * score questions (`ordinal`), |expected level - label|. The report's numbers are weighted means, counts and bins
 * of these terms.
 */
export function multiclassRowTerms(row: MulticlassRow, ordinal = false): {predicted: number, hit: boolean, brier: number, logLoss: number, confidence: number, absoluteError: number} {
    const predicted = row.predicted ?? argmax(row.probabilities);
    let squares = 0;
    row.probabilities.forEach((probability, index) => squares += (probability - (index === row.label ? 1 : 0)) ** 2);
    return {
        predicted,
        hit: predicted === row.label,
        brier: squares / row.probabilities.length,
        logLoss: -Math.log(clipProbability(row.probabilities[row.label])),
        confidence: row.probabilities[predicted],
        absoluteError: ordinal ? Math.abs((row.expected ?? expectedScore(row.probabilities)) - row.label) : 0
    };
}

/**
 * Macro F1 of confusion[actual][predicted]: the unweighted mean of each class's F1 (2tp / (2tp + fp + fn)) over
 * the classes that were labelled or predicted at least once. A yes/no question's is over [[tp, fn], [fp, tn]].
 */
export function macroF1OfConfusion(confusion: ReadonlyArray<readonly number[]>): number | null {
    const f1s = confusion.flatMap((actual, index) => {
        const tp = actual[index];
        const support = actual.reduce((a, b) => a + b, 0);
        const predicted = confusion.reduce((sum, row) => sum + row[index], 0);
        const f1 = f1Score(tp, predicted - tp, support - tp);
        return f1 === null ? [] : [f1];
    });
    return f1s.length === 0 ? null : f1s.reduce((a, b) => a + b, 0) / f1s.length;
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
