import assert from "node:assert/strict";
import {test} from "node:test";
import {defaultSchemaText, type ChatDraft} from "./chat.ts";
import {readChatDraft, readCompletionsDraft, readResponsesDraft} from "./savedDrafts.ts";

const fresh: ChatDraft = {
    systemPrompt: "fresh",
    messages: [{id: "m0", role: "user", content: "fresh message", images: []}],
    params: {temperature: 0.7},
    toolsText: "",
    toolChoice: "",
    responseFormat: {mode: "none", schemaText: defaultSchemaText}
};

test("a saved chat draft reads back whole, tool calls, images and unfinished JSON included", () => {
    const saved: ChatDraft = {
        systemPrompt: "Be brief.",
        messages: [
            {id: "a", role: "user", content: "Weather?", images: [{id: "i", name: "sky.png", dataUrl: "data:image/png;base64,AAAA"}]},
            {id: "b", role: "assistant", content: "", images: [], toolCalls: [{id: "call_1", type: "function", function: {name: "get_weather", arguments: "{}"}}]},
            {id: "c", role: "tool", content: "sunny", images: [], toolCallId: "call_1"}
        ],
        params: {max_tokens: 64, stop: ["\n"], stream: false, logit_bias: "7: 5"},
        toolsText: "[{\"type\": \"function\", \"function\": {",
        toolChoice: "function:get_weather",
        responseFormat: {mode: "json_schema", schemaText: "{}"}
    };
    assert.deepEqual(readChatDraft(JSON.parse(JSON.stringify(saved)), fresh), saved);
});

test("what does not read as its type takes the fresh draft's value; nothing throws", () => {
    for (const bad of [null, 3, "x", [], {messages: "no"}]) assert.doesNotThrow(() => readChatDraft(bad, fresh));
    assert.equal(readChatDraft(null, fresh), fresh);
    const mixed = readChatDraft({
        systemPrompt: 5,
        messages: [{role: "wizard", content: "?"}, {role: "user", content: 7}, "junk"],
        params: {temperature: "hot", top_p: 0.5, stop: [1], seed: {}},
        toolChoice: "sometimes",
        responseFormat: {mode: "yaml"}
    }, fresh);
    assert.equal(mixed.systemPrompt, "fresh");
    // The unknown role and the junk are dropped; the user message keeps its role with empty text.
    assert.deepEqual(mixed.messages.map((message) => [message.role, message.content]), [["user", ""]]);
    assert.deepEqual(mixed.params, {temperature: "hot", top_p: 0.5});
    assert.equal(mixed.toolChoice, "");
    assert.deepEqual(mixed.responseFormat, fresh.responseFormat);
});

test("Responses and completions drafts read back, with the same fallbacks", () => {
    const responses = {instructions: "One sentence.", parts: [{id: "p", type: "input_text", text: "Hi"}, {id: "q", type: "input_image", name: "a.png", dataUrl: "data:image/png;base64,AA"}], params: {stream: true}};
    assert.deepEqual(readResponsesDraft(responses, {instructions: "", parts: [], params: {}}), responses);
    assert.deepEqual(readResponsesDraft({parts: [{type: "input_video"}]}, {instructions: "i", parts: [], params: {}}), {instructions: "i", parts: [], params: {}});
    assert.deepEqual(readCompletionsDraft({prompt: "Once", params: {max_tokens: 5}}, {prompt: "", params: {}}), {prompt: "Once", params: {max_tokens: 5}});
    assert.deepEqual(readCompletionsDraft({prompt: ["x"]}, {prompt: "fresh", params: {n: 1}}), {prompt: "fresh", params: {n: 1}});
});
