import type {ClassMetrics, MulticlassReport} from "./types.ts";
import {clipProbability} from "./utils/probabilityFloor.ts";
import {f1Score, ratio} from "./utils/ratio.ts";
import {reliabilityBins} from "./utils/reliabilityBins.ts";

export type MulticlassRow = {
    /** Aligned with `labels`. */
    probabilities: readonly number[],
    /** Index of the predicted class; default the most probable (the first one on a tie). */
    predicted?: number,
    /** Index of the labelled class. */
    label: number
};

export type MulticlassOptions = {
    bins?: number,
    /** Score questions: also report the mean absolute error of the expected level against the label. */
    ordinal?: boolean
};

/**
 * Metrics of a choice (or score) question against labels: accuracy, per-class precision / recall / F1 with
 * support, macro F1, the confusion matrix, multiclass Brier score, log loss of the labelled class, and the
 * top-label ECE (confidence = the predicted class's probability, observed = fraction correct).
 */
export function evaluateMulticlass(rows: readonly MulticlassRow[], labels: readonly string[], options: MulticlassOptions = {}): MulticlassReport {
    const n = rows.length;
    if (n === 0) throw new RangeError("evaluateMulticlass: no labelled rows");
    const k = labels.length;
    const confusion = labels.map(() => new Array<number>(k).fill(0));
    let correct = 0, brier = 0, logLoss = 0, absoluteError = 0;
    const confidences: number[] = [];
    const hits: boolean[] = [];
    for (const row of rows) {
        if (row.probabilities.length !== k) throw new RangeError(`evaluateMulticlass: a row has ${row.probabilities.length} probabilities for ${k} labels`);
        if (!Number.isInteger(row.label) || row.label < 0 || row.label >= k) throw new RangeError(`evaluateMulticlass: label index ${row.label} out of range`);
        const predicted = row.predicted ?? argmax(row.probabilities);
        confusion[row.label][predicted]++;
        if (predicted === row.label) correct++;
        row.probabilities.forEach((probability, index) => brier += (probability - (index === row.label ? 1 : 0)) ** 2);
        logLoss -= Math.log(clipProbability(row.probabilities[row.label]));
        confidences.push(row.probabilities[predicted]);
        hits.push(predicted === row.label);
        if (options.ordinal) absoluteError += Math.abs(row.probabilities.reduce((sum, probability, level) => sum + probability * level, 0) - row.label);
    }
    const perClass = labels.map((label, index): ClassMetrics => {
        const support = confusion[index].reduce((a, b) => a + b, 0);
        const predicted = confusion.reduce((sum, actual) => sum + actual[index], 0);
        const tp = confusion[index][index];
        return {label, support, predicted, precision: ratio(tp, predicted), recall: ratio(tp, support), f1: f1Score(tp, predicted - tp, support - tp)};
    });
    const f1s = perClass.flatMap((entry) => entry.f1 === null ? [] : [entry.f1]);
    const {reliability, ece} = reliabilityBins(confidences, hits, options.bins ?? 10);
    return {
        kind: "multiclass",
        n,
        labels: [...labels],
        accuracy: correct / n,
        perClass,
        macroF1: f1s.length === 0 ? null : f1s.reduce((a, b) => a + b, 0) / f1s.length,
        confusion,
        brier: brier / n,
        logLoss: logLoss / n,
        ece,
        reliability,
        ...(options.ordinal ? {meanAbsoluteError: absoluteError / n} : {})
    };
}

export function argmax(values: readonly number[]): number {
    let best = 0;
    for (let index = 1; index < values.length; index++) if (values[index] > values[best]) best = index;
    return best;
}
