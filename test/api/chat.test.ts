// Chat completions (spec 2.1-2.3) on the real local server, driven by the official openai client;
// every 2.1 field's validation through raw fetch.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {NotFoundError} from "openai";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {sequenceMeters} from "./utils/sequenceMeters.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

let server: TestServer;
const hello = [{role: "user" as const, content: "Hello"}];

before(async () => {
    server = await startTestServer();
});
after(async () => {
    await server?.close();
});

const chat = (body: Record<string, unknown>) =>
    server.client.chat.completions.create({model: "svc-1", messages: hello, ...body} as any) as Promise<any>;

describe("chat completion object", () => {
    test("has the fields of spec 2.2 and usage of 2.3", async () => {
        const startedAt = Math.floor(Date.now() / 1000);
        const completion = await chat({max_tokens: 8, temperature: 0});
        assert.match(completion.id, /^chatcmpl-/);
        assert.equal(completion.object, "chat.completion");
        assert.equal(completion.model, "svc-1");
        assert.ok(Number.isInteger(completion.created) && completion.created >= startedAt - 1 && completion.created <= startedAt + 60);
        assert.equal(completion.choices.length, 1);
        const [choice] = completion.choices;
        assert.equal(choice.index, 0);
        assert.equal(choice.message.role, "assistant");
        assert.equal(typeof choice.message.content, "string");
        assert.ok(choice.message.content.length > 0);
        assert.equal(choice.finish_reason, "length");
        const {usage} = completion;
        assert.ok(usage.prompt_tokens > 0);
        assert.equal(usage.completion_tokens, 8);
        assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
        assert.ok(Number.isInteger(usage.prompt_tokens_details.cached_tokens));
        assert.ok(usage.prompt_tokens_details.cached_tokens >= 0 && usage.prompt_tokens_details.cached_tokens <= usage.prompt_tokens);
    });

    test("accepts every role, with string or parts content, and renders parts like the same string", async () => {
        const conversation = await chat({
            max_tokens: 2,
            messages: [
                {role: "system", content: "You are terse."},
                {role: "user", content: [{type: "text", text: "What is the "}, {type: "text", text: "weather?"}]},
                {role: "assistant", content: null, tool_calls: [{id: "call_1", type: "function", function: {name: "get_weather", arguments: "{\"city\":\"Oslo\"}"}}]},
                {role: "tool", tool_call_id: "call_1", content: "{\"sky\":\"clear\"}"},
                {role: "assistant", content: [{type: "text", text: "It is clear."}]},
                {role: "user", content: "Thanks"}
            ]
        });
        assert.equal(conversation.choices.length, 1);
        assert.equal(typeof conversation.choices[0].message.content, "string");

        const asString = await chat({max_tokens: 1, messages: [{role: "system", content: "Be kind."}, {role: "user", content: "Hello there"}]});
        const asParts = await chat({max_tokens: 1, messages: [
            {role: "system", content: [{type: "text", text: "Be kind."}]},
            {role: "user", content: [{type: "text", text: "Hello "}, {type: "text", text: "there"}]}
        ]});
        const asDeveloper = await chat({max_tokens: 1, messages: [{role: "developer", content: "Be kind."}, {role: "user", content: "Hello there"}]});
        const withoutSystem = await chat({max_tokens: 1, messages: [{role: "user", content: "Hello there"}]});
        assert.equal(asParts.usage.prompt_tokens, asString.usage.prompt_tokens);
        assert.equal(asDeveloper.usage.prompt_tokens, asString.usage.prompt_tokens);
        assert.ok(withoutSystem.usage.prompt_tokens < asString.usage.prompt_tokens, "the system message reaches the prompt");
        assert.ok(conversation.usage.prompt_tokens > asString.usage.prompt_tokens, "every turn reaches the prompt");
    });
});

describe("output budget", () => {
    test("max_tokens caps the output with finish_reason length", async () => {
        for (const budget of [1, 5]) {
            const completion = await chat({max_tokens: budget, temperature: 0});
            assert.equal(completion.usage.completion_tokens, budget);
            assert.equal(completion.choices[0].finish_reason, "length");
        }
    });

    test("max_completion_tokens sets the budget when both are sent", async () => {
        const larger = await chat({max_tokens: 2, max_completion_tokens: 6, temperature: 0});
        assert.equal(larger.usage.completion_tokens, 6);
        const smaller = await chat({max_tokens: 6, max_completion_tokens: 2, temperature: 0});
        assert.equal(smaller.usage.completion_tokens, 2);
        const alone = await chat({max_completion_tokens: 3, temperature: 0});
        assert.equal(alone.usage.completion_tokens, 3);
    });

    test("the default budget is 2048 tokens when the window has room for it", async () => {
        assert.ok(server.engine.context.contextSize >= 2048 + 64, "this test needs a context larger than the default budget");
        const completion = await chat({temperature: 0});
        assert.equal(completion.choices[0].finish_reason, "length");
        assert.equal(completion.usage.completion_tokens, 2048);
    });
});

