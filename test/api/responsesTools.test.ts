// Function tools on the Responses API (spec 2.4, 2.5, 6.2) on the real local server, through the official openai
// client, the Vercel AI SDK and LangChain. Forced calls are generated under the call grammar, so even the
// random-weight fixture makes valid calls; under `auto` it practically never writes the wrapper's `||call:`
// prefix, and forcing is refused on streams, so the streamed call events are checked in ResponseEventWriter.test.ts
// and here a stream must be well formed and equal to the non-streaming answer (greedy decoding).
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {BadRequestError} from "openai";
import {generateText, tool as aiTool} from "ai";
import {createOpenAI} from "@ai-sdk/openai";
import {ChatOpenAI} from "@langchain/openai";
import {AIMessage} from "@langchain/core/messages";
import {tool as langChainTool} from "@langchain/core/tools";
import {z} from "zod";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {argumentsProblem, chatTools, responsesTools} from "./utils/toolFixtures.ts";

let server: TestServer;
before(async () => {
    server = await startTestServer();
});
after(async () => {
    await server?.close();
});

const ask = "What is the weather in Oslo?";
const names = responsesTools.map((tool) => tool.name);
const create = (body: Record<string, unknown>) =>
    server.client.responses.create({model: "svc-1", input: ask, tools: responsesTools, max_output_tokens: 96, ...body} as any) as Promise<any>;
const post = (body: Record<string, unknown>) => callApi(server, {path: "/responses", body: {model: "svc-1", input: ask, ...body}});

/** A `function_call` output item of the Responses format whose arguments parse and validate against the tool's schema. */
function assertValidCallItem(item: any, allowed = names) {
    assert.equal(item.type, "function_call");
    assert.match(item.id, /^fc-[0-9a-f]{24}$/);
    assert.match(item.call_id, /^call-[0-9a-f]{24}$/);
    assert.ok(allowed.includes(item.name), item.name);
    assert.equal(item.status, "completed");
    assert.equal(typeof item.arguments, "string");
    assert.equal(argumentsProblem(item.name, item.arguments), undefined);
}

/** A forced turn's output: calls only, each valid, with distinct ids. */
function assertForcedCalls(response: any, allowed = names) {
    assert.equal(response.status, "completed");
    assert.ok(response.output.length >= 1);
    response.output.forEach((item: any) => assertValidCallItem(item, allowed));
    assert.equal(response.output_text, "", "no message item: the turn is its calls");
    const ids = response.output.flatMap((item: any) => [item.id, item.call_id]);
    assert.equal(new Set(ids).size, ids.length);
}

/**
 * Checks a Responses event sequence the way spec 6.2 and OpenAI define it: consecutive `sequence_number`s from 0,
 * `response.created` and `in_progress` first and `response.completed` last, every item added once at the next
 * `output_index` and done once, every event in between routed to an open item by `output_index` and `item_id`,
 * a call's arguments deltas adding up to its `arguments`, and the completed output made of the done items.
 */
function assertWellFormed(events: any[]) {
    assert.deepEqual(events.map((event) => event.sequence_number), events.map((_, index) => index));
    assert.deepEqual(events.slice(0, 2).map((event) => event.type), ["response.created", "response.in_progress"]);
    assert.equal(events.at(-1).type, "response.completed");
    const open = new Map<number, {id: string, type: string, arguments: string}>();
    const done: any[] = [];
    for (const event of events.slice(2, -1)) {
        if (event.type === "response.output_item.added") {
            assert.equal(event.output_index, done.length + open.size, "items are added in output order");
            open.set(event.output_index, {id: event.item.id, type: event.item.type, arguments: ""});
            continue;
        }
        const item = open.get(event.output_index);
        assert.ok(item != null, `${event.type} at output_index ${event.output_index} routes to an open item`);
        if (event.type === "response.output_item.done") {
            assert.equal(event.item.id, item.id);
            if (item.type === "function_call") assert.equal(event.item.arguments, item.arguments);
            open.delete(event.output_index);
            done.push(event.item);
            continue;
        }
        assert.equal(event.item_id, item.id);
        if (event.type === "response.function_call_arguments.delta") item.arguments += event.delta;
        if (event.type === "response.function_call_arguments.done") assert.equal(event.arguments, item.arguments);
    }
    assert.equal(open.size, 0, "every item is done before response.completed");
    assert.deepEqual(events.at(-1).response.output, done);
}

