// The Responses API (spec 2.4, 6.2) on the real local server: the official openai client's `responses.create`
// and `responses.stream`, and raw HTTP for the events on the wire and the 400s of 2.4 and 7.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {BadRequestError} from "openai";
import {pngHeader} from "../fixtures/imageFixtures.ts";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

// A window above 2048 tokens, so "no default budget" is told apart from chat's default of 2048.
const contextSize = 2304;
let server: TestServer;

before(async () => {
    server = await startTestServer({contextSize});
});
after(async () => {
    await server?.close();
});

const create = (body: Record<string, unknown>) => server.client.responses.create({model: "svc-1", ...body} as any) as Promise<any>;
const post = (body: unknown) => callApi(server, {path: "/responses", body});
const png = `data:image/png;base64,${Buffer.from(pngHeader(4, 4)).toString("base64")}`;

/** Responses server-sent events on the wire: each an `event:` line naming its type and one `data:` line. */
function readResponseEvents(text: string): any[] {
    assert.ok(text.endsWith("\n\n"), "the stream ends with a complete event");
    return text.slice(0, -2).split("\n\n").map((block) => {
        const match = /^event: ([^\n]+)\ndata: ([^\n]+)$/.exec(block);
        assert.ok(match != null, `event ${JSON.stringify(block.slice(0, 120))} is an event line and a data line`);
        const data = JSON.parse(match[2]);
        assert.equal(data.type, match[1]);
        return data;
    });
}

describe("response object", () => {
    test("has the fields of spec 2.4: a completed message item with output_text and annotations, and usage", async () => {
        const startedAt = Math.floor(Date.now() / 1000);
        const response = await create({input: "Hello", max_output_tokens: 6, temperature: 0});
        assert.match(response.id, /^resp-/);
        assert.equal(response.object, "response");
        assert.ok(Number.isInteger(response.created_at) && response.created_at >= startedAt - 1 && response.created_at <= startedAt + 60);
        assert.equal(response.status, "completed");
        assert.equal(response.model, "svc-1");
        assert.equal(response.output.length, 1, "no reasoning item: the ChatML fixture cannot think");
        const [message] = response.output;
        assert.equal(message.type, "message");
        assert.match(message.id, /^msg-/);
        assert.equal(message.status, "completed");
        assert.equal(message.role, "assistant");
        assert.equal(message.content.length, 1);
        assert.equal(message.content[0].type, "output_text");
        assert.equal(typeof message.content[0].text, "string");
        assert.ok(message.content[0].text.length > 0);
        assert.deepEqual(message.content[0].annotations, []);
        assert.equal(response.output_text, message.content[0].text, "the client reads the answer from the message item");
        const {usage} = response;
        assert.ok(usage.input_tokens > 0);
        assert.equal(usage.output_tokens, 6);
        assert.equal(usage.total_tokens, usage.input_tokens + usage.output_tokens);
        assert.ok(Number.isInteger(usage.input_tokens_details.cached_tokens));
        assert.ok(usage.input_tokens_details.cached_tokens >= 0 && usage.input_tokens_details.cached_tokens < usage.input_tokens);
        assert.deepEqual(response.incomplete_details, {reason: "max_output_tokens"});
        assert.equal(response.max_output_tokens, 6);
    });

    test("answers like chat completions for the same conversation (one shared turn generator)", async () => {
        const response = await create({input: "Hello", max_output_tokens: 8, temperature: 0});
        const completion: any = await server.client.chat.completions.create({model: "svc-1", messages: [{role: "user", content: "Hello"}], max_tokens: 8, temperature: 0});
        assert.equal(response.output_text, completion.choices[0].message.content);
        assert.equal(response.usage.input_tokens, completion.usage.prompt_tokens);
    });

    test("input messages with string or input_text content, and instructions as a leading system message", async () => {
        const conversation = [
            {role: "user", content: [{type: "input_text", text: "What is "}, {type: "input_text", text: "two?"}]},
            {role: "assistant", content: "Two."},
            {type: "message", role: "user", content: "Thanks"}
        ];
        const withInstructions = await create({instructions: "You are terse.", input: conversation, max_output_tokens: 2, temperature: 0});
        const asSystemMessage = await create({input: [{role: "system", content: "You are terse."}, ...conversation], max_output_tokens: 2, temperature: 0});
        const without = await create({input: conversation, max_output_tokens: 2, temperature: 0});
        assert.equal(withInstructions.usage.input_tokens, asSystemMessage.usage.input_tokens);
        assert.equal(withInstructions.output_text, asSystemMessage.output_text);
        assert.ok(withInstructions.usage.input_tokens > without.usage.input_tokens);
        assert.equal(withInstructions.instructions, "You are terse.");
    });

    test("without max_output_tokens the budget is the window left after the input, not 2048", async () => {
        const response = await create({input: "Tell me a story", temperature: 0});
        assert.equal(response.max_output_tokens, null);
        assert.deepEqual(response.incomplete_details, {reason: "max_output_tokens"});
        assert.equal(response.usage.input_tokens + response.usage.output_tokens, contextSize);
        assert.ok(response.usage.output_tokens > 2048);
    });

    test("temperature, top_p and chat_template_kwargs are accepted; a model this fixture has cannot think", async () => {
        const response = await create({input: "Hi", max_output_tokens: 3, temperature: 1.5, top_p: 0.5, chat_template_kwargs: {enable_thinking: true}});
        assert.equal(response.status, "completed");
        assert.deepEqual(response.output.map((item: any) => item.type), ["message"]);
        assert.equal(response.temperature, 1.5);
        assert.equal(response.top_p, 0.5);
    });
});