describe("sampling", () => {
    test("temperature 0 is reproducible, with or without a seed", async () => {
        const first = await chat({max_tokens: 12, temperature: 0, seed: 7});
        const second = await chat({max_tokens: 12, temperature: 0, seed: 7});
        const unseeded = await chat({max_tokens: 12, temperature: 0});
        assert.equal(second.choices[0].message.content, first.choices[0].message.content);
        assert.equal(unseeded.choices[0].message.content, first.choices[0].message.content);
    });

    test("a seed makes temperature 1 reproducible; another seed samples other text", async () => {
        const first = await chat({max_tokens: 12, temperature: 1, seed: 1234});
        const second = await chat({max_tokens: 12, temperature: 1, seed: 1234});
        const other = await chat({max_tokens: 12, temperature: 1, seed: 4321});
        const greedy = await chat({max_tokens: 12, temperature: 0});
        assert.equal(second.choices[0].message.content, first.choices[0].message.content);
        assert.notEqual(other.choices[0].message.content, first.choices[0].message.content);
        assert.notEqual(first.choices[0].message.content, greedy.choices[0].message.content, "temperature 1 samples");
    });

    test("unseeded requests at temperature 1 differ from each other", async () => {
        const texts = new Set<string>();
        for (let index = 0; index < 3; index++)
            texts.add((await chat({max_tokens: 12, temperature: 1})).choices[0].message.content);
        assert.equal(texts.size, 3, [...texts].join(" | "));
    });

    test("top_p is accepted and a tiny top_p keeps only the most likely token", async () => {
        const nucleus = await chat({max_tokens: 10, temperature: 1, top_p: 0.000001, seed: 3});
        const greedy = await chat({max_tokens: 10, temperature: 0});
        assert.equal(nucleus.choices[0].message.content, greedy.choices[0].message.content);
    });

    test("presence and frequency penalties are accepted and steer sampling away from repeats", async () => {
        const plain = await chat({max_tokens: 200, temperature: 0});
        const frequency = await chat({max_tokens: 200, temperature: 0, frequency_penalty: 2});
        const presence = await chat({max_tokens: 200, temperature: 0, presence_penalty: 1.5});
        const negative = await chat({max_tokens: 20, temperature: 0, presence_penalty: -1, frequency_penalty: -1});
        for (const completion of [frequency, presence, negative]) {
            assert.equal(typeof completion.choices[0].message.content, "string");
            assert.equal(completion.choices[0].finish_reason, "length");
        }
        // At temperature 0 this fixture falls into a loop ("downif time downif time ..."); a penalty breaks it.
        assert.notEqual(frequency.choices[0].message.content, plain.choices[0].message.content);
        assert.notEqual(presence.choices[0].message.content, plain.choices[0].message.content);
    });
});

describe("stop sequences", () => {
    /** A run of letters from the middle of a greedy answer: a stop string the model will certainly emit. */
    async function stopFromGreedyOutput() {
        const text: string = (await chat({max_tokens: 60, temperature: 0})).choices[0].message.content;
        const match = /[a-z]{3,}/g;
        let found: RegExpExecArray | null;
        while ((found = match.exec(text)) != null)
            if (found.index >= 8) return {text, stop: found[0], before: text.slice(0, text.indexOf(found[0]))};
        throw new Error(`no usable stop string in ${JSON.stringify(text)}`);
    }

    test("a stop string ends the answer exactly before it and is never emitted", async () => {
        const {stop, before} = await stopFromGreedyOutput();
        const stopped = await chat({max_tokens: 60, temperature: 0, stop});
        assert.equal(stopped.choices[0].message.content, before);
        assert.equal(stopped.choices[0].finish_reason, "stop");
        assert.ok(!stopped.choices[0].message.content.includes(stop));
    });

    test("a stop array is honored by whichever sequence comes first", async () => {
        const {stop, before} = await stopFromGreedyOutput();
        const stopped = await chat({max_tokens: 60, temperature: 0, stop: ["#never-emitted#", stop]});
        assert.equal(stopped.choices[0].message.content, before);
        assert.equal(stopped.choices[0].finish_reason, "stop");
    });

    test("a stop string is not emitted in a stream either", async () => {
        const {stop, before} = await stopFromGreedyOutput();
        const stream = await chat({max_tokens: 60, temperature: 0, stop: [stop], stream: true});
        let content = "";
        let finishReason: string | null = null;
        for await (const chunk of stream) {
            content += chunk.choices[0]?.delta?.content ?? "";
            finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
        }
        assert.equal(content, before);
        assert.equal(finishReason, "stop");
    });
});

