import assert from "node:assert/strict";
import {test} from "node:test";
import {parseCompletionRequest} from "../../../../protocol/completions.ts";
import {emptyReply} from "./chat.ts";
import {applyCompletionChunk, buildCompletionsRequest, buildScoreRequest, defaultScoringAlternatives, isScoreRequest} from "./completions.ts";

test("streamed text deltas are joined per choice and the usage chunk is kept", () => {
    const reply = [
        {id: "cmpl-1", choices: [{index: 0, text: "Once", finish_reason: null}]},
        {id: "cmpl-1", choices: [{index: 0, text: " upon", finish_reason: null}]},
        {id: "cmpl-1", choices: [{index: 0, text: "", finish_reason: "length"}]},
        {id: "cmpl-1", choices: [], usage: {prompt_tokens: 2, completion_tokens: 2, total_tokens: 4}}
    ].reduce(applyCompletionChunk, emptyReply());
    assert.equal(reply.choices[0].content, "Once upon");
    assert.equal(reply.choices[0].finishReason, "length");
    assert.equal(reply.usage?.total_tokens, 4);
});

test("the request body carries the prompt and set parameters and passes the server's parser", () => {
    const body = buildCompletionsRequest({prompt: "Once", params: {max_tokens: 16, echo: true, stream: true, include_usage: true, stop: ["."]}});
    assert.deepEqual(body, {model: "svc-1", prompt: "Once", max_tokens: 16, stop: ["."], echo: true, stream: true, stream_options: {include_usage: true}});
    assert.equal(parseCompletionRequest(body).echo, true);
});

test("score this text asks for the prompt's scores alone, with the draft's logprobs or a default, and parses on the server", () => {
    const scored = buildScoreRequest({prompt: "Once upon", params: {max_tokens: 12, temperature: 0}});
    assert.equal(scored.max_tokens, 0);
    assert.equal(scored.echo, true);
    assert.equal(scored.logprobs, defaultScoringAlternatives);
    assert.ok(isScoreRequest(scored));
    assert.equal(buildScoreRequest({prompt: "x", params: {logprobs: 2}}).logprobs, 2);
    assert.equal(parseCompletionRequest(scored).maxTokens, 0);
    assert.ok(!isScoreRequest(buildCompletionsRequest({prompt: "x", params: {}})));
});
