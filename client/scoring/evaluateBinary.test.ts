import {test} from "node:test";
import assert from "node:assert/strict";
import {evaluateBinary} from "./metrics.ts";

const close = (actual: number | null, expected: number, message?: string) =>
    assert.ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${message ?? ""} expected ${expected}, got ${actual}`);

// Worked example, by hand:
//   p = 0.9  0.8  0.7  0.6  0.4  0.2
//   y =  1    1    0    1    0    0
// Threshold 0.5 predicts the first four true: tp = 3 (0.9, 0.8, 0.6), fp = 1 (0.7), tn = 2, fn = 0.
//   accuracy 5/6; precision 3/4; recall 3/3; F1 = 2*3 / (2*3 + 1 + 0) = 6/7
//   F1 of false: tp 2 (tn), fp 0 (fn), fn 1 (fp): 4/5; macro F1 = (6/7 + 4/5) / 2 = 29/35
// Brier = (0.1^2 + 0.2^2 + 0.7^2 + 0.4^2 + 0.4^2 + 0.2^2) / 6 = 0.90 / 6 = 0.15
// Log loss = -(ln 0.9 + ln 0.8 + ln 0.3 + ln 0.6 + ln 0.6 + ln 0.8) / 6
//          = (0.1053605 + 0.2231436 + 1.2039728 + 0.5108256 + 0.5108256 + 0.2231436) / 6 = 2.7772717 / 6 = 0.4628786
// ECE, 10 bins, one row per bin: (|1-.9| + |1-.8| + |0-.7| + |1-.6| + |0-.4| + |0-.2|) / 6 = 2.0 / 6 = 1/3
// AUC: positives {.9, .8, .6} vs negatives {.7, .4, .2}: 9 pairs, 8 ranked right (.6 < .7 is the miss): 8/9
const p = [0.9, 0.8, 0.7, 0.6, 0.4, 0.2];
const y = [true, true, false, true, false, false];
const rows = p.map((probability, index) => ({probability, label: y[index]}));

test("threshold metrics, Brier, log loss, ECE and AUC of the worked example", () => {
    const report = evaluateBinary(rows);
    assert.deepEqual(report.confusion, {tp: 3, fp: 1, tn: 2, fn: 0});
    assert.equal(report.n, 6);
    assert.equal(report.positives, 3);
    close(report.accuracy, 5 / 6, "accuracy");
    close(report.precision, 3 / 4, "precision");
    close(report.recall, 1, "recall");
    close(report.f1, 6 / 7, "f1");
    close(report.macroF1, 29 / 35, "macro f1");
    close(report.brier, 0.15, "brier");
    assert.ok(Math.abs(report.logLoss - 0.4628786) < 1e-6, `log loss ${report.logLoss}`);
    close(report.ece, 1 / 3, "ece");
    close(report.auc, 8 / 9, "auc");
    // Reliability bins: 0.7 sits alone in [0.7, 0.8) and was false.
    const bin = report.reliability[7];
    assert.deepEqual({lower: bin.lower, count: bin.count, observed: bin.observed}, {lower: 0.7, count: 1, observed: 0});
    close(bin.meanPredicted, 0.7);
    assert.equal(report.reliability.reduce((sum, entry) => sum + entry.count, 0), 6);
    assert.equal(report.reliability[0].meanPredicted, null, "an empty bin has no mean");
});

test("ROC curve and the precision / recall at every threshold", () => {
    const report = evaluateBinary(rows);
    // ROC points after each threshold (fpr, tpr): .9 (0, 1/3), .8 (0, 2/3), .7 (1/3, 2/3), .6 (1/3, 1), .4 (2/3, 1), .2 (1, 1)
    assert.deepEqual(report.roc.map((point) => [point.threshold, point.falsePositiveRate, point.truePositiveRate]), [
        [null, 0, 0], [0.9, 0, 1 / 3], [0.8, 0, 2 / 3], [0.7, 1 / 3, 2 / 3], [0.6, 1 / 3, 1], [0.4, 2 / 3, 1], [0.2, 1, 1]
    ]);
    // At threshold 0.7: predicted true {.9, .8, .7}: tp 2, fp 1, fn 1 (.6), tn 2: precision 2/3, recall 2/3.
    const at07 = report.thresholds.find((row) => row.threshold === 0.7)!;
    assert.deepEqual({tp: at07.tp, fp: at07.fp, fn: at07.fn, tn: at07.tn}, {tp: 2, fp: 1, fn: 1, tn: 2});
    close(at07.precision, 2 / 3);
    close(at07.recall, 2 / 3);
    close(at07.f1, 2 / 3);
    close(at07.falsePositiveRate, 1 / 3);
    assert.deepEqual(report.thresholds.map((row) => row.threshold), p, "highest threshold first");
    // The lowest threshold predicts everything true: recall 1, precision = base rate 1/2.
    close(report.thresholds.at(-1)!.precision, 0.5);
});

test("ties cross together (AUC counts a tied pair one half); one-class data has no ROC; undefined metrics are null", () => {
    const tied = evaluateBinary([{probability: 0.5, label: true}, {probability: 0.5, label: false}]);
    close(tied.auc, 0.5);
    assert.deepEqual(tied.roc.map((point) => [point.falsePositiveRate, point.truePositiveRate]), [[0, 0], [1, 1]]);

    const allNegative = evaluateBinary([{probability: 0.2, label: false}, {probability: 0.3, label: false}]);
    assert.equal(allNegative.auc, null);
    assert.deepEqual(allNegative.roc, []);
    assert.equal(allNegative.precision, null, "nothing predicted true");
    assert.equal(allNegative.recall, null, "no positives");
    assert.equal(allNegative.f1, null);
    close(allNegative.accuracy, 1);
    // A probability of exactly 0 or 1 costs ln(200), not infinity: answers are rounded to hundredths.
    const confidentMiss = evaluateBinary([{probability: 0, label: true}]);
    close(confidentMiss.logLoss, Math.log(200));
    assert.throws(() => evaluateBinary([]), /no labelled rows/);
});

test("the threshold moves the confusion counts", () => {
    const strict = evaluateBinary(rows, {threshold: 0.85});
    assert.deepEqual(strict.confusion, {tp: 1, fp: 0, tn: 3, fn: 2});
    close(strict.precision, 1);
    close(strict.recall, 1 / 3);
});