/** The items of a response as their types and contents, ids left out (each response has its own). */
const contents = (output: any[]) => output.map((item) => item.type === "function_call" ? [item.type, item.name, item.arguments] : [item.type, item.content[0].text]);

describe("forced calls with the openai client", () => {
    test("required: the output is function_call items whose arguments parse and validate", async () => {
        for (const seed of [1, 2, 3]) assertForcedCalls(await create({tool_choice: "required", seed}));
    });

    test("a named function: the output calls exactly that function", async () => {
        for (const seed of [4, 5]) {
            const response = await create({tool_choice: {type: "function", name: "get_weather"}, seed});
            assertForcedCalls(response, ["get_weather"]);
            const args = JSON.parse(response.output[0].arguments);
            assert.ok(args.days >= 1 && args.days <= 7 && [...args.note].length <= 6);
        }
        assertForcedCalls(await create({tool_choice: {type: "function", name: "get_time"}, seed: 6}), ["get_time"]);
    });

    test("flat tools reach the model as chat completions' tools do: same prompt, same forced call", async () => {
        const response = await create({tool_choice: {type: "function", name: "get_time"}, temperature: 0});
        const completion: any = await server.client.chat.completions.create({
            model: "svc-1", messages: [{role: "user", content: ask}], tools: chatTools, max_tokens: 96, temperature: 0,
            tool_choice: {type: "function", function: {name: "get_time"}}
        });
        assert.equal(response.usage.input_tokens, completion.usage.prompt_tokens);
        assert.deepEqual(response.output.map((item: any) => [item.name, item.arguments]),
            completion.choices[0].message.tool_calls.map((call: any) => [call.function.name, call.function.arguments]));
        const none = await create({tool_choice: "none", max_output_tokens: 4, temperature: 0});
        assert.deepEqual(none.output.map((item: any) => item.type), ["message"]);
        assert.ok(none.usage.input_tokens < response.usage.input_tokens, "none offers the model no tools");
    });
});

describe("the round trip: function_call and function_call_output input items", () => {
    test("the call sent back with its output continues the turn, exactly as the chat history of spec 2.5.4", async () => {
        const first = await create({tool_choice: "required", seed: 7});
        assertForcedCalls(first);
        const outputs = first.output.map((call: any) => ({type: "function_call_output", call_id: call.call_id, output: "{\"sky\":\"clear\"}"}));
        const input = [{role: "user", content: ask}, ...first.output, ...outputs];
        const second = await create({input, max_output_tokens: 8, temperature: 0});
        assert.equal(second.status, "completed");
        assert.ok(second.output.length >= 1);

        const messages = [
            {role: "user", content: ask},
            {role: "assistant", content: null, tool_calls: first.output.map((call: any) => ({id: call.call_id, type: "function", function: {name: call.name, arguments: call.arguments}}))},
            ...first.output.map((call: any) => ({role: "tool", tool_call_id: call.call_id, content: "{\"sky\":\"clear\"}"}))
        ];
        const completion: any = await server.client.chat.completions.create({model: "svc-1", messages, tools: chatTools, max_tokens: 8, temperature: 0} as any);
        assert.equal(second.usage.input_tokens, completion.usage.prompt_tokens, "the same prompt as the chat conversation");
        const message = completion.choices[0].message;
        assert.deepEqual(contents(second.output), message.tool_calls != null
            ? message.tool_calls.map((call: any) => ["function_call", call.function.name, call.function.arguments])
            : [["message", message.content]]);

        const withoutOutputs = await create({input: [{role: "user", content: ask}, ...first.output], max_output_tokens: 8, temperature: 0});
        assert.ok(second.usage.input_tokens > withoutOutputs.usage.input_tokens, "the outputs are part of the prompt");
    });

    test("an output answering no call before it is a 400 naming its call_id", async () => {
        const reply = await post({input: [{role: "user", content: ask}, {type: "function_call_output", call_id: "call-x", output: "1"}], tools: responsesTools});
        assertApiError(reply, 400, "invalid_request", "invalid_request_error", "input[1].call_id");
    });
});

