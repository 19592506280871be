import {test} from "node:test";
import assert from "node:assert/strict";
import {toChunkDelta} from "./routes.ts";

test("content and reasoning deltas keep their field", () => {
    assert.deepEqual(toChunkDelta({content: "Hi"}), {content: "Hi"});
    assert.deepEqual(toChunkDelta({reasoning: "hmm"}), {reasoning: "hmm"});
});

test("a tool call becomes one delta.tool_calls entry that an OpenAI client accumulates into the whole call", () => {
    const delta = toChunkDelta({toolCall: {index: 1, id: "call-1", type: "function", function: {name: "get_weather", arguments: "{\"city\":\"Oslo\"}"}}});
    assert.deepEqual(delta, {tool_calls: [{index: 1, id: "call-1", type: "function", function: {name: "get_weather", arguments: "{\"city\":\"Oslo\"}"}}]});
});
