// Legacy text completions (`POST /completions`): prompt string or array, n, echo, stream, text_completion objects.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {tokenizePrompt} from "../../native/completions/routes.ts";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {readSse} from "./utils/readSse.ts";
import {sequenceMeters} from "./utils/sequenceMeters.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

let server: TestServer;

before(async () => {
    server = await startTestServer();
});
after(async () => {
    await server?.close();
});

const complete = (body: Record<string, unknown>) =>
    server.client.completions.create({model: "svc-1", prompt: "Once upon a time", ...body} as any) as Promise<any>;

describe("text_completion objects", () => {
    test("a string prompt gives one text_completion choice with usage", async () => {
        const completion = await complete({max_tokens: 8, temperature: 0});
        assert.match(completion.id, /^cmpl-/);
        assert.equal(completion.object, "text_completion");
        assert.equal(completion.model, "svc-1");
        assert.ok(Number.isInteger(completion.created));
        assert.equal(completion.choices.length, 1);
        const [choice] = completion.choices;
        assert.equal(choice.index, 0);
        assert.equal(typeof choice.text, "string");
        assert.ok(choice.text.length > 0);
        assert.equal(choice.finish_reason, "length");
        assert.equal(completion.usage.prompt_tokens, (await tokenizePrompt(server.engine.model, "Once upon a time")).length);
        assert.equal(completion.usage.completion_tokens, 8);
        assert.equal(completion.usage.total_tokens, completion.usage.prompt_tokens + 8);
    });

    test("an array of prompts gives choices in prompt order, each the answer to its own prompt", async () => {
        const prompts = ["Once upon a time", "The sky is", "Yes or no"];
        const singles: any[] = [];
        for (const prompt of prompts) singles.push(await complete({prompt, max_tokens: 5, temperature: 0}));
        const batch = await complete({prompt: prompts, max_tokens: 5, temperature: 0});
        assert.deepEqual(batch.choices.map((choice: any) => choice.index), [0, 1, 2]);
        batch.choices.forEach((choice: any, index: number) => assert.equal(choice.text, singles[index].choices[0].text, `prompt ${index}`));
        const sum = (key: "prompt_tokens" | "completion_tokens") => singles.reduce((total, single) => total + single.usage[key], 0);
        assert.equal(batch.usage.prompt_tokens, sum("prompt_tokens"));
        assert.equal(batch.usage.completion_tokens, sum("completion_tokens"));
    });

    test("n choices per prompt: index = prompt * n + choice", async () => {
        const batch = await complete({prompt: ["Once upon a time", "The sky is"], n: 2, max_tokens: 4, temperature: 0});
        assert.deepEqual(batch.choices.map((choice: any) => choice.index), [0, 1, 2, 3]);
        assert.equal(batch.choices[0].text, batch.choices[1].text, "greedy choices of one prompt agree");
        assert.equal(batch.choices[2].text, batch.choices[3].text);
        assert.notEqual(batch.choices[0].text, batch.choices[2].text);
        assert.equal(batch.usage.completion_tokens, 4 * 4);

        const sampled = await complete({n: 3, max_tokens: 10, temperature: 1});
        assert.equal(new Set(sampled.choices.map((choice: any) => choice.text)).size, 3, "sampled choices are independent");
    });

    test("echo puts the prompt before the completion", async () => {
        const plain = await complete({max_tokens: 6, temperature: 0});
        const echoed = await complete({max_tokens: 6, temperature: 0, echo: true});
        assert.equal(echoed.choices[0].text, "Once upon a time" + plain.choices[0].text);
        assert.equal(echoed.usage.completion_tokens, plain.usage.completion_tokens);
    });

    test("a stop string is honored and not emitted", async () => {
        const plain: string = (await complete({max_tokens: 40, temperature: 0})).choices[0].text;
        const word = /[a-z]{3,}/g;
        let found: RegExpExecArray | null;
        let stop: string | undefined;
        while ((found = word.exec(plain)) != null) if (found.index >= 4) {
            stop = found[0];
            break;
        }
        assert.ok(stop != null, `no stop candidate in ${JSON.stringify(plain)}`);
        const stopped = await complete({max_tokens: 40, temperature: 0, stop: [stop]});
        assert.equal(stopped.choices[0].text, plain.slice(0, plain.indexOf(stop)));
        assert.equal(stopped.choices[0].finish_reason, "stop");
    });

    test("seeded sampling is reproducible", async () => {
        const first = await complete({max_tokens: 10, temperature: 1, seed: 5});
        const second = await complete({max_tokens: 10, temperature: 1, seed: 5});
        assert.equal(second.choices[0].text, first.choices[0].text);
    });
});

