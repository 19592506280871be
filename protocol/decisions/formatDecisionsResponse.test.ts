import {test} from "node:test";
import assert from "node:assert/strict";
import {formatDecisionsResponse} from "./formatResponses.ts";
import {parseDecisionsRequest} from "./parseDecisionsRequest.ts";

const request = (explain = false, labelMass = false) => parseDecisionsRequest({
    model: "svc-1-decision",
    input: "A ticket",
    questions: [
        {type: "predicate", name: "urgent", instructions: "It is urgent."},
        {type: "choice", instructions: "Is it a bug?", choices: [{value: true}, {value: false}, {value: "unsure"}]},
        {type: "score", name: "severity", instructions: "How bad?", levels: [{label: "low"}, {label: "mid"}, {label: "high"}]}
    ],
    x_svc: {explain, label_mass: labelMass}
});

const engineAnswers = [
    {probabilities: [0.8765, 0.1235], explanation: "It says ASAP."},
    {probabilities: [1 / 3, 1 / 3, 1 / 3], explanation: "Could be either."},
    {probabilities: [0.125, 0.125, 0.75], explanation: "Data was lost."}
];

test("builds the exact wire body: typed choice values, level indices, rounded probabilities, usage", () => {
    const response = formatDecisionsResponse(request(), {answers: engineAnswers, usage: {inputTokens: 120, outputTokens: 9}});
    assert.deepEqual(response, {
        model: "svc-1-decision",
        answers: [
            {type: "predicate", name: "urgent", probability: 0.88},
            {type: "choice", name: null, choice: true, probabilities: [{value: true, probability: 0.34}, {value: false, probability: 0.33}, {value: "unsure", probability: 0.33}], confidence: 0},
            {type: "score", name: "severity", score: 1.625, probabilities: [{value: 0, label: "low", probability: 0.13}, {value: 1, label: "mid", probability: 0.12}, {value: 2, label: "high", probability: 0.75}], confidence: 0.625}
        ],
        usage: {input_tokens: 120, input_tokens_details: {cached_tokens: 0, cache_write_tokens: 0}, output_tokens: 9, output_tokens_details: {reasoning_tokens: 0}, total_tokens: 129}
    });
});

test("explanations come back as a list in answer order when asked for", () => {
    const response = formatDecisionsResponse(request(true), {answers: engineAnswers, usage: {inputTokens: 1, outputTokens: 0}});
    assert.deepEqual(response.x_svc, {explanations: ["It says ASAP.", "Could be either.", "Data was lost."]});
    assert.throws(() => formatDecisionsResponse(request(true), {answers: engineAnswers.map(({probabilities}) => ({probabilities})), usage: {inputTokens: 1, outputTokens: 0}}), RangeError);
});

test("label masses come back as a list in answer order, rounded to hundredths, only when asked for", () => {
    const answers = engineAnswers.map(({probabilities}, index) => ({probabilities, labelMass: [0.98765, 0.004, 1][index]}));
    const usage = {inputTokens: 1, outputTokens: 0};
    assert.deepEqual(formatDecisionsResponse(request(false, true), {answers, usage}).x_svc, {label_mass: [0.99, 0, 1]});
    assert.equal(formatDecisionsResponse(request(), {answers, usage}).x_svc, undefined);
    // Both extensions together share one x_svc.
    const both = formatDecisionsResponse(request(true, true), {answers: answers.map((answer, index) => ({...answer, explanation: engineAnswers[index].explanation})), usage});
    assert.deepEqual(both.x_svc, {explanations: ["It says ASAP.", "Could be either.", "Data was lost."], label_mass: [0.99, 0, 1]});
    // A missing or impossible mass is an engine bug, not something to hide.
    assert.throws(() => formatDecisionsResponse(request(false, true), {answers: engineAnswers, usage}), /labelMass was requested but the engine gave none/);
    assert.throws(() => formatDecisionsResponse(request(false, true), {answers: answers.map((answer) => ({...answer, labelMass: 1.5})), usage}), RangeError);
    assert.throws(() => formatDecisionsResponse(request(false, true), {answers: answers.map((answer) => ({...answer, labelMass: Number.NaN})), usage}), RangeError);
});

test("confidence and score come from the raw distribution; the rounded one sums to 1.00", () => {
    // Raw top 0.996 rounds to 1.00, but confidence stays below certainty.
    const response = formatDecisionsResponse(request(), {
        answers: [{probabilities: [0.5, 0.5]}, {probabilities: [0.996, 0.002, 0.002]}, {probabilities: [0.3333, 0.3333, 0.3334]}],
        usage: {inputTokens: 1, outputTokens: 0}
    });
    const choice = response.answers[1];
    assert.ok(choice.type === "choice");
    assert.deepEqual(choice.probabilities.map((item) => item.probability), [1, 0, 0]);
    assert.equal(choice.confidence, 0.994);
    const score = response.answers[2];
    assert.ok(score.type === "score");
    assert.equal(score.score, 1.0001);
    assert.equal(Math.round(score.probabilities.reduce((sum, item) => sum + item.probability, 0) * 100), 100);
    assert.equal(response.answers[0].type === "predicate" && response.answers[0].probability, 0.5);
});

test("a result that does not match the questions throws", () => {
    const usage = {inputTokens: 1, outputTokens: 0};
    assert.throws(() => formatDecisionsResponse(request(), {answers: engineAnswers.slice(0, 2), usage}), RangeError);
    assert.throws(() => formatDecisionsResponse(request(), {answers: [{probabilities: [1]}, ...engineAnswers.slice(1)], usage}), RangeError);
});
