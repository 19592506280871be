import assert from "node:assert/strict";
import {test} from "node:test";
import {emptyReply} from "./chat.ts";
import {applyCompletionChunk} from "./completions.ts";
import {applyParams, completionsParamSpecs, readParams, checkParam, responsesParamSpecs} from "./params.ts";
import {parseLogitBias, percent, readTokenScores, setLogitBiasEntry, summarize, withLocalTokenIds} from "./probabilities.ts";
import {outputTokensOf} from "./responses.ts";

test("chat and legacy logprobs read into the same token scores", () => {
    const chat = readTokenScores({content: [{token: " a", logprob: -0.5, bytes: [32, 97], top_logprobs: [{token: " a", logprob: -0.5, bytes: null}]}], refusal: null});
    assert.deepEqual(chat, [{token: " a", logprob: -0.5, top: [{token: " a", logprob: -0.5}]}]);
    const legacy = readTokenScores({tokens: ["Once", " upon"], token_logprobs: [null, -1], top_logprobs: [null, {" on": -2, " upon": -1}], text_offset: [0, 4]});
    assert.deepEqual(legacy, [{token: "Once", logprob: null, top: []}, {token: " upon", logprob: -1, top: [{token: " upon", logprob: -1}, {token: " on", logprob: -2}]}]);
    assert.deepEqual(readTokenScores(null), []);
});

test("the summary is the total log-probability and exp(-mean); unscored tokens are left out", () => {
    const summary = summarize([{token: "a", logprob: null, top: []}, {token: "b", logprob: -1, top: []}, {token: "c", logprob: -3, top: []}]);
    assert.deepEqual(summary, {total: -4, perplexity: Math.exp(2), count: 2});
    assert.equal(summarize([]), null);
    assert.equal(percent(Math.log(0.421)), "42.1%");
    assert.equal(percent(-20), "<0.1%");
});

test("streamed legacy chunks keep their scores per choice", () => {
    const chunk = (tokens: string[]) => ({choices: [{index: 0, text: tokens.join(""), finish_reason: null,
        logprobs: {tokens, token_logprobs: tokens.map(() => -1), top_logprobs: tokens.map(() => ({})), text_offset: tokens.map(() => 0)}}]});
    const reply = [chunk(["a", "b"]), chunk(["c"])].reduce(applyCompletionChunk, emptyReply());
    assert.deepEqual(reply.choices[0].tokens?.map((score) => score.token), ["a", "b", "c"]);
});

test("logit_bias text round-trips through the request body and is checked", () => {
    assert.deepEqual(parseLogitBias("12: -100, 7:5\n9: 0.5"), {value: {12: -100, 7: 5, 9: 0.5}});
    assert.ok("error" in parseLogitBias("12: 101"));
    assert.ok("error" in parseLogitBias("the: 5"));
    const body = applyParams(completionsParamSpecs, {logit_bias: "12: -100, 7: 5", logprobs: 3}, {});
    assert.deepEqual(body, {logprobs: 3, logit_bias: {12: -100, 7: 5}});
    // An object's integer keys come back in ascending order.
    assert.equal(readParams(completionsParamSpecs, body).logit_bias, "7: 5, 12: -100");
    const spec = completionsParamSpecs.find((item) => item.key === "logit_bias")!;
    assert.match(checkParam(spec, "x: 1") ?? "", /token id: bias/);
});

test("Responses: the logprobs switch sends include and top_logprobs, and the output text's scores are read back", () => {
    const body = applyParams(responsesParamSpecs, {logprobs: true, top_logprobs: 2}, {});
    assert.deepEqual(body, {include: ["message.output_text.logprobs"], top_logprobs: 2});
    assert.deepEqual(readParams(responsesParamSpecs, body), {logprobs: true, top_logprobs: 2, stream: false});
    assert.deepEqual(applyParams(responsesParamSpecs, {logprobs: false, top_logprobs: 2}, {}), {});
    const response = {output: [{type: "message", content: [{type: "output_text", text: "a", logprobs: [{token: "a", logprob: -1, bytes: [97], top_logprobs: []}]}]}]};
    assert.deepEqual(outputTokensOf(response), [{token: "a", logprob: -1, top: []}]);
    assert.deepEqual(outputTokensOf(undefined), []);
});

test("local token ids are read from either shape's x_svc, and left out when the server sent none", () => {
    const chat = readTokenScores({content: [{token: " a", logprob: -0.5, bytes: [32, 97], x_svc: {token_id: 7},
        top_logprobs: [{token: " a", logprob: -0.5, bytes: null, x_svc: {token_id: 7}}, {token: " b", logprob: -2, bytes: null}]}], refusal: null});
    assert.deepEqual(chat, [{token: " a", logprob: -0.5, id: 7, top: [{token: " a", logprob: -0.5, id: 7}, {token: " b", logprob: -2}]}]);
    const legacy = readTokenScores({tokens: ["Once", " upon"], token_logprobs: [null, -1], top_logprobs: [null, {" on": -2, " upon": -1}], text_offset: [0, 4],
        x_svc: {token_ids: [3, 9], top_token_ids: [null, {" on": 12, " upon": 9}]}});
    assert.deepEqual(legacy, [{token: "Once", logprob: null, top: [], id: 3}, {token: " upon", logprob: -1, id: 9, top: [{token: " upon", logprob: -1, id: 9}, {token: " on", logprob: -2, id: 12}]}]);
});

test("only scored requests ask for token ids, and an explicit x_svc is kept", () => {
    assert.deepEqual(withLocalTokenIds({logprobs: true}), {logprobs: true, x_svc: {token_ids: true}});
    assert.deepEqual(withLocalTokenIds({logprobs: 0}), {logprobs: 0, x_svc: {token_ids: true}});
    assert.deepEqual(withLocalTokenIds({logprobs: false}), {logprobs: false});
    assert.deepEqual(withLocalTokenIds({include: ["message.output_text.logprobs"]}), {include: ["message.output_text.logprobs"]});
    assert.deepEqual(withLocalTokenIds({logprobs: true, x_svc: {}}), {logprobs: true, x_svc: {}});
});

test("a one-click logit_bias entry replaces the same id and keeps the rest; unreadable text is kept as typed", () => {
    assert.equal(setLogitBiasEntry(undefined, 5, -100), "5: -100");
    assert.equal(setLogitBiasEntry("5: 3, 8: 1", 5, -100), "5: -100, 8: 1");
    assert.equal(setLogitBiasEntry("5: x", 9, 5), "5: x, 9: 5");
});
