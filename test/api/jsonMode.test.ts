// JSON mode (spec 2.7) on the real local server: grammar-constrained decoding makes even the random-weight
// fixture answer valid JSON; the schema is checked first, counted in the prompt, and enforced by validation.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {Ajv2020} from "ajv/dist/2020.js";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {sequenceMeters} from "./utils/sequenceMeters.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

let server: TestServer;
before(async () => {
    server = await startTestServer({contextSize: 2048});
});
after(async () => {
    await server?.close();
});

const ask = [{role: "user" as const, content: "Describe the weather as JSON."}];
const ajv = new Ajv2020({strict: false});
const report = {
    type: "object",
    properties: {
        sunny: {type: "boolean"},
        sky: {enum: ["clear", "cloudy", "rain"]},
        level: {type: "integer", minimum: 0, maximum: 5},
        tag: {type: "string", minLength: 1, maxLength: 4},
        wind: {type: "object", properties: {strong: {type: "boolean"}}, required: ["strong"]},
        days: {type: "array", items: {type: "boolean"}, maxItems: 3},
        alert: {anyOf: [{type: "null"}, {type: "boolean"}]}
    },
    required: ["sunny", "sky", "level", "tag", "wind", "days", "alert"],
    additionalProperties: false
};
const jsonSchema = (schema: unknown, name = "report") => ({type: "json_schema", json_schema: {name, schema}});
const post = (body: Record<string, unknown>) => callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: ask, max_tokens: 160, ...body}});
const chat = (body: Record<string, unknown>) =>
    server.client.chat.completions.create({model: "svc-1", messages: ask, max_tokens: 160, ...body} as any) as Promise<any>;

describe("json_schema", () => {
    test("the reply is one JSON value that validates against the schema, finish_reason stop", async () => {
        const validate = ajv.compile(report);
        for (const seed of [1, 2, 3]) {
            const completion = await chat({response_format: jsonSchema(report), seed});
            const [choice] = completion.choices;
            assert.equal(choice.finish_reason, "stop");
            const value = JSON.parse(choice.message.content);
            assert.ok(validate(value), `${choice.message.content}: ${ajv.errorsText(validate.errors)}`);
        }
    });

    test("a non-object root (2.7.2) is attempted under its own grammar and validated", async () => {
        const schema = {type: "array", items: {enum: ["a", "b"]}, minItems: 1, maxItems: 3};
        const completion = await chat({response_format: jsonSchema(schema, "list"), seed: 4});
        assert.equal(completion.choices[0].finish_reason, "stop");
        assert.ok(ajv.validate(schema, JSON.parse(completion.choices[0].message.content)), completion.choices[0].message.content);
    });

    test("the schema counts toward prompt_tokens and toward the window (2.7.3)", async () => {
        const small = await chat({response_format: jsonSchema({type: "object", properties: {ok: {type: "boolean"}}, required: ["ok"]}), max_tokens: 24, seed: 1});
        const large = await chat({response_format: jsonSchema(report), max_tokens: 24, seed: 1});
        assert.ok(large.usage.prompt_tokens > small.usage.prompt_tokens + 50, `${large.usage.prompt_tokens} vs ${small.usage.prompt_tokens}`);
        const bulky = {type: "object", description: "word ".repeat(900), properties: {ok: {type: "boolean"}}};
        const reply = await post({response_format: jsonSchema(bulky), max_tokens: 1200});
        assertApiError(reply, 400, "invalid_request", "invalid_request_error", "exceeds the 2048-token context window");
    });

    test("an invalid schema is a 400 before any generation (2.7.4)", async () => {
        const before = await sequenceMeters(server.engine);
        for (const schema of [{type: "objekt"}, {type: "object", properties: {a: {minimum: "zero"}}}, {$ref: "#/$defs/missing"}]) {
            const reply = await post({response_format: jsonSchema(schema)});
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", "is not a valid JSON Schema");
            assert.ok(reply.json.error.message.startsWith("response_format.json_schema.schema: "));
        }
        assert.deepEqual(await sequenceMeters(server.engine), before, "nothing was evaluated");
    });

    test("a schema the grammar cannot express is generated, validated and retried; when that fails it is a 400 with usage (2.7.5)", async () => {
        const impossible = {type: "object", properties: {code: {type: "string", pattern: "^[0-9]{3}$", minLength: 4, maxLength: 4}}, required: ["code"]};
        const before = await sequenceMeters(server.engine);
        const reply = await post({response_format: jsonSchema(impossible, "code"), seed: 5});
        const after = await sequenceMeters(server.engine);
        assertApiError(reply, 400, "invalid_request", "invalid_request_error", "response_format could not be satisfied");
        const {usage} = reply.json;
        assert.ok(usage.prompt_tokens > 0);
        assert.equal(usage.completion_tokens, after.output - before.output, "every regeneration is reported");
        assert.ok(usage.completion_tokens > 3 * 5, "three attempts each wrote at least a few tokens");
        assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
    });
});

