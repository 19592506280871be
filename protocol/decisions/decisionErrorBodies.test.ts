import {test} from "node:test";
import assert from "node:assert/strict";
import {ApiError} from "../errors.ts";
import {decisionsErrorResponse, systemoneErrorResponse} from "./formatResponses.ts";
import {parseDecisionsRequest} from "./parseDecisionsRequest.ts";
import {parseSystemoneRequest} from "./parseSystemoneRequest.ts";
import {toDataUrl} from "../../test/fixtures/imageFixtures.ts";

/** The error a parser throws for `body`, or for the text when it is not JSON. */
function caught(parse: (body: unknown) => unknown, body: unknown): unknown {
    try {
        parse(typeof body === "string" ? JSON.parse(body) : body);
    } catch (error) {
        return error;
    }
    assert.fail("the request was accepted");
}

const decisions = (extra: Record<string, unknown>) => ({model: "svc-1-decision", input: "x", questions: [{type: "predicate", instructions: "y"}], ...extra});

test("a choice question with one choice: 400 invalid_request naming the path, param questions, a ref", () => {
    const error = caught(parseDecisionsRequest, decisions({questions: [{type: "choice", instructions: "Pick", choices: [{value: "only"}]}]}));
    const {status, body} = decisionsErrorResponse(error);
    assert.equal(status, 400);
    assert.deepEqual(Object.keys(body.error).sort(), ["code", "message", "param", "ref", "type"]);
    assert.equal(body.error.message, "questions[0].choices: must hold at least two choices, got 1");
    assert.equal(body.error.type, "invalid_request_error");
    assert.equal(body.error.code, "invalid_request");
    assert.equal(body.error.param, "questions");
    assert.match(body.error.ref ?? "", /^req_[0-9a-f]{32}$/);
    assert.notEqual(decisionsErrorResponse(error).body.error.ref, body.error.ref);
    assert.equal(decisionsErrorResponse(error, {ref: "r-1"}).body.error.ref, "r-1");
});

test("decisions: unknown stream, wrong model, exceeded limits are 400s with their top-level param", () => {
    const cases: Array<[Record<string, unknown>, string]> = [
        [decisions({stream: true}), "stream"],
        [decisions({model: "svc-1"}), "model"],
        [decisions({questions: new Array(513).fill({type: "predicate", instructions: "y"})}), "questions"],
        [decisions({x_svc: {explain: 1}}), "x_svc"],
        [decisions({input: [{role: "user", content: new Array(9).fill({type: "input_image", image_url: "data:image/png;base64,AAAA"})}]}), "input"]
    ];
    for (const [body, param] of cases) {
        const response = decisionsErrorResponse(caught(parseDecisionsRequest, body));
        assert.equal(response.status, 400);
        assert.equal(response.body.error.code, "invalid_request");
        assert.equal(response.body.error.param, param);
    }
});

test("decisions: malformed JSON and too many JSON values are whole-body problems with param null", () => {
    const malformed = decisionsErrorResponse(caught(parseDecisionsRequest, "{\"model\": "));
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.param, null);
    assert.equal(malformed.body.error.code, "invalid_request");
    assert.match(malformed.body.error.message, /^body: malformed JSON/);
    const tooMany = decisionsErrorResponse(caught(parseDecisionsRequest, decisions({input: [{role: "user", content: new Array(50_000).fill({type: "input_text", text: "x"})}]})));
    assert.equal(tooMany.body.error.param, null);
    assert.match(tooMany.body.error.message, /^body: holds more than 100,000 JSON values/);
});

test("decisions: an unreadable image is request_rejected", () => {
    const body = decisions({input: [{role: "user", content: [{type: "input_image", image_url: toDataUrl(new TextEncoder().encode("not an image"))}]}]});
    const {status, body: envelope} = decisionsErrorResponse(caught(parseDecisionsRequest, body));
    assert.equal(status, 400);
    assert.equal(envelope.error.code, "request_rejected");
    assert.equal(envelope.error.param, "input");
});

test("an ApiError keeps its status and envelope; unknown errors do not leak", () => {
    const tooLarge = new ApiError(413, "payload_too_large", "body over 8 MiB");
    const decisionsBody = decisionsErrorResponse(tooLarge, {ref: "r"});
    assert.deepEqual(decisionsBody, {status: 413, body: {error: {message: "body over 8 MiB", type: "invalid_request_error", code: "payload_too_large", param: null, ref: "r"}}, retryAfter: undefined});
    assert.deepEqual(systemoneErrorResponse(tooLarge), {status: 413, body: {error: {message: "body over 8 MiB", type: "invalid_request_error", code: "payload_too_large"}}, retryAfter: undefined});
    const busy = systemoneErrorResponse(new ApiError(429, "service_busy", "busy", {retryAfter: 3}));
    assert.equal(busy.retryAfter, 3);
    const internal = decisionsErrorResponse(new Error("secret stack detail"));
    assert.equal(internal.status, 500);
    assert.ok(!JSON.stringify(internal.body).includes("secret"));
});

test("systemone: malformed JSON is 422 json_invalid, other problems 422 value_error with a loc", () => {
    const malformed = systemoneErrorResponse(caught(parseSystemoneRequest, "{not json"));
    assert.equal(malformed.status, 422);
    assert.deepEqual(Object.keys(malformed.body), ["detail"]);
    const [entry] = (malformed.body as {detail: Array<{loc: unknown[], msg: string, type: string}>}).detail;
    assert.equal(entry.type, "json_invalid");
    assert.deepEqual(entry.loc, ["body"]);

    const system = (extra: Record<string, unknown>) => ({model: "svc-1-decision", state: "s", questions: {q: {type: "noul"}}, ...extra});
    const cases: Array<[Record<string, unknown>, unknown[], string]> = [
        [system({stream: true}), ["body", "stream"], "is not a recognised field"],
        [system({model: "other"}), ["body", "model"], "svc-1-decision"],
        [system({questions: {q: {type: "choice", criteria: {a: null}}}}), ["body", "questions", "q", "criteria"], "must hold at least two choices"],
        [system({questions: Object.fromEntries(Array.from({length: 65}, (_, index) => [`q${index}`, {type: "noul"}])), x_svc: {explain: true}}), ["body", "questions"], "at most 64"]
    ];
    for (const [body, loc, msg] of cases) {
        const response = systemoneErrorResponse(caught(parseSystemoneRequest, body));
        assert.equal(response.status, 422);
        const detail = (response.body as {detail: Array<{loc: unknown[], msg: string, type: string}>}).detail;
        assert.equal(detail.length, 1);
        assert.deepEqual(detail[0].loc, loc);
        assert.equal(detail[0].type, "value_error");
        assert.ok(detail[0].msg.includes(msg), detail[0].msg);
    }
});
