// The error envelope of spec §7 on every endpoint: 400, 401, 404, 413, and the model/path rule of 9.2.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {AuthenticationError, BadRequestError} from "openai";
import {limits} from "../../protocol/limits.ts";
import {maxPrompts} from "../../protocol/completions.ts";
import {bodyWithRaw, nestedArraysText, nestedObjectSchema} from "../support/hostileJson.ts";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

let server: TestServer;
const validChat = {model: "svc-1", messages: [{role: "user", content: "Hi"}], max_tokens: 1};
const validCompletion = {model: "svc-1", prompt: "Hi", max_tokens: 1};

before(async () => {
    server = await startTestServer({apiKeys: ["ck_test_primary", "ck_test_secondary"]});
});
after(async () => {
    await server?.close();
});

describe("400 invalid_request", () => {
    for (const [path, valid] of [["/chat/completions", validChat], ["/completions", validCompletion]] as const) {
        test(`${path}: malformed JSON`, async () => {
            for (const body of ["{\"model\": \"svc-1\",", "", "not json", "{'model': 'svc-1'}"]) {
                const reply = await callApi(server, {path, body});
                assertApiError(reply, 400, "invalid_request", "invalid_request_error", "JSON");
            }
        });

        test(`${path}: a body that is not an object`, async () => {
            for (const body of ["[]", "\"svc-1\"", "null", "42"]) {
                const reply = await callApi(server, {path, body});
                assertApiError(reply, 400, "invalid_request", "invalid_request_error", "body");
            }
        });

        test(`${path}: the body model must equal the path segment`, async () => {
            const reply = await callApi(server, {path, body: {...valid, model: "svc-1-decision"}});
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", "model");
            assert.match(reply.json.error.message, /svc-1/);
        });

        test(`${path}: an explicit budget above the output limit is max_output_tokens_exceeded`, async () => {
            const reply = await callApi(server, {path, body: {...valid, max_tokens: limits.contextWindow + 1}});
            assertApiError(reply, 400, "max_output_tokens_exceeded", "invalid_request_error", "max_tokens");
        });
    }

    test("crafted JSON is a 400 naming the field, never a 500", async () => {
        const deep = nestedArraysText(5_000);
        const chat = (change: Record<string, unknown>, raw = deep) => callApi(server, {path: "/chat/completions", body: bodyWithRaw({...validChat, ...change}, "DEEP", raw)});
        assertApiError(await chat({messages: [{role: "DEEP", content: "Hi"}]}), 400, "invalid_request", "invalid_request_error", "messages[0].role");
        const schema = {type: "object", properties: {a: "DEEP"}};
        assertApiError(await chat({response_format: {type: "json_schema", json_schema: {name: "deep", schema}}}), 400, "invalid_request",
            "invalid_request_error", "response_format.json_schema.schema: nests arrays and objects more than 128 levels deep");
        assertApiError(await chat({tools: [{type: "function", function: {name: "deep", parameters: schema}}]}), 400, "invalid_request",
            "invalid_request_error", "tools[0].function.parameters: nests arrays and objects more than 128 levels deep");
        // A valid schema 500 levels deep: refused with the stated limit, not "Maximum call stack size exceeded".
        const valid500 = await chat({response_format: {type: "json_schema", json_schema: {name: "deep", schema: "DEEP"}}}, JSON.stringify(nestedObjectSchema(500)));
        assertApiError(valid500, 400, "invalid_request", "invalid_request_error", "at most 128 levels are supported");
    });

    test("tool-call arguments and a tool result nested 5,000 deep reach the model as text, not a 500", async () => {
        const deepText = nestedArraysText(5_000, 1);
        const reply = await callApi(server, {path: "/chat/completions", body: {...validChat, messages: [
            {role: "user", content: "Hi"},
            {role: "assistant", content: null, tool_calls: [{id: "call_1", type: "function", function: {name: "f", arguments: deepText}}]},
            {role: "tool", tool_call_id: "call_1", content: deepText}
        ]}});
        // 10,001 characters of brackets may or may not fit the fixture's window; either answer is a proper one.
        if (reply.status === 400) assertApiError(reply, 400, "invalid_request", "invalid_request_error", "context window");
        else assert.equal(reply.status, 200, reply.text.slice(0, 300));
    });

    test("responses: a role named after an Object.prototype member is a 400 (500 for toString, 200 for constructor)", async () => {
        for (const role of ["toString", "__proto__", "constructor"]) {
            const reply = await callApi(server, {path: "/responses", body: {model: "svc-1", max_output_tokens: 1, input: [{role, content: "Hi"}]}});
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", "input[0]");
        }
    });

    test("completions: at most 2048 prompts (100,000 were accepted)", async () => {
        const reply = await callApi(server, {path: "/completions", body: {...validCompletion, prompt: Array(maxPrompts + 1).fill("Hi")}});
        assertApiError(reply, 400, "invalid_request", "invalid_request_error", "at most 2048 are allowed");
    });

    test("the openai client surfaces the envelope as BadRequestError with its code", async () => {
        const error = await server.client.chat.completions.create({model: "svc-1", messages: validChat.messages as any, max_tokens: 1_000_000})
            .then(() => undefined, (caught: unknown) => caught);
        assert.ok(error instanceof BadRequestError, String(error));
        assert.equal(error.status, 400);
        assert.equal(error.code, "max_output_tokens_exceeded");
        assert.equal(error.type, "invalid_request_error");
    });
});