describe("json_object", () => {
    test("a reply that stops is one JSON object with no prose and no code fence (2.7.1, 2.7.7)", async () => {
        const finishes: string[] = [];
        for (const seed of [1, 2, 3, 4, 5, 6]) {
            const completion = await chat({response_format: {type: "json_object"}, seed, temperature: 1, max_tokens: 64});
            const [choice] = completion.choices;
            finishes.push(choice.finish_reason);
            assert.ok(choice.message.content.trimStart().startsWith("{"), choice.message.content);
            if (choice.finish_reason !== "stop") continue;
            const value = JSON.parse(choice.message.content);
            assert.ok(value !== null && typeof value === "object" && !Array.isArray(value));
        }
        assert.ok(finishes.includes("stop"), `finish reasons: ${finishes.join(", ")}`);
    });

    test("a pattern the linear-time engine cannot run (backreference, lookaround) is a 400 that says so", async () => {
        for (const pattern of ["^(a)\\1$", "^(?=a)"]) {
            const reply = await post({response_format: jsonSchema({type: "object", properties: {s: {type: "string", pattern}}}, "pattern")});
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", "no backreferences and no lookahead or lookbehind");
        }
    });

    test("a response_format on a stream is a 400 about constrained decoding (2.7.8)", async () => {
        for (const response_format of [{type: "json_object"}, jsonSchema(report)]) {
            const reply = await post({response_format, stream: true});
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", "does not support constrained decoding");
        }
    });

    test("response_format text is plain generation", async () => {
        const completion = await chat({response_format: {type: "text"}, max_tokens: 4, temperature: 0});
        assert.equal(completion.choices[0].finish_reason, "length");
    });
});

describe("with tools (2.7.9)", () => {
    const tools = [{type: "function", function: {name: "lookup", parameters: {type: "object", properties: {q: {enum: ["sun", "rain"]}}, required: ["q"]}}}];

    test("a tool call takes precedence over the JSON contract", async () => {
        const completion = await chat({response_format: jsonSchema(report), tools, tool_choice: "required", seed: 2});
        const [choice] = completion.choices;
        assert.equal(choice.finish_reason, "tool_calls");
        assert.equal(choice.message.content, null);
        assert.equal(choice.message.tool_calls[0].function.name, "lookup");
    });

    test("with auto, the reply is a tool call or JSON that keeps the contract", async () => {
        const validate = ajv.compile(report);
        const completion = await chat({response_format: jsonSchema(report), tools, tool_choice: "auto", seed: 3});
        const [choice] = completion.choices;
        if (choice.finish_reason === "tool_calls") assert.equal(choice.message.content, null);
        else {
            assert.equal(choice.finish_reason, "stop");
            assert.ok(validate(JSON.parse(choice.message.content)), choice.message.content);
        }
    });
});
