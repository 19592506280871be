import assert from "node:assert/strict";
import {test} from "node:test";
import {parseDecisionsRequest} from "../../../../protocol/decisions/parseDecisionsRequest.ts";
import {limits, modelIds} from "../../../../protocol/limits.ts";
import {newQuestion, toQuestionSet, type DraftQuestion, type DraftSet} from "./draft.ts";
import {problemFieldKey, validateDraft} from "./validation.ts";

function draftOf(questions: DraftQuestion[], patch: Partial<DraftSet> = {}): DraftSet {
    return {format: "decisions", name: "", description: "", explain: false, maxSoftTokens: null, questions, calibration: null, ...patch};
}

function many(type: DraftQuestion["type"], count: number): DraftQuestion[] {
    const questions: DraftQuestion[] = [];
    for (let index = 0; index < count; index++) questions.push(newQuestion(type, questions));
    return questions;
}

/** One of each type: is_relevant (#1), category (#2), quality (#3). */
function oneOfEach(): DraftQuestion[] {
    const questions: DraftQuestion[] = [];
    for (const type of ["predicate", "choice", "score"] as const) questions.push(newQuestion(type, questions));
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
    assert.deepEqual(validateDraft(draftOf(oneOfEach())), []);
    assert.deepEqual(validateDraft(draftOf(oneOfEach(), {format: "systemone"})), []);
});

test("a duplicate choice value and a duplicate question name are two problems, numbered as the cards and rows are", () => {
    const questions = oneOfEach();
    questions[1].choices[1].value = "option_a";
    questions[2].name = "category";
    const problems = validateDraft(draftOf(questions));
    assert.deepEqual(problems.map((problem) => problem.message), [
        "#2 · choice 2: duplicates the value of choice 1 (\"option_a\"); values must be unique",
        "#3 · name: duplicates the name of #2 (\"category\"); names must be unique"
    ]);
    assert.deepEqual(problems.map((problem) => [problem.questionNumber, problem.field, problem.itemId]), [[2, "choices", questions[1].choices[1].id], [3, "name", null]]);
    assert.deepEqual(problems.map(problemFieldKey), [`${questions[1].id}:item:${questions[1].choices[1].id}`, `${questions[2].id}:name`]);
    // The server's own words and 0-based path stay one hover away.
    assert.equal(problems[0].serverMessage, "questions[1].choices[1].value: duplicates the value of choices[0] (\"option_a\"); values must be unique");
    assert.equal(problems[1].serverMessage, serverMessage(draftOf([questions[0], {...questions[1], choices: [questions[1].choices[0], {...questions[1].choices[1], value: "b"}]}, questions[2]])));

    const systemone = validateDraft(draftOf(questions, {format: "systemone"}));
    assert.deepEqual(systemone.map((problem) => problem.message), [
        "#2 · choice 2: choices 1 and 2 are both the key \"option_a\"; option names must be unique",
        "#3 · name: #2 and #3 are both named \"category\"; names must be unique"
    ], "a collapsed key is not also reported as a question with one choice");
});

test("every fault of one question is listed, not only its first", () => {
    const [question] = many("choice", 1);
    question.choices = ["a", "a", true, "true", "b", "b"].map((value, index) => ({id: `c${index}`, value, description: ""}));
    const problems = validateDraft(draftOf([question]));
    assert.deepEqual(problems.map((problem) => problem.message), [
        "#1 · choice 2: duplicates the value of choice 1 (\"a\"); values must be unique",
        "#1 · choice 4: a question cannot hold both true and the string \"true\" (see choice 3)",
        "#1 · choice 6: duplicates the value of choice 5 (\"b\"); values must be unique"
    ]);
    assert.deepEqual(problems.map((problem) => problem.itemId), ["c1", "c3", "c5"]);

    const systemone = validateDraft(draftOf([question], {format: "systemone"}));
    assert.deepEqual(systemone.map((problem) => problem.where), ["#1 · choice 2", "#1 · choice 4", "#1 · choice 6"]);
});