describe("streaming", () => {
    test("responses.stream with auto tools: well-formed events, the same answer as without stream", async () => {
        for (const body of [{input: ask}, {input: [{role: "user", content: "Hi"}, {type: "function_call", call_id: "call-1", name: "get_time", arguments: "{\"utc\":true}"}, {type: "function_call_output", call_id: "call-1", output: "12:00"}]}]) {
            const request = {model: "svc-1", tools: responsesTools, tool_choice: "auto", max_output_tokens: 12, temperature: 0, ...body};
            const stream = server.client.responses.stream(request as any);
            const events: any[] = [];
            stream.on("event", (event) => events.push(event));
            const final: any = await stream.finalResponse();
            assertWellFormed(events);
            assert.equal(final.status, "completed");
            for (const item of final.output) if (item.type === "function_call") assertValidCallItem(item);
            const nonStreaming = await create(request);
            assert.deepEqual(contents(final.output), contents(nonStreaming.output), "greedy decoding streams the same answer");
            assert.equal(final.usage.input_tokens, nonStreaming.usage.input_tokens, "the tools are in the streamed prompt too");
        }
    });

    test("forcing a call on a stream is a 400 (spec 2.5.2, 6.2), from the client and on the wire", async () => {
        for (const tool_choice of ["required", {type: "function", name: "get_time"}]) {
            const reply = await post({tools: responsesTools, tool_choice, stream: true});
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", "tool_choice");
            assert.match(reply.headers.get("content-type") ?? "", /application\/json/, "no event stream was started");
        }
        const stream = server.client.responses.stream({model: "svc-1", input: ask, tools: responsesTools, tool_choice: "required"} as any);
        await assert.rejects(stream.finalResponse(), BadRequestError);
    });
});

describe("400s for tool definitions and choices", () => {
    test("bad tools are refused with the spec's envelope, naming the flat field", async () => {
        const cases: Array<[Record<string, unknown>, string]> = [
            [{tools: chatTools}, "tools[0].name: is required"],
            [{tools: [{type: "web_search"}]}, "tools[0].type"],
            [{tools: [{type: "function", name: "f", parameters: {type: "object", properties: {a: {type: "strin"}}}}]}, "tools[0].parameters: is not a valid JSON Schema"],
            [{tools: [responsesTools[0], responsesTools[0]]}, "duplicates the function name"],
            [{tools: responsesTools, tool_choice: {type: "function", name: "nope"}}, "tool_choice.name: names no function in tools"],
            [{tools: responsesTools, tool_choice: {type: "function", function: {name: "get_time"}}}, "tool_choice.name: is required"],
            [{tool_choice: "required"}, "tool_choice"],
            [{tools: responsesTools, text: {format: {type: "json_schema", name: "x", schema: {type: "object"}}}}, "no JSON mode"]
        ];
        for (const [body, message] of cases) assertApiError(await post(body), 400, "invalid_request", "invalid_request_error", message);
    });
});