describe("n choices", () => {
    test("n returns that many indexed choices and usage counts all their tokens", async () => {
        const completion = await chat({max_tokens: 4, temperature: 0, n: 3});
        assert.deepEqual(completion.choices.map((choice: any) => choice.index), [0, 1, 2]);
        const single = await chat({max_tokens: 4, temperature: 0});
        for (const choice of completion.choices) {
            assert.equal(choice.message.content, single.choices[0].message.content, "greedy choices agree");
            assert.equal(choice.finish_reason, "length");
        }
        assert.equal(completion.usage.completion_tokens, 3 * 4);
    });

    test("sampled choices are independent, and reproducible with a seed", async () => {
        const unseeded = await chat({max_tokens: 12, temperature: 1, n: 3});
        assert.equal(new Set(unseeded.choices.map((choice: any) => choice.message.content)).size, 3);
        const seeded = await chat({max_tokens: 12, temperature: 1, n: 2, seed: 99});
        const again = await chat({max_tokens: 12, temperature: 1, n: 2, seed: 99});
        assert.deepEqual(again.choices.map((choice: any) => choice.message.content), seeded.choices.map((choice: any) => choice.message.content));
        assert.notEqual(seeded.choices[0].message.content, seeded.choices[1].message.content);
    });
});

describe("prompt cache", () => {
    test("a repeated request reports cached_tokens and really evaluates fewer input tokens", async () => {
        const messages = [{role: "system", content: "You answer questions about the weather."}, {role: "user", content: "Will it rain in Bergen tomorrow?"}];
        const before = await sequenceMeters(server.engine);
        const first = await chat({messages, max_tokens: 3, temperature: 0});
        const middle = await sequenceMeters(server.engine);
        const second = await chat({messages, max_tokens: 3, temperature: 0});
        const last = await sequenceMeters(server.engine);

        const evaluatedFirst = middle.input - before.input;
        const evaluatedSecond = last.input - middle.input;
        assert.equal(second.usage.prompt_tokens, first.usage.prompt_tokens);
        assert.ok(first.usage.prompt_tokens_details.cached_tokens < first.usage.prompt_tokens / 2, "the first request is mostly new");
        assert.ok(second.usage.prompt_tokens_details.cached_tokens > 0);
        assert.ok(second.usage.prompt_tokens_details.cached_tokens >= second.usage.prompt_tokens - 1, "the whole prompt but its last token is cached");
        assert.ok(evaluatedFirst >= first.usage.prompt_tokens - first.usage.prompt_tokens_details.cached_tokens - 1, `first evaluated ${evaluatedFirst}`);
        assert.ok(evaluatedSecond <= second.usage.prompt_tokens - second.usage.prompt_tokens_details.cached_tokens,
            `second evaluated ${evaluatedSecond} input tokens though ${second.usage.prompt_tokens_details.cached_tokens} were reported cached`);
        assert.ok(evaluatedSecond < evaluatedFirst);
        assert.equal(last.output - middle.output, second.usage.completion_tokens);
    });
});

describe("models", () => {
    test("lists and retrieves svc-1 through the openai client", async () => {
        const list = await server.client.models.list();
        assert.deepEqual(list.data.map((model) => model.id), ["svc-1"]);
        const model = await server.client.models.retrieve("svc-1");
        assert.equal(model.id, "svc-1");
        assert.equal(model.object, "model");
        assert.equal(typeof model.created, "number");
        assert.equal(typeof model.owned_by, "string");
        await assert.rejects(server.client.models.retrieve("gpt-4o"), NotFoundError);
    });
});

