import {test} from "node:test";
import assert from "node:assert/strict";
import {parseQuestionSet, questionInfos} from "./questions.ts";
import {evaluateQuestion, predictedIndex} from "./evaluation.ts";
import {expectedScore, formatScoreReading, mostLikelyLevel, readScore} from "./scoreLevels.ts";
import {resultLayout} from "./results.ts";

const close = (actual: number | null | undefined, expected: number, message?: string) =>
    assert.ok(actual != null && Math.abs(actual - expected) < 1e-9, `${message ?? ""} expected ${expected}, got ${actual}`);

const [stars] = questionInfos(parseQuestionSet({questions: [
    {type: "score", name: "stars", instructions: "How good?", levels: [{label: "useless"}, {label: "poor"}, {label: "okay"}, {label: "good"}, {label: "great"}]}
]}).normalized);

// A near-uniform answer, as a small model gives: its mean sits on the middle level, its peak on the lowest.
const flat = [0.22, 0.19, 0.2, 0.19, 0.2];

test("the expected score is the probability-weighted level; the predicted level is the most likely one, not the rounded mean", () => {
    close(expectedScore(flat), 0.19 + 0.4 + 0.57 + 0.8);
    assert.equal(mostLikelyLevel(flat), 0);
    assert.equal(Math.round(expectedScore(flat)), 2, "the rounded mean would say 2");
    // Split between the ends: the mean (2) is a level the model gives 0.05.
    assert.equal(mostLikelyLevel([0.45, 0.05, 0.05, 0.05, 0.4]), 0);
});

test("a tie among the most likely levels goes to the one nearest the expected score, then to the lower", () => {
    // Expected 0.1 + 0.6 + 0.9 = 1.6: levels 0, 2 and 3 tie at 0.3; 2 is nearest.
    assert.equal(mostLikelyLevel([0.3, 0.1, 0.3, 0.3]), 2);
    // Expected 1.5 sits halfway between the tied 1 and 2: the lower.
    assert.equal(mostLikelyLevel([0, 0.5, 0.5, 0]), 1);
    assert.equal(mostLikelyLevel([0.5, 0, 0, 0.5]), 0);
});

test("readScore takes the server's unrounded score as the expected score; both numbers read the same everywhere", () => {
    const reading = readScore({probabilities: flat, score: 1.994});
    assert.deepEqual(reading, {expected: 1.994, mostLikely: 0});
    assert.equal(formatScoreReading(reading), "expected 1.99 · most likely 0");
    const computed = readScore({probabilities: [0.1, 0.2, 0.7]});
    close(computed.expected, 1.6);
    assert.equal(computed.mostLikely, 2);
});

test("evaluation: the confusion matrix, accuracy and ECE use the most likely level; the MAE uses the expected score", () => {
    const evaluation = evaluateQuestion(stars, [
        {answer: {probabilities: flat, score: 1.96}, label: 0},
        {answer: {probabilities: flat, score: 1.96}, label: "okay"},
        // A tie between 0 and 4 with the mean at 2.05: level 4, the tied level nearest the mean.
        {answer: {probabilities: [0.4, 0.05, 0.05, 0.1, 0.4], score: 2.05}, label: 4}
    ]);
    const report = evaluation.report;
    assert.equal(report?.kind, "multiclass");
    if (report?.kind !== "multiclass") return;
    assert.deepEqual(report.confusion.map((row) => row.indexOf(Math.max(...row))), [0, 0, 0, 0, 4]);
    assert.equal(report.confusion[2][0], 1, "the row labelled okay was predicted useless: its most likely level");
    close(report.accuracy, 2 / 3);
    close(report.meanAbsoluteError!, (1.96 + 0.04 + 1.95) / 3);
    assert.equal(predictedIndex(stars, {probabilities: [0.4, 0.05, 0.05, 0.1, 0.4], score: 2.05}), 4);
});

test("the export carries both numbers of a score question: .score (expected) and .level (most likely)", () => {
    const set = {format: "decisions" as const, questions: [{type: "score" as const, name: "stars", instructions: "How good?", levels: [{label: "useless"}, {label: "poor"}, {label: "okay"}]}]};
    const infos = questionInfos(parseQuestionSet(set).normalized);
    const layout = resultLayout(set, infos, ["text"]);
    assert.deepEqual(layout.columns, ["stars.score", "stars.level", "stars.confidence", "stars.p.0", "stars.p.1", "stars.p.2", "error"]);
    const response = {answers: [{type: "score", name: "stars", score: 0.97, confidence: 0.1, probabilities: [{value: 0, label: "useless", probability: 0.36}, {value: 1, label: "poor", probability: 0.31}, {value: 2, label: "okay", probability: 0.33}]}]};
    assert.deepEqual(layout.cells({rowIndex: 0, ok: true, response, attempts: 1, durationMs: 1, completedAt: 0}), [0.97, 0, 0.1, 0.36, 0.31, 0.33, null]);
    assert.match(layout.hints[0], /Expected score/);
    assert.match(layout.hints[1], /most likely level/);
});