test("a question's own faults and the set's are both listed: too few choices, an empty name on /v1/systemone, duplicate names", () => {
    const questions = many("choice", 3);
    questions[0].choices = questions[0].choices.slice(0, 1);
    questions[2].name = questions[1].name;
    assert.deepEqual(validateDraft(draftOf(questions)).map((problem) => problem.message), [
        "#1 · choices: must hold at least two choices, got 1",
        "#3 · name: duplicates the name of #2 (\"category_2\"); names must be unique"
    ]);
    questions[1].name = "";
    questions[2].name = "";
    const systemone = validateDraft(draftOf(questions, {format: "systemone"}));
    assert.deepEqual(systemone.map((problem) => problem.message), [
        "#1 · choices: must hold at least two choices, got 1",
        "#2 · name: question names must not be empty",
        "#3 · name: question names must not be empty"
    ]);
    assert.deepEqual(validateDraft(draftOf(questions.slice(1))).map((problem) => problem.message), [], "unnamed questions are fine on /v1/decisions");
});

test("systemone: an empty choice key points at its row", () => {
    const [question] = many("choice", 1);
    question.choices.push({id: "empty", value: "", description: ""});
    const problems = validateDraft(draftOf([question], {format: "systemone"}));
    assert.deepEqual(problems.map((problem) => [problem.message, problem.itemId]), [["#1 · choice 3: option names must not be empty", "empty"]]);
    assert.equal(problems[0].serverMessage, "questions.category.criteria.: option names must not be empty");
});

test("the limits of spec 8: 512 questions, 64 with explain, 512 choices, 64 levels", () => {
    const questions = many("predicate", limits.questionsPerRequest);
    assert.deepEqual(validateDraft(draftOf(questions)), []);
    const over = [...questions, newQuestion("predicate", questions)];
    const tooMany = validateDraft(draftOf(over));
    assert.deepEqual(tooMany.map((problem) => problem.serverMessage), [serverMessage(draftOf(over))]);
    assert.match(tooMany[0].message, /^set · questions: holds 513 questions; at most 512/);
    assert.equal(tooMany[0].questionId, null);

    const explained = many("predicate", limits.questionsPerRequestWithExplain + 1);
    assert.deepEqual(validateDraft(draftOf(explained.slice(1), {explain: true})), []);
    const explainProblems = validateDraft(draftOf(explained, {explain: true}));
    assert.equal(explainProblems.length, 1);
    assert.match(explainProblems[0].message, /at most 64 are allowed when x_svc.explain is true/);

    const choice = newQuestion("choice", []);
    choice.choices = Array.from({length: limits.optionsPerChoice + 1}, (_, index) => ({id: String(index), value: `v${index}`, description: ""}));
    choice.choices[7].value = "v3";
    assert.deepEqual(validateDraft(draftOf([choice])).map((problem) => problem.message), [
        "#1 · choices: holds 513 choices; at most 512 are allowed per question",
        "#1 · choice 8: duplicates the value of choice 4 (\"v3\"); values must be unique"
    ]);
    choice.choices.pop();
    choice.choices[7].value = "v7";
    assert.deepEqual(validateDraft(draftOf([choice])), []);

    const score = newQuestion("score", []);
    score.levels = Array.from({length: limits.levelsPerScore + 1}, (_, index) => ({id: String(index), label: `l${index}`, description: ""}));
    const levels = validateDraft(draftOf([score], {format: "systemone"}));
    assert.deepEqual(levels.map((problem) => problem.message), ["#1 · levels: holds 65 levels; at most 64 are allowed per question"]);
    assert.match(levels[0].serverMessage, /^questions\.quality\.criteria: holds 65 levels/);
});

test("set-wide problems: an empty set, and x_svc beside a question's own fault", () => {
    assert.deepEqual(validateDraft(draftOf([])).map((problem) => problem.message), ["set · questions: must hold at least one question, got 0"]);
    const [question] = many("choice", 1);
    question.choices[1].value = "option_a";
    const problems = validateDraft(draftOf([question], {maxSoftTokens: 0}));
    assert.deepEqual(problems.map((problem) => problem.message), [
        "set · x_svc.max_soft_tokens: must be at least 1, got 0",
        "#1 · choice 2: duplicates the value of choice 1 (\"option_a\"); values must be unique"
    ]);
    assert.equal(problemFieldKey(problems[0]), "set");
});
