import {test} from "node:test";
import assert from "node:assert/strict";
import {parseDecisionsRequest} from "../../../../protocol/decisions/parseDecisionsRequest.ts";
import {limits, modelIds} from "../../../../protocol/limits.ts";
import {newQuestion} from "./newQuestion.ts";
import {toQuestionSet} from "./toQuestionSet.ts";
import type {DraftQuestion, DraftSet} from "./types.ts";
import {validateDraft} from "./validateDraft.ts";

function draftOf(questions: DraftQuestion[], patch: Partial<DraftSet> = {}): DraftSet {
    return {format: "decisions", name: "", description: "", explain: false, maxSoftTokens: null, questions, calibration: null, ...patch};
}

function many(type: DraftQuestion["type"], count: number): DraftQuestion[] {
    const questions: DraftQuestion[] = [];
    for (let index = 0; index < count; index++) questions.push(newQuestion(type, questions));
    return questions;
}

/** What the server answers for the draft's whole request on /v1/decisions. */
function serverMessage(draft: DraftSet): string {
    const set = toQuestionSet(draft);
    try {
        parseDecisionsRequest({model: modelIds.decision, input: "-", questions: set.questions, ...(set.x_svc ? {x_svc: set.x_svc} : {})});
    } catch (error) {
        return (error as Error).message;
    }
    return "";
}

test("a fresh question of each type passes on both endpoints", () => {
    const questions = [...many("predicate", 1), ...many("choice", 1), ...many("score", 1)];
    assert.deepEqual(validateDraft(draftOf(questions)), []);
    assert.deepEqual(validateDraft(draftOf(questions, {format: "systemone"})), []);
});

test("each question reports its own first problem at its real position, worded as the server words it", () => {
    const questions = many("choice", 3);
    questions[1].choices = questions[1].choices.slice(0, 1);
    questions[2].choices.push({id: "x", value: true, description: ""}, {id: "y", value: "true", description: ""});
    const problems = validateDraft(draftOf(questions));
    assert.equal(problems.length, 2);
    assert.equal(problems[0].questionId, questions[1].id);
    assert.equal(problems[0].message, "questions[1].choices: must hold at least two choices, got 1");
    assert.equal(problems[1].questionId, questions[2].id);
    assert.equal(problems[1].message, serverMessage(draftOf([questions[0], questions[2]])).replace("questions[1]", "questions[2]"));
    assert.match(problems[1].message, /cannot hold both true and the string "true"/);
});

test("names: duplicates and empty names on decisions (parser) and systemone (keys checked here)", () => {
    const questions = many("predicate", 3);
    questions[2].name = questions[0].name;
    const decisions = validateDraft(draftOf(questions));
    assert.deepEqual(decisions.map((problem) => problem.message), [serverMessage(draftOf(questions))]);
    assert.equal(decisions[0].questionId, questions[2].id);

    const systemone = validateDraft(draftOf(questions, {format: "systemone"}));
    assert.equal(systemone.length, 1);
    assert.equal(systemone[0].questionId, questions[2].id);
    assert.match(systemone[0].message, /questions 1 and 3 are both named "is_relevant"/);

    questions[1].name = "";
    assert.deepEqual(validateDraft(draftOf(questions.slice(0, 2))), [], "an unnamed question is fine on /v1/decisions");
    assert.match(validateDraft(draftOf(questions.slice(0, 2), {format: "systemone"}))[0].message, /question names must not be empty/);
});

test("systemone: choice keys that collapse (a duplicate, or true next to \"true\") are reported", () => {
    const questions = many("choice", 1);
    questions[0].choices.push({id: "t", value: true, description: ""}, {id: "s", value: "true", description: ""});
    const problems = validateDraft(draftOf(questions, {format: "systemone"}));
    assert.equal(problems.length, 1);
    assert.match(problems[0].message, /choices 3 and 4 are both the key "true"/);
});

test("the limits of spec 8: 512 questions, 64 with explain, 512 choices, 64 levels", () => {
    const questions = many("predicate", limits.questionsPerRequest);
    assert.deepEqual(validateDraft(draftOf(questions)), []);
    const over = [...questions, newQuestion("predicate", questions)];
    assert.deepEqual(validateDraft(draftOf(over)).map((problem) => problem.message), [serverMessage(draftOf(over))]);
    assert.match(serverMessage(draftOf(over)), /at most 512/);

    const explained = many("predicate", limits.questionsPerRequestWithExplain + 1);
    assert.deepEqual(validateDraft(draftOf(explained.slice(1), {explain: true})), []);
    const explainProblems = validateDraft(draftOf(explained, {explain: true}));
    assert.equal(explainProblems.length, 1);
    assert.match(explainProblems[0].message, /at most 64 are allowed when x_svc.explain is true/);

    const choice = newQuestion("choice", []);
    choice.choices = Array.from({length: limits.optionsPerChoice + 1}, (_, index) => ({id: String(index), value: `v${index}`, description: ""}));
    assert.match(validateDraft(draftOf([choice]))[0].message, /^questions\[0\]\.choices: holds 513 choices; at most 512/);
    choice.choices.pop();
    assert.deepEqual(validateDraft(draftOf([choice])), []);

    const score = newQuestion("score", []);
    score.levels = Array.from({length: limits.levelsPerScore + 1}, (_, index) => ({id: String(index), label: `l${index}`, description: ""}));
    assert.match(validateDraft(draftOf([score], {format: "systemone"}))[0].message, /^questions\.quality\.criteria: holds 65 levels; at most 64/);
});

test("an empty set is refused as the server refuses it", () => {
    assert.match(validateDraft(draftOf([]))[0].message, /questions: must hold at least one question/);
});
