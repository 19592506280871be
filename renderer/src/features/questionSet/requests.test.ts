import assert from "node:assert/strict";
import {test} from "node:test";
import type {CalibrationSet} from "../../../../client/scoring/index.ts";
import {formatDecisionsResponse, formatSystemoneResponse} from "../../../../protocol/decisions/formatResponses.ts";
import {parseDecisionsRequest} from "../../../../protocol/decisions/parseDecisionsRequest.ts";
import {parseSystemoneRequest} from "../../../../protocol/decisions/parseSystemoneRequest.ts";
import {limits, modelIds} from "../../../../protocol/limits.ts";
import {pngHeader, toDataUrl} from "../../../../test/fixtures/imageFixtures.ts";
import {newQuestion, toQuestionSet, type DraftQuestion, type DraftSet} from "./draft.ts";
import {validateDraft, answerViews, buildDecisionRequest, checkDecisionRequest, compareAnswers, withLabelMass} from "./requests.ts";

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

function sampleDraft(format: DraftSet["format"]): DraftSet {
    const questions: DraftQuestion[] = [];
    for (const type of ["predicate", "choice", "score"] as const) questions.push(newQuestion(type, questions));
    questions[1].choices = [{id: "a", value: true, description: ""}, {id: "b", value: "maybe", description: ""}, {id: "c", value: false, description: ""}];
    return {format, name: "", description: "", explain: true, maxSoftTokens: null, questions, calibration: null};
}

const png = (width: number, height: number) => toDataUrl(pngHeader(width, height));

test("decisions: text and images go in one user message, images named image_1... in order", () => {
    const request = buildDecisionRequest(sampleDraft("decisions"), {kind: "text", text: "Hello"}, [png(4, 4), png(8, 2)]);
    assert.equal(request.format, "decisions");
    assert.equal(checkDecisionRequest(request), null);
    const parsed = parseDecisionsRequest(request.body);
    assert.equal(parsed.text, "Hello");
    assert.deepEqual(parsed.images.map((image) => [image.name, image.width, image.height]), [["image_1", 4, 4], ["image_2", 8, 2]]);
    assert.equal(parsed.explain, true);
    assert.equal((buildDecisionRequest(sampleDraft("decisions"), {kind: "text", text: "Hi"}).body as {input: unknown}).input, "Hi", "no images: input is the plain string");
});

test("decisions: a JSON state is sent as stable JSON text, whatever its key order", () => {
    const a = buildDecisionRequest(sampleDraft("decisions"), {kind: "json", value: {b: 1, a: ["x", "é\"q"]}});
    const b = buildDecisionRequest(sampleDraft("decisions"), {kind: "json", value: {a: ["x", "é\"q"], b: 1}});
    assert.equal((a.body as {input: string}).input, "{\"a\":[\"x\",\"é\\\"q\"],\"b\":1}");
    assert.deepEqual(a.body, b.body);
});

test("systemone: the state as is, images in x_svc.images by name", () => {
    const request = buildDecisionRequest(sampleDraft("systemone"), {kind: "json", value: {city: "Zürich"}}, [png(2, 2)]);
    assert.equal(request.format, "systemone");
    assert.deepEqual((request.body as {state: unknown}).state, {city: "Zürich"});
    const parsed = parseSystemoneRequest(request.body);
    assert.deepEqual(parsed.images.map((image) => image.name), ["image_1"]);
    assert.deepEqual(parsed.questions.map((question) => question.name), ["is_relevant", "category", "quality"]);
});

test("checkDecisionRequest reports the server's image and size rules", () => {
    const tooBig = buildDecisionRequest(sampleDraft("decisions"), {kind: "text", text: "x"}, [png(5001, 5001)]);
    assert.match(checkDecisionRequest(tooBig) ?? "", /input\[0\]\.content\[1\]\.image_url: is 5001x5001 = 25,010,001 pixels/);
    const notImage = buildDecisionRequest(sampleDraft("systemone"), {kind: "text", text: "x"}, ["data:image/png;base64,aGVsbG8="]);
    assert.match(checkDecisionRequest(notImage) ?? "", /x_svc\.images\.image_1: cannot be read as an image/);
    const huge = buildDecisionRequest(sampleDraft("systemone"), {kind: "text", text: "x".repeat(8 * 1024 * 1024)});
    assert.match(checkDecisionRequest(huge) ?? "", /at most 8,388,608 bytes/);
});

/**
 * A real response body: the request parsed, fake engine distributions formatted by the server's formatter; with
 * `labelMasses`, the request asks for them as the studio asks the local engine.
 */
function respond(draft: DraftSet, distributions: number[][], labelMasses?: number[]) {
    const built = buildDecisionRequest(draft, {kind: "text", text: "x"});
    const request = labelMasses ? withLabelMass(built) : built;
    const result = {answers: distributions.map((probabilities, index) => ({probabilities, explanation: "Because.", labelMass: labelMasses?.[index]})), usage: {inputTokens: 10, outputTokens: 3}};
    return request.format === "decisions"
        ? formatDecisionsResponse(parseDecisionsRequest(request.body), result)
        : formatSystemoneResponse(parseSystemoneRequest(request.body), result);
}

