import {describe, test} from "node:test";
import assert from "node:assert/strict";
import {limits} from "../limits.ts";
import {jsonDepth, ValidationError, type FieldPath} from "../validation.ts";
import {maxSchemaDepth, parseChatCompletionRequest} from "./parseChatRequest.ts";
import {nestedArrays, nestedObjectSchema} from "../../test/support/hostileJson.ts";

const base = {model: "svc-1", messages: [{role: "user", content: "Hi"}]};
const parse = (change: Record<string, unknown> = {}) => parseChatCompletionRequest({...base, ...change});

function assertInvalid(change: Record<string, unknown>, path: FieldPath, message?: RegExp) {
    assert.throws(() => parse(change), (error: unknown) => {
        assert.ok(error instanceof ValidationError, String(error));
        assert.deepEqual(error.path, path);
        if (message != null) assert.match(error.message, message);
        return true;
    });
}

describe("parseChatCompletionRequest defaults", () => {
    test("a minimal request gets the spec's defaults", () => {
        const request = parse();
        assert.equal(request.model, "svc-1");
        assert.deepEqual(request.messages, [{role: "user", content: "Hi"}]);
        assert.equal(request.maxTokens, limits.defaultChatMaxTokens);
        assert.equal(request.maxTokens, 2048);
        assert.equal(request.maxTokensExplicit, false);
        assert.equal(request.n, 1);
        assert.equal(request.stream, false);
        assert.equal(request.include_reasoning, true);
        assert.equal(request.stop, undefined);
        assert.equal(request.temperature, undefined);
    });

    test("null optional fields mean not sent, as OpenAI clients send them", () => {
        const request = parse({max_tokens: null, max_completion_tokens: null, temperature: null, top_p: null, seed: null, stop: null, n: null, stream: null, tools: null});
        assert.equal(request.maxTokens, 2048);
        assert.equal(request.maxTokensExplicit, false);
        assert.equal(request.n, 1);
        assert.equal(request.stream, false);
    });

    test("the body must be an object", () => {
        for (const body of [null, [], "x", 1])
            assert.throws(() => parseChatCompletionRequest(body), (error: unknown) => error instanceof ValidationError && error.path.length === 0);
    });
});

describe("output budget", () => {
    test("max_tokens or max_completion_tokens is an explicit budget; max_completion_tokens wins when both are sent", () => {
        assert.deepEqual([parse({max_tokens: 7}).maxTokens, parse({max_tokens: 7}).maxTokensExplicit], [7, true]);
        assert.equal(parse({max_completion_tokens: 9}).maxTokens, 9);
        assert.equal(parse({max_tokens: 7, max_completion_tokens: 9}).maxTokens, 9);
        assert.equal(parse({max_tokens: 9, max_completion_tokens: 7}).maxTokens, 7);
        assert.equal(parse({max_tokens: 1}).maxTokens, 1);
    });

    test("zero, negative, fractional and non-numeric budgets are refused with their field", () => {
        for (const field of ["max_tokens", "max_completion_tokens"]) {
            for (const value of [0, -1, 1.5, "8", true]) assertInvalid({[field]: value}, [field]);
        }
        assertInvalid({max_tokens: 5, max_completion_tokens: 0}, ["max_completion_tokens"]);
        assertInvalid({max_tokens: 0, max_completion_tokens: 5}, ["max_tokens"]);
    });
});

describe("messages", () => {
    test("every role with string or text-part content", () => {
        const request = parse({messages: [
            {role: "system", content: "Be brief."},
            {role: "developer", content: [{type: "text", text: "Be kind."}]},
            {role: "user", content: [{type: "text", text: "Hi"}]},
            {role: "assistant", content: null, tool_calls: [{id: "c1", type: "function", function: {name: "f", arguments: "{}"}}]},
            {role: "tool", tool_call_id: "c1", content: [{type: "text", text: "4"}, {type: "text", text: "2"}]},
            {role: "assistant", content: "Done."}
        ]});
        assert.deepEqual(request.messages.map((message) => message.role), ["system", "system", "user", "assistant", "tool", "assistant"]);
        assert.deepEqual(request.messages[1].content, [{type: "text", text: "Be kind."}]);
        assert.equal(request.messages[3].content, null);
        assert.equal(request.messages[4].content, "42", "tool result parts are joined into its string content");
    });

    test("an image part must be an inline data URL", () => {
        const image = (url: string) => ({messages: [{role: "user", content: [{type: "image_url", image_url: {url}}]}]});
        const onePixelPng = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";
        const ok = parse(image(onePixelPng));
        assert.equal((ok.messages[0].content as any)[0].type, "image_url");
        assertInvalid(image("https://example.com/cat.png"), ["messages", 0, "content", 0, "image_url", "url"], /https/);
        assertInvalid(image("data:image/png,rawbytes"), ["messages", 0, "content", 0, "image_url", "url"]);
    });

    test("malformed messages name the exact path", () => {
        assertInvalid({messages: undefined}, ["messages"], /required/);
        assertInvalid({messages: []}, ["messages"]);
        assertInvalid({messages: {role: "user", content: "Hi"}}, ["messages"]);
        assertInvalid({messages: [{role: "bot", content: "Hi"}]}, ["messages", 0, "role"]);
        assertInvalid({messages: [{content: "Hi"}]}, ["messages", 0, "role"]);
        assertInvalid({messages: [{role: "user"}]}, ["messages", 0, "content"]);
        assertInvalid({messages: [{role: "user", content: null}]}, ["messages", 0, "content"]);
        assertInvalid({messages: [{role: "assistant"}]}, ["messages", 0, "content"], /required/);
        assertInvalid({messages: [{role: "user", content: [{type: "text", text: 5}]}]}, ["messages", 0, "content", 0, "text"]);
        assertInvalid({messages: [{role: "user", content: ["Hi"]}]}, ["messages", 0, "content", 0]);
    });

    test("a tool result must answer a call of the assistant message just before it", () => {
        const call = {role: "assistant", content: null, tool_calls: [{id: "c1", type: "function", function: {name: "f", arguments: "{}"}}]};
        assertInvalid({messages: [{role: "user", content: "Hi"}, {role: "tool", tool_call_id: "c1", content: "1"}]}, ["messages", 1, "tool_call_id"]);
        assertInvalid({messages: [call, {role: "tool", tool_call_id: "c2", content: "1"}]}, ["messages", 1, "tool_call_id"]);
        assertInvalid({messages: [call, {role: "tool", tool_call_id: "c1", content: "1"}, {role: "tool", tool_call_id: "c1", content: "1"}]}, ["messages", 2, "tool_call_id"]);
        assertInvalid({messages: [call, {role: "user", content: "x"}, {role: "tool", tool_call_id: "c1", content: "1"}]}, ["messages", 2, "tool_call_id"]);
        assertInvalid({messages: [call, {role: "tool", content: "1"}]}, ["messages", 1, "tool_call_id"]);
    });
});

