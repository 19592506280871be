import {test} from "node:test";
import assert from "node:assert/strict";
import {parseQuestionSet, questionInfos} from "./questions.ts";
import {evaluateBinary, evaluateMulticlass} from "./metrics.ts";
import {evaluateQuestion, readLabel} from "./evaluation.ts";

const close = (actual: number | null | undefined, expected: number, message?: string) =>
    assert.ok(actual != null && Math.abs(actual - expected) < 1e-6, `${message ?? ""} expected ${expected}, got ${actual}`);

// Worked example, classes a, b, c:
//   row  probabilities     label  predicted
//   1    .7  .2  .1        a      a  right
//   2    .1  .6  .3        b      b  right
//   3    .2  .5  .3        c      b  wrong
//   4    .6  .3  .1        b      a  wrong
// accuracy 2/4. confusion[actual][predicted]: a [1 0 0], b [1 1 0], c [0 1 0]
// a: tp 1, predicted 2, support 1: P 1/2, R 1, F1 = 2/(2+1+0) = 2/3
// b: tp 1, predicted 2, support 2: P 1/2, R 1/2, F1 = 2/(2+1+1) = 1/2
// c: tp 0, predicted 0, support 1: P undefined, R 0, F1 = 0/(0+0+1) = 0;  macro F1 = (2/3 + 1/2 + 0) / 3 = 7/18
// Brier, the mean over the 3 classes of the squared gap, averaged over rows: (.3²+.2²+.1²)/3 + (.1²+.4²+.3²)/3 +
//   (.2²+.5²+.7²)/3 + (.6²+.7²+.1²)/3 = (.14 + .26 + .78 + .86)/3 = 0.68; / 4 = 0.17
//   (numpy: np.mean(np.mean((P - np.eye(3)[y]) ** 2, axis=1)) = 0.16999999999999998)
// Log loss: -(ln .7 + ln .6 + ln .3 + ln .3) / 4 = (0.3566749 + 0.5108256 + 1.2039728 + 1.2039728) / 4 = 0.8188615
// ECE on the top probability: bin .7 {.7 right}: |1 - .7| * 1/4; bin .6 {.6 right, .6 wrong}: |.5 - .6| * 2/4;
//   bin .5 {.5 wrong}: |0 - .5| * 1/4  ->  .075 + .05 + .125 = 0.25
const rows = [
    {probabilities: [0.7, 0.2, 0.1], label: 0},
    {probabilities: [0.1, 0.6, 0.3], label: 1},
    {probabilities: [0.2, 0.5, 0.3], label: 2},
    {probabilities: [0.6, 0.3, 0.1], label: 1}
];

test("accuracy, per-class precision / recall / F1, confusion matrix, Brier, log loss and ECE of the worked example", () => {
    const report = evaluateMulticlass(rows, ["a", "b", "c"]);
    close(report.accuracy, 0.5);
    assert.deepEqual(report.confusion, [[1, 0, 0], [1, 1, 0], [0, 1, 0]]);
    assert.deepEqual(report.perClass.map((entry) => [entry.label, entry.support, entry.predicted]), [["a", 1, 2], ["b", 2, 2], ["c", 1, 0]]);
    close(report.perClass[0].precision, 0.5);
    close(report.perClass[0].recall, 1);
    close(report.perClass[0].f1, 2 / 3);
    close(report.perClass[1].f1, 0.5);
    assert.equal(report.perClass[2].precision, null);
    close(report.perClass[2].recall, 0);
    close(report.perClass[2].f1, 0);
    close(report.macroF1, 7 / 18);
    close(report.brier, 0.17);
    close(report.logLoss, 0.8188615);
    close(report.ece, 0.25);
    assert.equal(report.meanAbsoluteError, undefined);
});

test("score questions: labels by level index or label text, and the mean absolute error of the expected level", () => {
    const info = questionInfos(parseQuestionSet({questions: [{type: "score", name: "stars", instructions: "?", levels: [{label: "bad"}, {label: "ok"}, {label: "Good"}]}]}).normalized)[0];
    assert.equal(readLabel(info, 2), 2);
    assert.equal(readLabel(info, "1"), 1);
    assert.equal(readLabel(info, " good "), 2);
    assert.equal(readLabel(info, 5), undefined);
    // Expected levels: .2*0 + .3*1 + .5*2 = 1.3 (label 2: error .7) and .6*0 + .4*1 = .4 (label 0: error .4): MAE .55
    const evaluation = evaluateQuestion(info, [
        {answer: {probabilities: [0.2, 0.3, 0.5]}, label: "Good"},
        {answer: {probabilities: [0.6, 0.4, 0]}, label: 0},
        {answer: null, label: 1},
        {answer: {probabilities: [0.6, 0.4, 0]}, label: ""},
        {answer: {probabilities: [0.6, 0.4, 0]}, label: "great"}
    ]);
    assert.equal(evaluation.used, 2);
    assert.deepEqual(evaluation.skipped, {unlabelled: 1, unanswered: 1, unknownLabel: 1});
    assert.deepEqual(evaluation.unknownLabels, ["great"]);
    assert.equal(evaluation.report?.kind, "multiclass");
    close(evaluation.report?.kind === "multiclass" ? evaluation.report.meanAbsoluteError : null, 0.55);
    close(evaluation.report?.accuracy, 1);
});

test("labels: yes/no spellings, choice values with their types, case folded only when no exact match", () => {
    const [yesno, choice] = questionInfos(parseQuestionSet({questions: [
        {type: "predicate", instructions: "?"},
        {type: "choice", instructions: "?", choices: [{value: "Red"}, {value: "red "}, {value: false}]}
    ]}).normalized);
    for (const cell of [true, "yes", "Y", "1", 1, "TRUE", "t"]) assert.equal(readLabel(yesno, cell), 0, String(cell));
    for (const cell of [false, "no", "n", "0", 0, "False"]) assert.equal(readLabel(yesno, cell), 1, String(cell));
    assert.equal(readLabel(yesno, "maybe"), undefined);
    assert.equal(readLabel(yesno, null), null);
    assert.equal(readLabel(choice, "red "), 1, "exact match first");
    assert.equal(readLabel(choice, "RED"), 0, "then case- and space-insensitive");
    assert.equal(readLabel(choice, false), 2);
    assert.equal(readLabel(choice, "blue"), undefined);
});

test("a yes/no question and the same question asked as a two-option choice have one Brier score, (P(yes) − y)²", () => {
    // P(yes) .9 .8 .3 .2 .1 .6 .7 .4 against yes yes yes no no no yes no: squared gaps .01 .04 .49 .04 .01 .36 .09 .16,
    // mean 1.2 / 8 = 0.15 (numpy: np.mean((p - y) ** 2) = 0.15, scikit-learn's brier_score_loss; as two options
    // [p, 1 - p] against one-hot labels, np.mean(np.mean((P - Y) ** 2, axis=1)) = 0.15 as well).
    const probabilities = [0.9, 0.8, 0.3, 0.2, 0.1, 0.6, 0.7, 0.4];
    const labels = [true, true, true, false, false, false, true, false];
    const binary = evaluateBinary(probabilities.map((probability, index) => ({probability, label: labels[index]})));
    const choice = evaluateMulticlass(probabilities.map((probability, index) => ({probabilities: [probability, 1 - probability], label: labels[index] ? 0 : 1})), ["yes", "no"]);
    close(binary.brier, 0.15);
    close(choice.brier, 0.15);
});
