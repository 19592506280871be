// A grader asks a yes/no, choice or score question about the reply: the choice grade is the probability of the
// passing labels, the score grade the expected level scaled to 0..1; a grader of the wrong shape is named by field.
import {test} from "node:test";
import assert from "node:assert/strict";
import type {DecisionsAnswer, DecisionsRequest} from "../../protocol/decisions/types.ts";
import type {CallContext} from "../scoring/TaskRunner.ts";
import {checkProblems, compileChecks} from "./checks.ts";
import {parseExperimentSpec} from "./experimentFile.ts";
import type {Check} from "./types.ts";

const context: CallContext = {signal: new AbortController().signal, timeoutMs: 1000, retry: {}};

async function grade(check: Check, answer: DecisionsAnswer) {
    const asked: DecisionsRequest[] = [];
    const [result] = await compileChecks([check], ["text"]).run("a reply", ["row text"], async (body) => {
        asked.push(body);
        return answer;
    }, context);
    return {result, question: asked[0].questions[0], input: asked[0].input};
}

test("a choice grader: the probability of its passing labels, against its threshold", async () => {
    const check: Check = {kind: "grader", name: "sentiment", question: "Sentiment?", template: "{{text}}: {{reply}}", labels: ["positive", "neutral", "negative"], passing: ["positive", "neutral"], threshold: 0.7};
    const {result, question, input} = await grade(check, {type: "choice", name: "sentiment", choice: "positive", confidence: 0.5,
        probabilities: [{value: "positive", probability: 0.5}, {value: "neutral", probability: 0.3}, {value: "negative", probability: 0.2}]});
    assert.deepEqual(question, {type: "choice", name: "sentiment", instructions: "Sentiment?", choices: [{value: "positive"}, {value: "neutral"}, {value: "negative"}]});
    assert.equal(input, "row text: a reply");
    assert.ok(Math.abs(result.score - 0.8) < 1e-12);
    assert.equal(result.pass, true);
    assert.equal(result.detail, "P(positive or neutral) = 0.800");
});

test("a score grader: the expected level scaled over the levels' range, against its threshold", async () => {
    const check: Check = {kind: "grader", name: "quality", question: "How good?", template: "{{reply}}", levels: [1, 2, 3, 4, 5], threshold: 0.75};
    // Expected level 0.1*1 + 0.2*2 + 0.3*3 + 0.4*5 = 3.4, scaled (3.4 - 1) / 4 = 0.6.
    const {result, question} = await grade(check, {type: "score", name: "quality", score: 3, confidence: 0.4,
        probabilities: [{value: 0, label: "1", probability: 0.1}, {value: 1, label: "2", probability: 0.2}, {value: 2, label: "3", probability: 0.3}, {value: 3, label: "4", probability: 0}, {value: 4, label: "5", probability: 0.4}]});
    assert.deepEqual(question, {type: "score", name: "quality", instructions: "How good?", levels: ["1", "2", "3", "4", "5"].map((label) => ({label}))});
    assert.ok(Math.abs(result.score - 0.6) < 1e-12);
    assert.equal(result.pass, false);
    assert.equal(result.detail, "expected score 3.400 on 1..5");
});

test("a yes/no grader is still P(yes); an answer of another type is an error, not a grade", async () => {
    const check: Check = {kind: "grader", name: "ok", question: "OK?", template: "{{reply}}"};
    assert.equal((await grade(check, {type: "predicate", name: "ok", probability: 0.3})).result.score, 0.3);
    await assert.rejects(grade(check, {type: "choice", name: "ok", choice: "x", confidence: 1, probabilities: []}), /not a predicate answer/);
});

test("labels, passing labels and levels are checked, in the file and before a run", () => {
    const grader = (extra: Record<string, unknown>) => ({kind: "grader", name: "g", question: "?", template: "{{reply}}", ...extra});
    assert.deepEqual(checkProblems([
        grader({labels: ["a"], passing: ["a"]}), grader({labels: ["a", "b"], passing: ["c"]}), grader({labels: ["a", "b"]}), grader({levels: [0, 0]}), grader({passing: ["a"]})
    ] as Check[], []).map((problem) => problem.message), [
        "checks[0].labels: needs two or more different labels", "checks[1].passing: \"c\" is none of the labels", "checks[2].passing: name the labels that pass (one or more of labels)",
        "checks[3].levels: needs two or more numbers, lowest first, each higher than the one before", "checks[4].passing: passing labels need labels"
    ]);
    const spec = {format: "svc-experiment", version: 1, id: "e", sample: {kind: "all"}, checks: [grader({labels: ["a", "b"], passing: ["b"]}), grader({name: "h", levels: [0, 1]})],
        dataset: {columns: ["x"], rows: [["1"]]}, variants: [{name: "A", connection: {baseUrl: "http://127.0.0.1:1"}, version: {prompt: {kind: "chat", endpoint: "chat", body: {messages: []}}}}]};
    assert.deepEqual(parseExperimentSpec(spec).checks, spec.checks);
    assert.throws(() => parseExperimentSpec({...spec, checks: [grader({labels: ["a", "b"], passing: ["z"]})]}), /checks\[0\]\.passing: "z" is none of the labels/);
});
