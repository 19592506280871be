import {describe, test} from "node:test";
import assert from "node:assert/strict";
import {ResponseStream} from "openai/lib/responses/ResponseStream";
import {buildResponse, functionCallItem, type ResponseBase, ResponseEventWriter} from "./responseOutput.ts";
import type {ResponseStreamEvent} from "./types.ts";

const base: ResponseBase = {id: "resp_1", messageId: "msg_1", reasoningId: "rs_1", createdAt: 1_700_000_000, model: "svc-1", temperature: 0};
const usage = {prompt_tokens: 12, completion_tokens: 5, total_tokens: 17, prompt_tokens_details: {cached_tokens: 3}, completion_tokens_details: {reasoning_tokens: 2}};

function record(script: (writer: ResponseEventWriter) => void): ResponseStreamEvent[] {
    const events: ResponseStreamEvent[] = [];
    const writer = new ResponseEventWriter(base, (event) => events.push(event));
    writer.start();
    script(writer);
    return events;
}

/** Feeds the events to the openai client's own stream helper, which checks their order, routing and identities. */
async function throughOpenAiClient(events: ResponseStreamEvent[]) {
    const lines = events.map((event) => JSON.stringify(event) + "\n").join("");
    const body = new ReadableStream({start(controller) {
        controller.enqueue(new TextEncoder().encode(lines));
        controller.close();
    }});
    const stream = ResponseStream.fromReadableStream(body);
    const texts: string[] = [];
    stream.on("response.output_text.delta", (event) => texts.push(event.delta));
    const final = await stream.finalResponse();
    return {final, texts};
}

describe("ResponseEventWriter", () => {
    test("sends the standard sequence with consecutive sequence numbers", () => {
        const events = record((writer) => {
            writer.textDelta("Hel");
            writer.textDelta("lo");
            writer.finish(usage, false);
        });
        assert.deepEqual(events.map((event) => event.type), [
            "response.created", "response.in_progress", "response.output_item.added", "response.content_part.added",
            "response.output_text.delta", "response.output_text.delta", "response.output_text.done",
            "response.content_part.done", "response.output_item.done", "response.completed"
        ]);
        assert.deepEqual(events.map((event) => event.sequence_number), events.map((_, index) => index));
        assert.equal((events[0].response as any).status, "in_progress");
        assert.equal((events.at(-1)!.response as any).status, "completed");
        assert.equal(events.find((event) => event.type === "response.output_text.done")!.text, "Hello");
    });

    test("streams reasoning as its own item before the message, and the client rebuilds the same response", async () => {
        const events = record((writer) => {
            writer.reasoningDelta("think ");
            writer.reasoningDelta("hard");
            writer.textDelta("42");
            writer.reasoningDelta(" late working is not streamed");
            writer.finish(usage, true);
        });
        const completed = events.at(-1)!.response as any;
        assert.deepEqual(completed.output.map((item: any) => item.type), ["reasoning", "message"]);
        assert.equal(completed.output[0].content[0].text, "think hard");
        assert.equal(completed.output[1].content[0].text, "42");
        assert.deepEqual(completed.incomplete_details, {reason: "max_output_tokens"});
        assert.deepEqual(completed.usage, {input_tokens: 12, input_tokens_details: {cached_tokens: 3}, output_tokens: 5, output_tokens_details: {reasoning_tokens: 2}, total_tokens: 17});
        const textDeltas = events.filter((event) => event.type === "response.output_text.delta");
        assert.ok(textDeltas.every((event) => event.output_index === 1 && event.item_id === "msg_1"));

        const {final, texts} = await throughOpenAiClient(events);
        assert.deepEqual(texts, ["42"]);
        assert.equal(final.output_text, "42");
        assert.deepEqual(final.output.map((item) => item.id), ["rs_1", "msg_1"]);
    });

    test("an empty answer still has its message item, and matches the non-streaming response", async () => {
        const events = record((writer) => writer.finish(usage, false));
        const completed = events.at(-1)!.response;
        assert.deepEqual(completed, buildResponse(base, {reasoning: "", text: "", calls: [], usage, truncated: false}));
        const {final} = await throughOpenAiClient(events);
        assert.equal(final.output_text, "");
        assert.equal(final.output.length, 1);
    });

    const call = (index: number) => functionCallItem(`fc_${index}`, {id: `call_${index}`, type: "function", function: {name: "get_time", arguments: `{"utc":${index === 1}}`}});

    test("a call is its own item: added, one arguments delta, arguments done, item done, routed by index and id", async () => {
        const events = record((writer) => {
            writer.functionCall(call(1));
            writer.functionCall(call(2));
            writer.textDelta("after the calls: not streamed");
            writer.finish(usage, false);
        });
        const callEvents = ["response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.done", "response.output_item.done"];
        assert.deepEqual(events.map((event) => event.type), ["response.created", "response.in_progress", ...callEvents, ...callEvents, "response.completed"]);
        assert.deepEqual(events.map((event) => event.sequence_number), events.map((_, index) => index));
        assert.deepEqual(events[2].item, {id: "fc_1", type: "function_call", call_id: "call_1", name: "get_time", arguments: "", status: "in_progress"});
        assert.deepEqual(events.slice(3, 5).map((event) => [event.item_id, event.output_index, event.delta ?? event.arguments]), [["fc_1", 0, "{\"utc\":true}"], ["fc_1", 0, "{\"utc\":true}"]]);
        assert.deepEqual(events.slice(7, 9).map((event) => [event.item_id, event.output_index]), [["fc_2", 1], ["fc_2", 1]]);
        const completed = events.at(-1)!.response as any;
        assert.deepEqual(completed.output, [call(1), call(2)], "no message item: the turn was calls only");
        assert.deepEqual(completed, buildResponse(base, {reasoning: "", text: "", calls: [call(1), call(2)], usage, truncated: false}));

        const {final} = await throughOpenAiClient(events);
        // The client adds `parsed_arguments` (null: no zod-parsed tool) to each call.
        assert.deepEqual(final.output.map(({parsed_arguments: _, ...item}: any) => item), [call(1), call(2)]);
        assert.equal(final.output_text, "");
    });

    test("reasoning, then text, then a call: three items in that order, each closed before the next opens", async () => {
        const events = record((writer) => {
            writer.reasoningDelta("plan");
            writer.textDelta("Let me check.");
            writer.functionCall(call(1));
            writer.reasoningDelta("late");
            writer.finish(usage, false);
        });
        const added = events.filter((event) => event.type === "response.output_item.added");
        const done = events.filter((event) => event.type === "response.output_item.done");
        assert.deepEqual(added.map((event) => [event.output_index, (event.item as any).id]), [[0, "rs_1"], [1, "msg_1"], [2, "fc_1"]]);
        assert.deepEqual(done.map((event) => [event.output_index, (event.item as any).id]), [[0, "rs_1"], [1, "msg_1"], [2, "fc_1"]]);
        assert.ok(events.indexOf(done[1]) < events.indexOf(added[2]), "the message is done before the call is added");
        const completed = events.at(-1)!.response as any;
        assert.deepEqual(completed, buildResponse(base, {reasoning: "plan", text: "Let me check.", calls: [call(1)], usage, truncated: false}));

        const {final, texts} = await throughOpenAiClient(events);
        assert.deepEqual(texts, ["Let me check."]);
        assert.deepEqual(final.output.map((item) => item.type), ["reasoning", "message", "function_call"]);
        assert.equal((final.output[2] as any).arguments, "{\"utc\":true}");
    });
});
