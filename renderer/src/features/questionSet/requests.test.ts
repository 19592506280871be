import assert from "node:assert/strict";
import {test} from "node:test";
import type {CalibrationSet} from "../../../../client/scoring/index.ts";
import {formatDecisionsResponse, formatSystemoneResponse} from "../../../../protocol/decisions/formatResponses.ts";
import {parseDecisionsRequest} from "../../../../protocol/decisions/parseDecisionsRequest.ts";
import {parseSystemoneRequest} from "../../../../protocol/decisions/parseSystemoneRequest.ts";
import {pngHeader, toDataUrl} from "../../../../test/fixtures/imageFixtures.ts";
import {newQuestion, toQuestionSet, type DraftQuestion, type DraftSet} from "./draft.ts";
import {answerViews, buildDecisionRequest, checkDecisionRequest, compareAnswers, withLabelMass} from "./requests.ts";

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
