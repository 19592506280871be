import assert from "node:assert/strict";
import {test} from "node:test";
import {applyResponsesEvent, buildResponsesRequest, emptyResponsesReply} from "./responses.ts";

test("text deltas build the output; response.completed brings the final text from the message item and usage", () => {
    const events = [
        {type: "response.created", response: {status: "in_progress", output: []}},
        {type: "response.reasoning_text.delta", delta: "hmm"},
        {type: "response.output_text.delta", delta: "Hel"},
        {type: "response.output_text.delta", delta: "lo"},
        {type: "response.completed", response: {status: "completed", usage: {input_tokens: 2, output_tokens: 2, total_tokens: 4},
            output: [{type: "reasoning", content: [{type: "reasoning_text", text: "hmm"}]}, {type: "message", content: [{type: "output_text", text: "Hello", annotations: []}]}]}}
    ];
    const reply = events.reduce(applyResponsesEvent, emptyResponsesReply());
    assert.equal(reply.outputText, "Hello");
    assert.equal(reply.reasoningText, "hmm");
    assert.equal(reply.status, "completed");
    assert.deepEqual(reply.usage, {input_tokens: 2, output_tokens: 2, total_tokens: 4});
    assert.deepEqual(reply.events.map((row) => row.type), events.map((event) => event.type));
    assert.equal(reply.events[2].summary, "\"Hel\"");
});

test("input parts use the Responses spellings, with detail on every image (spec 2.4)", () => {
    const body = buildResponsesRequest({
        instructions: "Be brief.",
        parts: [{id: "1", type: "input_text", text: "What is it?"}, {id: "2", type: "input_image", name: "a.png", dataUrl: "data:image/png;base64,AAAA"}],
        params: {max_output_tokens: 50, enable_thinking: false, stream: true}
    });
    assert.deepEqual(body, {
        model: "svc-1",
        instructions: "Be brief.",
        input: [{role: "user", content: [{type: "input_text", text: "What is it?"}, {type: "input_image", image_url: "data:image/png;base64,AAAA", detail: "auto"}]}],
        max_output_tokens: 50,
        chat_template_kwargs: {enable_thinking: false},
        stream: true
    });
    assert.equal(buildResponsesRequest({instructions: "", parts: [{id: "1", type: "input_text", text: "Hi"}], params: {}}).input, "Hi");
});

test("a stored Responses body reads back into a draft that builds the same body", async () => {
    const {draftFromResponsesRequest} = await import("./responses.ts");
    const original = buildResponsesRequest({
        instructions: "I",
        parts: [{id: "1", type: "input_text", text: "a"}, {id: "2", type: "input_image", name: "x", dataUrl: "data:image/png;base64,AAAA"}, {id: "3", type: "input_text", text: "b"}],
        params: {temperature: 1, top_p: 0.5, stream: false}
    });
    assert.deepEqual(buildResponsesRequest(draftFromResponsesRequest(original)), original);
});