describe("401 invalid_api_key", () => {
    const cases: Array<[string, string | null]> = [
        ["missing", null],
        ["empty", ""],
        ["not a bearer scheme", "Basic Y2tfdGVzdF9wcmltYXJ5Og=="],
        ["bearer without a key", "Bearer"],
        ["the bare key without Bearer", "ck_test_primary"],
        ["two tokens", "Bearer ck_test_primary extra"],
        ["an unknown key", "Bearer ck_wrong"],
        ["a key differing in case", "Bearer CK_TEST_PRIMARY"]
    ];
    for (const [name, authorization] of cases) {
        test(`${name} key`, async () => {
            for (const call of [
                {path: "/chat/completions", body: validChat},
                {path: "/completions", body: validCompletion},
                {path: "/models"},
                {path: "/models/svc-1"}
            ]) {
                const reply = await callApi(server, {...call, authorization});
                assertApiError(reply, 401, "invalid_api_key", "authentication_error");
            }
        });
    }

    test("every configured key is accepted", async () => {
        for (const key of ["ck_test_primary", "ck_test_secondary"]) {
            const reply = await callApi(server, {path: "/models", authorization: `Bearer ${key}`});
            assert.equal(reply.status, 200);
        }
    });

    test("the key is checked before the body is parsed", async () => {
        const reply = await callApi(server, {path: "/chat/completions", body: "{broken", authorization: null});
        assertApiError(reply, 401, "invalid_api_key", "authentication_error");
    });

    test("the openai client with a wrong key gets AuthenticationError", async () => {
        const {default: OpenAI} = await import("openai");
        const client = new OpenAI({baseURL: server.baseUrl, apiKey: "ck_wrong", maxRetries: 0});
        await assert.rejects(client.models.list(), (error: unknown) =>
            error instanceof AuthenticationError && error.status === 401 && error.code === "invalid_api_key");
    });

    test("a CORS preflight needs no key", async () => {
        const response = await fetch(`${server.baseUrl}/chat/completions`, {
            method: "OPTIONS",
            headers: {"Origin": "https://example.com", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type"}
        });
        assert.ok(response.status === 204 || response.status === 200, `preflight answered ${response.status}`);
        assert.equal(response.headers.get("access-control-allow-origin"), "*");
    });
});

describe("404 not_found", () => {
    test("an unknown model segment", async () => {
        for (const call of [
            {path: "/svc-2/v1/chat/completions", body: {...validChat, model: "svc-2"}},
            {path: "/gpt-4o/v1/completions", body: {...validCompletion, model: "gpt-4o"}},
            {path: "/svc-9/v1/models"},
            {path: "/v1/chat/completions", body: validChat}
        ]) {
            const reply = await callApi(server, call);
            assertApiError(reply, 404, "not_found", "invalid_request_error");
        }
    });

    test("an unknown endpoint or model id under svc-1", async () => {
        for (const path of ["/svc-1/v1/embeddings", "/svc-1/v2/chat/completions", "/svc-1/v1/models/svc-2", "/svc-1/chat/completions"]) {
            const reply = await callApi(server, {path});
            assertApiError(reply, 404, "not_found", "invalid_request_error");
        }
    });

    test("an unknown model segment still needs a key first", async () => {
        const reply = await callApi(server, {path: "/svc-2/v1/models", authorization: null});
        assertApiError(reply, 401, "invalid_api_key", "authentication_error");
    });
});

describe("413 payload_too_large (spec §8: 64 MiB on svc-1 endpoints)", () => {
    /** A valid request padded with JSON whitespace to exactly `size` bytes. */
    function paddedBody(body: object, size: number): Uint8Array {
        const text = JSON.stringify(body);
        const bytes = new Uint8Array(size).fill(0x20);
        bytes.set(new TextEncoder().encode(text));
        return bytes;
    }

    test("one byte over 64 MiB is refused with 413", async () => {
        assert.equal(limits.chatBodyBytes, 67_108_864);
        for (const [path, body] of [["/chat/completions", validChat], ["/completions", validCompletion]] as const) {
            const reply = await callApi(server, {path, body: paddedBody(body, 67_108_865)});
            assertApiError(reply, 413, "payload_too_large", "invalid_request_error");
        }
    });

    test("exactly 64 MiB is not too large: the padded request is served", async () => {
        const reply = await callApi(server, {path: "/chat/completions", body: paddedBody(validChat, 67_108_864)});
        assert.notEqual(reply.status, 413);
        assert.equal(reply.status, 200, reply.text.slice(0, 300));
        assert.equal(reply.json.usage.completion_tokens, 1);
    });

    test("a body over the limit sent without Content-Length (chunked) is also 413", async () => {
        const chunk = new Uint8Array(4 * 1024 * 1024).fill(0x20);
        let sent = 0;
        const stream = new ReadableStream<Uint8Array>({
            pull(controller) {
                if (sent > limits.chatBodyBytes) return controller.close();
                sent += chunk.length;
                controller.enqueue(chunk);
            }
        });
        const response = await fetch(`${server.baseUrl}/chat/completions`, {
            method: "POST",
            headers: {"Authorization": `Bearer ${server.apiKey}`, "Content-Type": "application/json"},
            body: stream,
            duplex: "half"
        } as RequestInit);
        assert.equal(response.status, 413);
        assert.equal((await response.json()).error.code, "payload_too_large");
    });
});