describe("client libraries", () => {
    type Sent = {path: string, body: any};

    /** A fetch that records what a library sent where: which API it used, and the `tool_choice` it forced with. */
    function recordingFetch(sent: Sent[]): typeof fetch {
        return (input, init) => {
            sent.push({path: new URL(input instanceof Request ? input.url : String(input)).pathname, body: JSON.parse(String(init?.body))});
            return fetch(input, init);
        };
    }

    const weatherSchema = z.object({
        city: z.enum(["Oslo", "Paris", "Lima"]),
        days: z.number().int().min(1).max(7),
        unit: z.object({metric: z.boolean()}),
        note: z.string().max(6)
    });

    // Neither library sends `seed` on the Responses API, so greedy decoding keeps their calls reproducible.
    test("Vercel AI SDK: generateText with toolChoice required calls a tool through /responses", async () => {
        const sent: Sent[] = [];
        const openai = createOpenAI({baseURL: server.baseUrl, apiKey: server.apiKey, fetch: recordingFetch(sent)});
        const result = await generateText({
            model: openai("svc-1"),
            prompt: ask,
            tools: {
                get_weather: aiTool({description: "Weather forecast for a city", inputSchema: weatherSchema}),
                get_time: aiTool({description: "Current time", inputSchema: z.object({utc: z.boolean()})})
            },
            toolChoice: "required",
            maxOutputTokens: 96,
            temperature: 0,
            maxRetries: 0
        });
        assert.deepEqual(sent.map(({path, body}) => [path, body.tool_choice, body.temperature]), [["/svc-1/v1/responses", "required", 0]]);
        assert.equal(result.finishReason, "tool-calls");
        assert.ok(result.toolCalls.length >= 1);
        for (const call of result.toolCalls) {
            assert.equal(call.invalid, undefined, "the SDK parsed the input with the tool's zod schema");
            assert.equal(argumentsProblem(call.toolName, JSON.stringify(call.input)), undefined);
            assert.match(call.toolCallId, /^call-/);
        }

        const named = await generateText({
            model: openai("svc-1"),
            prompt: ask,
            tools: {get_weather: aiTool({description: "Weather forecast for a city", inputSchema: weatherSchema})},
            toolChoice: {type: "tool", toolName: "get_weather"},
            maxOutputTokens: 96,
            temperature: 0,
            maxRetries: 0
        });
        assert.deepEqual(sent[1].body.tool_choice, {type: "function", name: "get_weather"});
        assert.deepEqual(named.toolCalls.map((call) => call.toolName), ["get_weather"]);
        assert.ok(weatherSchema.safeParse(named.toolCalls[0].input).success);
    });

    // LangChain 1.5 drops the string tool_choice values ("required", "auto", "none") on its Responses path
    // (langchain-ai/langchainjs#11332): a tool's name, sent as {type: "function", name}, is how it forces a call.
    test("LangChain: ChatOpenAI with useResponsesApi and bindTools, forced by naming the tool in tool_choice", async () => {
        const sent: Sent[] = [];
        const model = new ChatOpenAI({
            model: "svc-1",
            apiKey: server.apiKey,
            configuration: {baseURL: server.baseUrl, fetch: recordingFetch(sent)},
            useResponsesApi: true,
            maxRetries: 0,
            maxTokens: 96,
            temperature: 0
        });
        const getWeather = langChainTool(async () => "sunny", {name: "get_weather", description: "Weather forecast for a city", schema: weatherSchema});
        const getTime = langChainTool(async () => "12:00", {name: "get_time", description: "Current time", schema: z.object({utc: z.boolean()})});
        for (const name of ["get_weather", "get_time"]) {
            const message = await model.bindTools([getWeather, getTime], {tool_choice: name}).invoke(ask);
            assert.deepEqual(sent.map(({path, body}) => [path, body.tool_choice, body.temperature]).at(-1), ["/svc-1/v1/responses", {type: "function", name}, 0]);
            assert.ok(message instanceof AIMessage);
            assert.deepEqual(message.invalid_tool_calls ?? [], []);
            assert.ok((message.tool_calls ?? []).length >= 1, JSON.stringify(message.content));
            for (const call of message.tool_calls ?? []) {
                assert.equal(call.name, name);
                assert.equal(argumentsProblem(call.name, JSON.stringify(call.args)), undefined);
                assert.match(call.id ?? "", /^call-/);
            }
        }
    });
});