test("answer views read both endpoints alike: options with probabilities, the pick, score, explanation", () => {
    const distributions = [[0.8, 0.2], [0.1, 0.7, 0.2], [0.2, 0.3, 0.5]];
    for (const format of ["decisions", "systemone"] as const) {
        const draft = sampleDraft(format);
        const views = answerViews(toQuestionSet(draft), respond(draft, distributions));
        assert.deepEqual(views.map((view) => [view.name, view.kind]), [["is_relevant", "yesno"], ["category", "choice"], ["quality", "score"]]);
        assert.equal(views[0].probability, 0.8);
        assert.deepEqual(views[0].options.map((option) => [option.label, option.probability.toFixed(6), option.picked]), [["yes", "0.800000", true], ["no", "0.200000", false]]);
        assert.deepEqual(views[1].options.map((option) => option.label), ["true", "maybe", "false"]);
        assert.deepEqual(views[1].options.map((option) => option.picked), [false, true, false]);
        assert.equal(views[1].choice, "maybe");
        assert.deepEqual(views[2].options.map((option) => option.label), ["0 · poor", "1 · fair", "2 · good"]);
        assert.ok(Math.abs(views[2].score! - 1.3) < 1e-9);
        assert.equal(views[2].explanation, "Because.");
        for (const view of views) assert.equal(view.options.reduce((sum, option) => sum + option.probability, 0).toFixed(2), "1.00");
        assert.ok(views.every((view) => !view.calibrated && view.serverProbabilities === null));
    }
});

test("withLabelMass adds the local x_svc.label_mass beside the set's own x_svc, and the views read it on both endpoints", () => {
    for (const format of ["decisions", "systemone"] as const) {
        const draft = sampleDraft(format);
        const request = withLabelMass(buildDecisionRequest(draft, {kind: "text", text: "x"}));
        const parsed = format === "decisions" ? parseDecisionsRequest(request.body) : parseSystemoneRequest(request.body);
        assert.equal(parsed.labelMass, true);
        assert.equal(parsed.explain, true, "the set's explain stays");
        const views = answerViews(toQuestionSet(draft), respond(draft, [[0.8, 0.2], [0.1, 0.7, 0.2], [0.2, 0.3, 0.5]], [0.93, 0.41, 0.5]));
        assert.deepEqual(views.map((view) => view.labelMass), [0.93, 0.41, 0.5]);
        // Not asked (a remote run): no mass on the cards.
        const plain = answerViews(toQuestionSet(draft), respond(draft, [[0.8, 0.2], [0.1, 0.7, 0.2], [0.2, 0.3, 0.5]]));
        assert.ok(plain.every((view) => view.labelMass === null));
    }
    assert.equal(parseDecisionsRequest(buildDecisionRequest(sampleDraft("decisions"), {kind: "text", text: "x"}).body).labelMass, false, "the built request itself never carries it");
});

test("a calibration saved with the set is applied and marked", () => {
    const draft = sampleDraft("decisions");
    const scores = {logLoss: 0.5, brier: 0.2, ece: 0.1};
    const calibration: CalibrationSet = {is_relevant: {version: 1, question: "is_relevant", kind: "yesno", method: "platt", temperature: 2, bias: 0,
        fittedOn: 10, before: scores, after: scores, evaluatedOn: 10, heldOut: false, fittedAt: ""}};
    const views = answerViews(toQuestionSet({...draft, calibration}), respond(draft, [[0.8, 0.2], [0.1, 0.7, 0.2], [0.2, 0.3, 0.5]]));
    assert.equal(views[0].calibrated, true);
    assert.deepEqual(views[0].serverProbabilities?.map((p) => p.toFixed(6)), ["0.800000", "0.200000"]);
    assert.ok(views[0].probability! > 0.5 && views[0].probability! < 0.8, `softened towards 0.5: ${views[0].probability}`);
    assert.equal(views[1].calibrated, false);
});

test("compareAnswers pairs by name and measures the differences", () => {
    const draft = sampleDraft("decisions");
    const a = answerViews(toQuestionSet(draft), respond(draft, [[0.8, 0.2], [0.1, 0.7, 0.2], [0.2, 0.3, 0.5]]));
    const renamed = {...draft, questions: draft.questions.map((question, index) => index === 2 ? {...question, name: "quality_v2"} : question)};
    const b = answerViews(toQuestionSet(renamed), respond(renamed, [[0.6, 0.4], [0.5, 0.3, 0.2], [0.2, 0.3, 0.5]]));
    const rows = compareAnswers(a, b);
    assert.deepEqual(rows.map((row) => row.name), ["is_relevant", "category", "quality", "quality_v2"]);
    assert.ok(Math.abs(rows[0].delta! + 0.2) < 1e-9);
    assert.equal(rows[0].samePick, true);
    assert.equal(rows[1].samePick, false);
    assert.ok(Math.abs(rows[1].maxDifference! - 0.4) < 1e-9);
    assert.equal(rows[2].b, null);
    assert.equal(rows[3].a, null);
});
