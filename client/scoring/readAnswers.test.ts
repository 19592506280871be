import {test} from "node:test";
import assert from "node:assert/strict";
import {resultLayout} from "./results.ts";
import type {RowResult} from "./types.ts";
import type {QuestionCalibration} from "./calibration.ts";
import {parseQuestionSet, QuestionSetError, questionInfos, readAnswers} from "./questions.ts";

const decisionsSet = {
    format: "decisions",
    questions: [
        {type: "predicate", instructions: "Is it positive?"},
        {type: "choice", name: "topic", instructions: "Topic?", choices: [{value: "price"}, {value: true}, {value: "q2"}]},
        {type: "score", name: "q2", instructions: "Stars?", levels: [{label: "bad"}, {label: "good"}]}
    ]
};

const decisionsResponse = {
    answers: [
        {type: "predicate", name: null, probability: 0.8},
        {type: "choice", name: "topic", choice: true, probabilities: [{value: "price", probability: 0.2}, {value: true, probability: 0.7}, {value: "q2", probability: 0.1}], confidence: 0.55},
        {type: "score", name: "q2", score: 0.75, probabilities: [{value: 0, label: "bad", probability: 0.25}, {value: 1, label: "good", probability: 0.75}], confidence: 0.5}
    ]
};

test("question sets are checked by the server's own parsers; names default to q<n> without clashing", () => {
    const {questionSet, normalized} = parseQuestionSet(decisionsSet);
    assert.equal(questionSet.format, "decisions");
    // The unnamed first question would be q1; q2 is taken by the score question, so no clash arises here.
    assert.deepEqual(questionInfos(normalized).map((info) => [info.name, info.kind, info.options.map((option) => option.value)]), [
        ["q1", "yesno", [true, false]],
        ["topic", "choice", ["price", true, "q2"]],
        ["q2", "score", [0, 1]]
    ]);
    const clash = questionInfos(parseQuestionSet({questions: [{type: "predicate", instructions: "a"}, {type: "predicate", name: "q1", instructions: "b"}]}).normalized);
    assert.deepEqual(clash.map((info) => info.name), ["q1_", "q1"]);
    assert.equal(parseQuestionSet({questions: {a: {type: "noul"}}}).questionSet.format, "systemone");
    assert.throws(() => parseQuestionSet({format: "decisions", questions: [{type: "choice", instructions: "x", choices: [{value: "a"}]}]}), (error: unknown) =>
        error instanceof QuestionSetError && /questions\[0\]\.choices/.test(error.message) && /at least two choices/.test(error.message));
    assert.throws(() => parseQuestionSet({questions: [], typo: 1}), /unknown field "typo"/);
});

test("answers of both endpoints read into probabilities aligned with the options", () => {
    const infos = questionInfos(parseQuestionSet(decisionsSet).normalized);
    const answers = readAnswers("decisions", infos, decisionsResponse);
    assert.deepEqual(answers.map((answer) => answer.probabilities), [[0.8, 1 - 0.8], [0.2, 0.7, 0.1], [0.25, 0.75]]);
    assert.equal(answers[1].choice, true);

    const systemone = questionInfos(parseQuestionSet({format: "systemone", questions: {ok: {type: "noul"}, level: {type: "score", criteria: ["lo", "hi"]}}}).normalized);
    const read = readAnswers("systemone", systemone, {
        answers: {ok: {type: "noul", noul: 0.3}, level: {type: "score", score: 0.6, probabilities: {"0": 0.4, "1": 0.6}, confidence: 0.2, legend: {"0": "lo", "1": "hi"}}},
        x_svc: {explanations: {ok: "Because."}}
    });
    assert.deepEqual(read.map((answer) => answer.probabilities), [[0.3, 1 - 0.3], [0.4, 0.6]]);
    assert.equal(read[0].explanation, "Because.");
    assert.throws(() => readAnswers("systemone", systemone, {answers: {ok: {type: "noul", noul: 0.3}}}), /no answer for "level"/);
});

test("flat columns per question type, error rows, and calibrated columns marked calibrated", () => {
    const {questionSet, normalized} = parseQuestionSet(decisionsSet);
    const infos = questionInfos(normalized);
    const layout = resultLayout(questionSet, infos, ["text", "error"]);
    assert.deepEqual(layout.columns, [
        "q1.probability",
        "topic.choice", "topic.confidence", "topic.p.price", "topic.p.true", "topic.p.q2",
        "q2.score", "q2.level", "q2.confidence", "q2.p.0", "q2.p.1",
        "_error"
    ]);
    const ok: RowResult = {rowIndex: 0, ok: true, response: decisionsResponse, attempts: 1, durationMs: 1, completedAt: 0};
    assert.deepEqual(layout.cells(ok), [0.8, true, 0.55, 0.2, 0.7, 0.1, 0.75, 1, 0.5, 0.25, 0.75, null]);
    const failed: RowResult = {rowIndex: 1, ok: false, error: {status: 400, code: "request_rejected", message: "too long"}, attempts: 1, durationMs: 1, completedAt: 0};
    assert.deepEqual(layout.cells(failed), [...new Array(11).fill(null), "400 request_rejected: too long"]);
    assert.deepEqual(layout.cells(undefined), new Array(12).fill(null));

    // A Platt calibration with temperature 1 and bias ln(1/4) turns P = 0.8 (odds 4) into odds 1: 0.5.
    const calibration: QuestionCalibration = {
        version: 1, question: "q1", kind: "yesno", method: "platt", temperature: 1, bias: Math.log(1 / 4), fittedOn: 10,
        before: {logLoss: 1, brier: 1, ece: 1}, after: {logLoss: 1, brier: 1, ece: 1}, evaluatedOn: 10, heldOut: false, fittedAt: ""
    };
    const calibrated = resultLayout({...questionSet, calibration: {q1: calibration}}, infos, ["text"]);
    assert.deepEqual(calibrated.columns.slice(0, 2), ["q1.probability", "q1.calibrated"]);
    const cells = calibrated.cells(ok);
    assert.ok(Math.abs((cells[0] as number) - 0.5) < 1e-12);
    assert.equal(cells[1], true);
    assert.equal(calibrated.answers(ok)![0].calibrated, true);
    assert.equal(calibrated.answers(ok)![1].calibrated, undefined, "questions without a calibration stay as answered");
});
