import type {BinaryReport, RocPoint, ThresholdRow} from "./types.ts";
import {clipProbability} from "./utils/probabilityFloor.ts";
import {f1Score, ratio} from "./utils/ratio.ts";
import {reliabilityBins} from "./utils/reliabilityBins.ts";

export type BinaryRow = {
    /** P(true) as answered. */
    probability: number,
    label: boolean
};

export type BinaryOptions = {threshold?: number, bins?: number};

/**
 * Metrics of a yes/no question against labels: at `threshold` (default 0.5, true when P >= threshold) the
 * confusion counts, accuracy, precision, recall, F1; threshold-free the Brier score, log loss, ECE with its
 * reliability bins (default 10), the ROC curve with its AUC, and precision / recall at every threshold.
 */
export function evaluateBinary(rows: readonly BinaryRow[], options: BinaryOptions = {}): BinaryReport {
    const threshold = options.threshold ?? 0.5;
    const n = rows.length;
    if (n === 0) throw new RangeError("evaluateBinary: no labelled rows");
    let tp = 0, fp = 0, tn = 0, fn = 0, brier = 0, logLoss = 0;
    for (const {probability, label} of rows) {
        const predicted = probability >= threshold;
        if (predicted && label) tp++;
        else if (predicted) fp++;
        else if (label) fn++;
        else tn++;
        const y = label ? 1 : 0;
        brier += (probability - y) ** 2;
        const clipped = clipProbability(probability);
        logLoss -= label ? Math.log(clipped) : Math.log(1 - clipped);
    }
    const precision = ratio(tp, tp + fp);
    const recall = ratio(tp, tp + fn);
    const {reliability, ece} = reliabilityBins(rows.map((row) => row.probability), rows.map((row) => row.label), options.bins ?? 10);
    const {roc, auc, thresholds} = sweepThresholds(rows);
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
function sweepThresholds(rows: readonly BinaryRow[]): {roc: RocPoint[], auc: number | null, thresholds: ThresholdRow[]} {
    const sorted = [...rows].sort((a, b) => b.probability - a.probability);
    const positives = rows.filter((row) => row.label).length;
    const negatives = rows.length - positives;
    const roc: RocPoint[] = [{threshold: null, falsePositiveRate: 0, truePositiveRate: 0}];
    const thresholds: ThresholdRow[] = [];
    let tp = 0, fp = 0, auc = 0;
    for (let index = 0; index < sorted.length;) {
        const threshold = sorted[index].probability;
        for (; index < sorted.length && sorted[index].probability === threshold; index++) {
            if (sorted[index].label) tp++;
            else fp++;
        }
        const fn = positives - tp, tn = negatives - fp;
        const precision = ratio(tp, tp + fp), recall = ratio(tp, positives);
        thresholds.push({threshold, tp, fp, tn, fn, precision, recall, f1: f1Score(tp, fp, fn), accuracy: (tp + tn) / rows.length, falsePositiveRate: ratio(fp, negatives)});
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