describe("streaming", () => {
    test("chunks are text_completion objects whose texts add up to the whole answer, then [DONE]", async () => {
        const prompts = ["Once upon a time", "The sky is"];
        const whole = await complete({prompt: prompts, n: 2, max_tokens: 6, temperature: 0, echo: true});
        const reply = await callApi(server, {
            path: "/completions",
            body: {model: "svc-1", prompt: prompts, n: 2, max_tokens: 6, temperature: 0, echo: true, stream: true, stream_options: {include_usage: true}}
        });
        assert.equal(reply.status, 200);
        assert.match(reply.headers.get("content-type") ?? "", /^text\/event-stream/);
        const chunks = readSse(reply.text);
        const texts = new Map<number, string>();
        const finishes = new Map<number, string>();
        for (const chunk of chunks.slice(0, -1)) {
            assert.equal(chunk.object, "text_completion");
            assert.equal(chunk.id, chunks[0].id);
            assert.equal(chunk.usage, null);
            for (const choice of chunk.choices) {
                texts.set(choice.index, (texts.get(choice.index) ?? "") + choice.text);
                if (choice.finish_reason != null) finishes.set(choice.index, choice.finish_reason);
            }
        }
        assert.deepEqual([...texts.keys()].sort(), [0, 1, 2, 3]);
        for (const choice of whole.choices) {
            assert.equal(texts.get(choice.index), choice.text);
            assert.equal(finishes.get(choice.index), "length");
        }
        const last = chunks.at(-1);
        assert.deepEqual(last.choices, []);
        assert.equal(last.usage.prompt_tokens, whole.usage.prompt_tokens);
        assert.equal(last.usage.completion_tokens, whole.usage.completion_tokens);
        assert.equal(last.usage.total_tokens, last.usage.prompt_tokens + last.usage.completion_tokens);
    });

    test("the openai client reads a completions stream", async () => {
        const stream = await server.client.completions.create({model: "svc-1", prompt: "The sky is", max_tokens: 5, temperature: 0, stream: true});
        let text = "";
        for await (const chunk of stream) text += chunk.choices[0]?.text ?? "";
        const whole = await complete({prompt: "The sky is", max_tokens: 5, temperature: 0});
        assert.equal(text, whole.choices[0].text);
    });
});

describe("prompt tokens", () => {
    test("the prompt is evaluated once, with one BOS, and a repeat is served from the cache", async () => {
        const prompt = "Hello there friend, how are you today";
        const expected = await tokenizePrompt(server.engine.model, prompt);
        const first = await complete({prompt, max_tokens: 2, temperature: 0});
        const middle = await sequenceMeters(server.engine);
        const lease = await server.engine.scheduler.acquire([]);
        const inCache = lease.sequence.contextTokens.slice(0, expected.length);
        lease.release();
        assert.deepEqual(inCache, expected, "the sequence holds exactly the reported prompt tokens");
        const second = await complete({prompt, max_tokens: 2, temperature: 0});
        const last = await sequenceMeters(server.engine);
        assert.equal(first.usage.prompt_tokens, expected.length);
        assert.equal(second.usage.prompt_tokens_details.cached_tokens, expected.length - 1);
        assert.ok(last.input - middle.input <= 1, `the repeat evaluated ${last.input - middle.input} input tokens`);
    });
});

describe("request validation: each bad field is a 400 naming it", () => {
    const base = {model: "svc-1", prompt: "Hi", max_tokens: 2};
    const rows: Array<[string, Record<string, unknown>, string]> = [
        ["model missing", {model: undefined}, "model"],
        ["model not the path segment", {model: "svc-2"}, "model"],
        ["prompt missing", {prompt: undefined}, "prompt"],
        ["prompt a number", {prompt: 5}, "prompt"],
        ["prompt an empty array", {prompt: []}, "prompt"],
        ["prompt array with a number", {prompt: ["a", 5]}, "prompt[1]"],
        ["max_tokens zero", {max_tokens: 0}, "max_tokens"],
        ["max_tokens negative", {max_tokens: -1}, "max_tokens"],
        ["max_tokens a string", {max_tokens: "5"}, "max_tokens"],
        ["n zero", {n: 0}, "n"],
        ["echo a string", {echo: "yes"}, "echo"],
        ["stream a string", {stream: "yes"}, "stream"],
        ["stream_options without stream", {stream_options: {include_usage: true}}, "stream_options"],
        ["temperature too high", {temperature: 3}, "temperature"],
        ["top_p negative", {top_p: -0.1}, "top_p"],
        ["seed fractional", {seed: 0.5}, "seed"],
        ["stop a number", {stop: 1}, "stop"],
        ["frequency_penalty too high", {frequency_penalty: 2.5}, "frequency_penalty"]
    ];
    for (const [name, change, field] of rows) {
        test(name, async () => {
            const reply = await callApi(server, {path: "/completions", body: {...base, ...change}});
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", field);
        });
    }

    test("a budget above the context is max_output_tokens_exceeded", async () => {
        const reply = await callApi(server, {path: "/completions", body: {...base, max_tokens: server.engine.context.contextSize + 1}});
        assertApiError(reply, 400, "max_output_tokens_exceeded", "invalid_request_error", "max_tokens");
    });
});
