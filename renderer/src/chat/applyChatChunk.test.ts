import {test} from "node:test";
import assert from "node:assert/strict";
import {applyChatChunk} from "./applyChatChunk.ts";
import {emptyReply} from "./replyTypes.ts";
import {replyFromCompletion} from "./replyFromCompletion.ts";

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({id: "c1", object: "chat.completion.chunk", model: "svc-1", choices, ...extra});

test("joins reasoning then content deltas per choice and keeps the finish reason", () => {
    const chunks = [
        chunk([{index: 0, delta: {role: "assistant", content: ""}, finish_reason: null}]),
        chunk([{index: 0, delta: {reasoning: "Let me "}, finish_reason: null}]),
        chunk([{index: 0, delta: {reasoning: "think."}, finish_reason: null}]),
        chunk([{index: 0, delta: {content: "Hello"}, finish_reason: null}]),
        chunk([{index: 1, delta: {content: "Other"}, finish_reason: null}]),
        chunk([{index: 0, delta: {content: " there"}, finish_reason: null}]),
        chunk([{index: 0, delta: {}, finish_reason: "stop"}]),
        chunk([{index: 1, delta: {}, finish_reason: "length"}]),
        chunk([], {usage: {prompt_tokens: 3, completion_tokens: 4, total_tokens: 7}})
    ];
    const reply = chunks.reduce(applyChatChunk, emptyReply());
    assert.equal(reply.id, "c1");
    assert.equal(reply.chunks, chunks.length);
    assert.deepEqual(reply.choices.map((choice) => [choice.index, choice.reasoning, choice.content, choice.finishReason]), [
        [0, "Let me think.", "Hello there", "stop"],
        [1, "", "Other", "length"]
    ]);
    assert.deepEqual(reply.usage, {prompt_tokens: 3, completion_tokens: 4, total_tokens: 7});
});

test("tool-call fragments are joined by index", () => {
    const reply = [
        chunk([{index: 0, delta: {tool_calls: [{index: 0, id: "call_a", type: "function", function: {name: "get_", arguments: ""}}]}}]),
        chunk([{index: 0, delta: {tool_calls: [{index: 0, function: {name: "weather", arguments: "{\"ci"}}]}}]),
        chunk([{index: 0, delta: {tool_calls: [{index: 1, id: "call_b", function: {name: "now", arguments: "{}"}}]}}]),
        chunk([{index: 0, delta: {tool_calls: [{index: 0, function: {arguments: "ty\":\"Oslo\"}"}}]}}]),
        chunk([{index: 0, delta: {}, finish_reason: "tool_calls"}])
    ].reduce(applyChatChunk, emptyReply());
    assert.deepEqual(reply.choices[0].toolCalls, [
        {id: "call_a", type: "function", function: {name: "get_weather", arguments: "{\"city\":\"Oslo\"}"}},
        {id: "call_b", type: "function", function: {name: "now", arguments: "{}"}}
    ]);
    assert.equal(reply.choices[0].finishReason, "tool_calls");
});

test("does not change the reply it is given", () => {
    const start = emptyReply();
    const next = applyChatChunk(start, chunk([{index: 0, delta: {content: "x"}}]));
    assert.deepEqual(start, emptyReply());
    assert.equal(next.choices[0].content, "x");
});

test("a non-streamed completion reads into the same shape, reasoning null kept as null", () => {
    const reply = replyFromCompletion({
        id: "c2", model: "svc-1",
        choices: [{index: 0, message: {role: "assistant", content: null, reasoning: null, tool_calls: [{id: "t", type: "function", function: {name: "f", arguments: "{}"}}]}, finish_reason: "tool_calls"}],
        usage: {prompt_tokens: 1, completion_tokens: 2, total_tokens: 3}
    });
    assert.deepEqual(reply.choices, [{index: 0, content: "", reasoning: null, toolCalls: [{id: "t", type: "function", function: {name: "f", arguments: "{}"}}], finishReason: "tool_calls"}]);
    assert.equal(reply.usage?.total_tokens, 3);
});