describe("sampling and other fields", () => {
    test("sampling values within range pass through; stop becomes a list", () => {
        const request = parse({temperature: 0, top_p: 1, seed: -3, presence_penalty: -2, frequency_penalty: 2, stop: "END"});
        assert.equal(request.temperature, 0);
        assert.equal(request.top_p, 1);
        assert.equal(request.seed, -3);
        assert.equal(request.presence_penalty, -2);
        assert.equal(request.frequency_penalty, 2);
        assert.deepEqual(request.stop, ["END"]);
        assert.deepEqual(parse({stop: ["a", "b"]}).stop, ["a", "b"]);
        assert.equal(parse({temperature: 2}).temperature, 2);
    });

    test("out-of-range or mistyped sampling values are refused with their field", () => {
        assertInvalid({temperature: -0.1}, ["temperature"]);
        assertInvalid({temperature: 2.01}, ["temperature"]);
        assertInvalid({temperature: "0"}, ["temperature"]);
        assertInvalid({top_p: 1.01}, ["top_p"]);
        assertInvalid({seed: 0.5}, ["seed"]);
        assertInvalid({presence_penalty: 2.5}, ["presence_penalty"]);
        assertInvalid({frequency_penalty: -2.5}, ["frequency_penalty"]);
        assertInvalid({stop: 3}, ["stop"]);
        assertInvalid({stop: [""]}, ["stop", 0]);
        assertInvalid({stop: ["a", "b", "c", "d", "e"]}, ["stop"]);
    });

    test("n is a positive integer", () => {
        assert.equal(parse({n: 3}).n, 3);
        for (const value of [0, -1, 1.5, "2"]) assertInvalid({n: value}, ["n"]);
    });

    test("stream and stream_options", () => {
        const request = parse({stream: true, stream_options: {include_usage: true}});
        assert.equal(request.stream, true);
        assert.deepEqual(request.stream_options, {include_usage: true});
        assertInvalid({stream: "true"}, ["stream"]);
        assertInvalid({stream_options: {include_usage: true}}, ["stream_options"], /stream/);
        assertInvalid({stream: false, stream_options: {include_usage: true}}, ["stream_options"]);
        assertInvalid({stream: true, stream_options: {include_usage: 1}}, ["stream_options", "include_usage"]);
    });

    test("model is a required string", () => {
        assertInvalid({model: undefined}, ["model"], /required/);
        assertInvalid({model: 1}, ["model"]);
    });
});

describe("crafted JSON is a 400 at the field, never a stack overflow", () => {
    const deep = nestedArrays(5_000);

    test("a role nested 5,000 deep is named by its type, not echoed", () => {
        assertInvalid({messages: [{role: deep, content: "Hi"}]}, ["messages", 0, "role"], /got a value of type array$/);
    });

    test("a json_schema or tool parameters nested 5,000 deep are refused with the stated depth limit", () => {
        const limit = new RegExp(`more than ${maxSchemaDepth} levels deep`);
        assertInvalid({response_format: {type: "json_schema", json_schema: {name: "deep", schema: {type: "object", properties: {a: deep}}}}},
            ["response_format", "json_schema", "schema"], limit);
        assertInvalid({tools: [{type: "function", function: {name: "deep", parameters: {type: "object", items: deep}}}]},
            ["tools", 0, "function", "parameters"], limit);
    });

    test("a valid schema is accepted up to the depth limit and refused one level past it", () => {
        // Each object schema nests two levels (the schema and its `properties`); an array schema one.
        const atLimit = {type: "array", items: nestedObjectSchema((maxSchemaDepth - 2) / 2)};
        const pastLimit = {type: "array", items: atLimit};
        assert.equal(jsonDepth(atLimit), maxSchemaDepth);
        const format = (schema: unknown) => ({response_format: {type: "json_schema", json_schema: {name: "deep", schema}}});
        assert.ok(parse(format(atLimit)).response_format);
        assertInvalid(format(pastLimit), ["response_format", "json_schema", "schema"], /at most 128 levels/);
        assertInvalid(format(nestedObjectSchema(500)), ["response_format", "json_schema", "schema"], /at most 128 levels/);
    });

    test("a long string in an error message is cut, not echoed whole", () => {
        assert.throws(() => parse({messages: [{role: "x".repeat(1_000_000), content: "Hi"}]}), (error: unknown) => {
            assert.ok(error instanceof ValidationError);
            assert.ok(error.message.length < 300, `${error.message.length} characters`);
            return true;
        });
    });
});
