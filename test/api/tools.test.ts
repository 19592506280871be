// Tool calling (spec 2.5) on the real local server with the official openai client: forced calls are generated
// under the call grammar of node-llama-cpp's chat wrapper, so even the random-weight fixture makes valid calls.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {renderChatPrompt} from "../../native/chat/turnPlan.ts";
import {toModelFunctions} from "../../native/chat/tools.ts";
import {toChatHistory} from "../../native/chat/history.ts";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {readSse} from "./utils/readSse.ts";
import {sequenceMeters} from "./utils/sequenceMeters.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {argumentsProblem, chatTools} from "./utils/toolFixtures.ts";

let server: TestServer;
before(async () => {
    server = await startTestServer();
});
after(async () => {
    await server?.close();
});

const tools = chatTools;
const ask = [{role: "user" as const, content: "What is the weather in Oslo?"}];

const chat = (body: Record<string, unknown>) =>
    server.client.chat.completions.create({model: "svc-1", messages: ask, tools, max_tokens: 96, ...body} as any) as Promise<any>;

/** Spec 2.2 and 2.5.4: the call shape, and arguments that parse and validate against the function's schema. */
function assertValidCalls(choice: any, names = tools.map((tool) => tool.function.name)) {
    assert.equal(choice.finish_reason, "tool_calls");
    assert.equal(choice.message.content, null);
    assert.ok(choice.message.tool_calls.length >= 1);
    for (const call of choice.message.tool_calls) {
        assert.match(call.id, /^call-[0-9a-f]{24}$/);
        assert.equal(call.type, "function");
        assert.ok(names.includes(call.function.name), call.function.name);
        assert.equal(typeof call.function.arguments, "string");
        assert.equal(argumentsProblem(call.function.name, call.function.arguments), undefined);
    }
}

describe("forced tool_choice", () => {
    test("required: the reply is a call of one of the tools whose arguments validate", async () => {
        for (const seed of [1, 2, 3]) assertValidCalls((await chat({tool_choice: "required", seed})).choices[0]);
    });

    test("a named function: the reply calls exactly that function, with valid arguments", async () => {
        for (const seed of [4, 5, 6]) {
            const completion = await chat({tool_choice: {type: "function", function: {name: "get_weather"}}, seed});
            assertValidCalls(completion.choices[0], ["get_weather"]);
            const args = JSON.parse(completion.choices[0].message.tool_calls[0].function.arguments);
            assert.ok(args.days >= 1 && args.days <= 7 && [...args.note].length <= 6);
        }
        const other = await chat({tool_choice: {type: "function", function: {name: "get_time"}}, seed: 7});
        assertValidCalls(other.choices[0], ["get_time"]);
    });

    test("every choice of n calls, with distinct call ids, and usage counts every generated token", async () => {
        const before = await sequenceMeters(server.engine);
        const completion = await chat({tool_choice: "required", n: 2, seed: 8});
        const after = await sequenceMeters(server.engine);
        assert.equal(completion.choices.length, 2);
        completion.choices.forEach((choice: any) => assertValidCalls(choice));
        const ids = completion.choices.flatMap((choice: any) => choice.message.tool_calls.map((call: any) => call.id));
        assert.equal(new Set(ids).size, ids.length);
        assert.equal(completion.usage.completion_tokens, after.output - before.output);
    });

    test("forcing on a stream is a 400 (spec 2.5.2)", async () => {
        for (const tool_choice of ["required", {type: "function", function: {name: "get_time"}}]) {
            const reply = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: ask, tools, tool_choice, stream: true}});
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", "tool_choice");
        }
    });
});