describe("streaming", () => {
    test("responses.stream gets the standard event sequence and ends with the same response as the events", async () => {
        const stream = server.client.responses.stream({model: "svc-1", input: "Hello", max_output_tokens: 5, temperature: 0} as any);
        const events: any[] = [];
        stream.on("event", (event) => events.push(event));
        const deltas: string[] = [];
        stream.on("response.output_text.delta", (event) => deltas.push(event.delta));
        const final: any = await stream.finalResponse();
        const types = events.map((event) => event.type);
        const deltaCount = types.filter((type) => type === "response.output_text.delta").length;
        assert.ok(deltaCount >= 1);
        assert.deepEqual(types, [
            "response.created", "response.in_progress", "response.output_item.added", "response.content_part.added",
            ...Array(deltaCount).fill("response.output_text.delta"),
            "response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed"
        ]);
        assert.deepEqual(events.map((event) => event.sequence_number), events.map((_, index) => index));
        assert.equal(final.status, "completed");
        assert.equal(final.output_text, deltas.join(""));
        assert.equal(final.usage.output_tokens, 5);
        const done = events.find((event) => event.type === "response.output_text.done");
        assert.equal(done.text, final.output_text);
        assert.equal(done.item_id, final.output[0].id);
        const nonStreaming = await create({input: "Hello", max_output_tokens: 5, temperature: 0});
        assert.equal(final.output_text, nonStreaming.output_text, "greedy decoding streams the same answer");
    });

    test("on the wire: event lines, in_progress snapshots, routed deltas, no [DONE], Server-Timing", async () => {
        const reply = await post({model: "svc-1", input: "Hi", max_output_tokens: 4, stream: true, temperature: 0});
        assert.equal(reply.status, 200);
        assert.match(reply.headers.get("content-type") ?? "", /^text\/event-stream/);
        assert.ok(reply.headers.get("server-timing") != null);
        assert.ok(!reply.text.includes("[DONE]"));
        const events = readResponseEvents(reply.text);
        assert.equal(events[0].type, "response.created");
        assert.equal(events[0].response.status, "in_progress");
        assert.deepEqual(events[0].response.output, []);
        assert.equal(events[0].response.usage, null);
        const added = events.find((event) => event.type === "response.output_item.added");
        assert.deepEqual(added.item.content, []);
        assert.equal(added.item.status, "in_progress");
        for (const delta of events.filter((event) => event.type === "response.output_text.delta")) {
            assert.equal(delta.item_id, added.item.id);
            assert.equal(delta.output_index, 0);
            assert.equal(delta.content_index, 0);
        }
        const completed = events.at(-1);
        assert.equal(completed.type, "response.completed");
        assert.equal(completed.response.id, events[0].response.id);
        assert.equal(completed.response.usage.output_tokens, 4);
    });
});