describe("request validation (spec 2.1): each bad field is a 400 naming it", () => {
    const base = {model: "svc-1", messages: hello, max_tokens: 2};
    const image = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";
    const withCall = {role: "assistant", content: null, tool_calls: [{id: "call_1", type: "function", function: {name: "f", arguments: "{}"}}]};
    const rows: Array<[string, Record<string, unknown>, string]> = [
        ["model missing", {model: undefined}, "model"],
        ["model not a string", {model: 1}, "model"],
        ["model not the path segment", {model: "svc-1-decision"}, "model"],
        ["messages missing", {messages: undefined}, "messages"],
        ["messages not an array", {messages: "Hello"}, "messages"],
        ["messages empty", {messages: []}, "messages"],
        ["message not an object", {messages: ["Hello"]}, "messages[0]"],
        ["unknown role", {messages: [{role: "robot", content: "Hi"}]}, "messages[0].role"],
        ["content missing", {messages: [{role: "user"}]}, "messages[0].content"],
        ["content a number", {messages: [{role: "user", content: 5}]}, "messages[0].content"],
        ["unknown part type", {messages: [{role: "user", content: [{type: "audio", text: "Hi"}]}]}, "messages[0].content[0].type"],
        ["text part without text", {messages: [{role: "user", content: [{type: "text"}]}]}, "messages[0].content[0].text"],
        ["image part with a web URL", {messages: [{role: "user", content: [{type: "image_url", image_url: {url: "https://example.com/a.png"}}]}]}, "messages[0].content[0].image_url.url"],
        ["image the loaded model cannot read", {messages: [{role: "user", content: [{type: "image_url", image_url: {url: image}}]}]}, "image"],
        ["tool result without tool_call_id", {messages: [hello[0], withCall, {role: "tool", content: "1"}]}, "messages[2].tool_call_id"],
        ["tool result answering no call", {messages: [hello[0], {role: "tool", tool_call_id: "call_9", content: "1"}]}, "messages[1].tool_call_id"],
        ["tool result content a number", {messages: [hello[0], withCall, {role: "tool", tool_call_id: "call_1", content: 1}]}, "messages[2].content"],
        ["tool_calls not an array", {messages: [hello[0], {role: "assistant", content: "x", tool_calls: "f"}]}, "messages[1].tool_calls"],
        ["max_tokens zero", {max_tokens: 0}, "max_tokens"],
        ["max_tokens negative", {max_tokens: -5}, "max_tokens"],
        ["max_tokens fractional", {max_tokens: 2.5}, "max_tokens"],
        ["max_tokens a string", {max_tokens: "10"}, "max_tokens"],
        ["max_completion_tokens zero", {max_completion_tokens: 0}, "max_completion_tokens"],
        ["max_completion_tokens negative", {max_completion_tokens: -1}, "max_completion_tokens"],
        ["max_completion_tokens fractional", {max_completion_tokens: 1.5}, "max_completion_tokens"],
        ["temperature a string", {temperature: "hot"}, "temperature"],
        ["temperature negative", {temperature: -0.5}, "temperature"],
        ["temperature too high", {temperature: 2.5}, "temperature"],
        ["top_p above 1", {top_p: 1.5}, "top_p"],
        ["top_p a string", {top_p: "all"}, "top_p"],
        ["seed fractional", {seed: 1.5}, "seed"],
        ["seed a string", {seed: "42"}, "seed"],
        ["stop a number", {stop: 5}, "stop"],
        ["stop array with a number", {stop: ["a", 5]}, "stop[1]"],
        ["stop empty string", {stop: ""}, "stop"],
        ["stop with too many sequences", {stop: ["a", "b", "c", "d", "e"]}, "stop"],
        ["n zero", {n: 0}, "n"],
        ["n fractional", {n: 1.5}, "n"],
        ["n a string", {n: "2"}, "n"],
        ["presence_penalty a string", {presence_penalty: "x"}, "presence_penalty"],
        ["presence_penalty too high", {presence_penalty: 2.5}, "presence_penalty"],
        ["frequency_penalty too low", {frequency_penalty: -3}, "frequency_penalty"],
        ["stream a string", {stream: "yes"}, "stream"],
        ["stream_options without stream", {stream_options: {include_usage: true}}, "stream_options"],
        ["stream_options not an object", {stream: true, stream_options: "usage"}, "stream_options"],
        ["stream_options.include_usage a string", {stream: true, stream_options: {include_usage: "yes"}}, "stream_options.include_usage"],
        ["tools not an array", {tools: "f"}, "tools"],
        ["tool of another type", {tools: [{type: "retrieval"}]}, "tools[0].type"],
        ["tool_choice unknown", {tool_choice: "sometimes"}, "tool_choice"],
        ["tool_choice a number", {tool_choice: 1}, "tool_choice"],
        ["response_format a string", {response_format: "json"}, "response_format"],
        ["response_format of an unknown type", {response_format: {type: "xml"}}, "response_format.type"],
        ["response_format while streaming", {stream: true, response_format: {type: "json_object"}}, "response_format"],
        ["chat_template_kwargs not an object", {chat_template_kwargs: "think"}, "chat_template_kwargs"],
        ["enable_thinking a string", {chat_template_kwargs: {enable_thinking: "yes"}}, "chat_template_kwargs.enable_thinking"],
        ["reasoning_effort a number", {reasoning_effort: 5}, "reasoning_effort"],
        ["include_reasoning a string", {include_reasoning: "no"}, "include_reasoning"],
        ["thinking_token_budget negative", {thinking_token_budget: -1}, "thinking_token_budget"],
        ["thinking_token_budget fractional", {thinking_token_budget: 1.5}, "thinking_token_budget"]
    ];
    for (const [name, change, field] of rows) {
        test(name, async () => {
            const reply = await callApi(server, {path: "/chat/completions", body: {...base, ...change}});
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", field);
        });
    }
});