describe("auto and none", () => {
    test("tools go to the model in its chat wrapper's own format and count in prompt_tokens", async () => {
        const withTools = await chat({tool_choice: "auto", max_tokens: 4, temperature: 0});
        const without = await server.client.chat.completions.create({model: "svc-1", messages: ask, max_tokens: 4, temperature: 0});
        const rendered = renderChatPrompt(server.engine.model, server.engine.chatWrapper, toChatHistory(ask), toModelFunctions(tools));
        assert.equal(withTools.usage.prompt_tokens, rendered.length);
        assert.ok(withTools.usage.prompt_tokens > without.usage!.prompt_tokens + 50);
        const [choice] = withTools.choices;
        if (choice.message.tool_calls != null) assertValidCalls(choice);
        else assert.equal(typeof choice.message.content, "string");
    });

    test("none never calls a tool", async () => {
        for (const seed of [1, 2]) {
            const completion = await chat({tool_choice: "none", seed, max_tokens: 16});
            assert.equal(completion.choices[0].message.tool_calls, undefined);
            assert.notEqual(completion.choices[0].finish_reason, "tool_calls");
            assert.equal(typeof completion.choices[0].message.content, "string");
        }
    });

    test("auto streams: well-formed chunks, any call as delta.tool_calls, then a finish_reason and [DONE]", async () => {
        const reply = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: ask, tools, tool_choice: "auto", stream: true, max_tokens: 12, seed: 3}});
        assert.equal(reply.status, 200);
        const chunks = readSse(reply.text);
        assert.deepEqual(chunks[0].choices[0].delta, {role: "assistant", content: ""});
        const finish = chunks.at(-1).choices[0].finish_reason;
        assert.ok(["stop", "length", "tool_calls"].includes(finish), finish);
        const calls = chunks.flatMap((chunk) => chunk.choices[0].delta.tool_calls ?? []);
        assert.equal(finish === "tool_calls", calls.length > 0);
        for (const call of calls) assert.ok(call.id != null && call.type === "function" && tools.some((tool) => tool.function.name === call.function.name));
    });
});

describe("tool results and validation", () => {
    const call = {id: "call-abc", type: "function", function: {name: "get_weather", arguments: "{\"city\":\"Oslo\",\"days\":1}"}};

    test("a tool result after the assistant message carrying its call continues the turn", async () => {
        const completion = await chat({
            messages: [...ask, {role: "assistant", content: null, tool_calls: [call]}, {role: "tool", tool_call_id: "call-abc", content: "{\"sky\":\"clear\"}"}],
            max_tokens: 6
        });
        assert.equal(completion.choices.length, 1);
        const noResult = await chat({messages: [...ask, {role: "assistant", content: null, tool_calls: [call]}], max_tokens: 6});
        assert.ok(completion.usage.prompt_tokens > noResult.usage.prompt_tokens, "the result is part of the prompt");
    });

    test("a tool result that answers no call of the preceding assistant message is a 400", async () => {
        const orphan = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: [...ask, {role: "tool", tool_call_id: "call-abc", content: "x"}]}});
        assertApiError(orphan, 400, "invalid_request", "invalid_request_error", "tool_call_id");
        const mismatch = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: [...ask, {role: "assistant", content: null, tool_calls: [call]}, {role: "tool", tool_call_id: "call-xyz", content: "x"}]}});
        assertApiError(mismatch, 400, "invalid_request", "invalid_request_error", "call-xyz");
    });

    test("an invalid parameters schema, an unknown named function and required without tools are 400s", async () => {
        const badSchema = [{type: "function", function: {name: "f", parameters: {type: "object", properties: {a: {type: "strin"}}}}}];
        const reply = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: ask, tools: badSchema}});
        assertApiError(reply, 400, "invalid_request", "invalid_request_error", "tools[0].function.parameters: is not a valid JSON Schema");
        assertApiError(await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: ask, tools, tool_choice: {type: "function", function: {name: "nope"}}}}), 400, "invalid_request", "invalid_request_error", "nope");
        assertApiError(await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: ask, tool_choice: "required"}}), 400, "invalid_request", "invalid_request_error", "tool_choice");
    });
});