describe("400s of spec 2.4 and 7", () => {
    const userParts = (...parts: unknown[]) => ({model: "svc-1", input: [{role: "user", content: parts}]});

    test("an input_image without detail: one schema error per input shape checked, the missing field unnamed", async () => {
        const reply = await post(userParts({type: "input_text", text: "What is this?"}, {type: "input_image", image_url: png}));
        assertApiError(reply, 400, "invalid_request");
        const message: string = reply.json.error.message;
        for (const shape of ["string input shape", "input_text part shape", "input_image part shape"]) assert.ok(message.includes(shape), message);
        assert.ok(!/detail/.test(message), message);
    });

    test("the chat spellings are 400s of the same kind", async () => {
        for (const part of [{type: "text", text: "Hi"}, {type: "image_url", image_url: {url: png}}]) {
            const reply = await post(userParts(part));
            assertApiError(reply, 400, "invalid_request");
            assert.match(reply.json.error.message, /input\[0\]\.content\[0\]: does not match the input_text part shape; input\[0\]\.content\[0\]: does not match the input_image part shape/);
        }
        await assert.rejects(create({input: [{role: "user", content: [{type: "text", text: "Hi"}]}]}), BadRequestError);
    });

    test("max_output_tokens follows the rules of max_tokens", async () => {
        for (const value of [0, -3, 2.5, "8"])
            assertApiError(await post({model: "svc-1", input: "Hi", max_output_tokens: value}), 400, "invalid_request", "invalid_request_error", "max_output_tokens");
        assertApiError(await post({model: "svc-1", input: "Hi", max_output_tokens: contextSize + 1}), 400, "max_output_tokens_exceeded", "invalid_request_error", "max_output_tokens");
        assertApiError(await post({model: "svc-1", input: "Hi", max_output_tokens: contextSize - 2}), 400, "invalid_request", "invalid_request_error", "max_output_tokens");
    });

    test("other validation: model, input, sampling, and what this API does not have", async () => {
        assertApiError(await post({model: "svc-2", input: "Hi"}), 400, "invalid_request", "invalid_request_error", "model");
        assertApiError(await post({model: "svc-1"}), 400, "invalid_request", "invalid_request_error", "input");
        assertApiError(await post({model: "svc-1", input: "Hi", temperature: 5}), 400, "invalid_request", "invalid_request_error", "temperature");
        assertApiError(await post({model: "svc-1", input: "Hi", top_p: 2}), 400, "invalid_request", "invalid_request_error", "top_p");
        assertApiError(await post({model: "svc-1", input: "Hi", previous_response_id: "resp-1"}), 400, "invalid_request", "invalid_request_error", "self-contained");
        assertApiError(await post({model: "svc-1", input: "Hi", text: {format: {type: "json_object"}}}), 400, "invalid_request", "invalid_request_error", "no JSON mode");
        assertApiError(await post({model: "svc-1", input: "Hi", reasoning_effort: "low"}), 400, "invalid_request", "invalid_request_error", "reasoning_effort");
        // The ChatML fixture cannot think, so there is no reasoning variant to list or serve.
        assert.deepEqual((await server.client.models.list()).data.map((model) => model.id), ["svc-1"]);
        assertApiError(await callApi(server, {path: "/svc-1-reasoning/v1/responses", body: {model: "svc-1-reasoning", input: "Hi"}}), 404, "not_found");
    });
});
