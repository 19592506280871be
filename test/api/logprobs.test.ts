// Token probabilities: logprobs and top_logprobs on chat completions (stream or not), legacy completions'
// logprobs with echo, and logit_bias on both, through the official openai client and the real server.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import type OpenAI from "openai";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {maxTopLogprobs} from "../../protocol/logprobs.ts";
import {tokenizePrompt} from "../../native/completions/routes.ts";

let server: TestServer;

before(async () => {
    server = await startTestServer();
});
after(async () => {
    await server?.close();
});

const messages: OpenAI.ChatCompletionMessageParam[] = [{role: "user", content: "Once upon a time"}];
const chat = (body: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>) =>
    server.client.chat.completions.create({model: "svc-1", messages, max_tokens: 12, temperature: 0, ...body});

type Alternatives = Array<{token: string, logprob: number, bytes: number[] | null}>;
type Scored = {token: string, logprob: number, bytes: number[] | null, top_logprobs: Alternatives};

/** The invariants every scored token keeps: sorted alternatives, a mass of at most 1, the chosen one's logprob among them. */
function assertConsistent(entries: Scored[], topCount: number, greedy: boolean) {
    assert.ok(entries.length > 0);
    for (const entry of entries) {
        assert.ok(entry.logprob <= 0 && Number.isFinite(entry.logprob), `logprob ${entry.logprob}`);
        if (entry.token !== "\uFFFD") assert.deepEqual(entry.bytes, [...Buffer.from(entry.token, "utf8")]);
        assert.equal(entry.top_logprobs.length, topCount);
        const values = entry.top_logprobs.map((alternative) => alternative.logprob);
        assert.deepEqual(values, [...values].sort((a, b) => b - a), "alternatives best first");
        const mass = values.reduce((sum, value) => sum + Math.exp(value), 0);
        assert.ok(mass <= 1 + 1e-6, `alternatives' mass ${mass}`);
        // Tokens are told apart by their bytes: byte-fallback tokens share the text U+FFFD.
        const same = entry.top_logprobs.find((alternative) => alternative.token === entry.token && String(alternative.bytes) === String(entry.bytes));
        if (same != null) assert.ok(Math.abs(same.logprob - entry.logprob) < 1e-9, "the chosen token's entry among the alternatives agrees");
        if (greedy) assert.equal(entry.top_logprobs[0].token, entry.token, "greedy decoding picks the top-1 token");
    }
}

describe("chat completions logprobs", () => {
    test("without logprobs, logprobs is null", async () => {
        const completion = await chat({});
        assert.equal(completion.choices[0].logprobs, null);
    });

    test("logprobs: true scores each content token; top_logprobs lists sorted alternatives; greedy picks top-1", async () => {
        const completion = await chat({logprobs: true, top_logprobs: 5});
        const [choice] = completion.choices;
        const content = choice.logprobs!.content!;
        assert.equal(content.length, completion.usage!.completion_tokens, "one entry per output token");
        assert.equal(Buffer.from(content.flatMap((entry) => entry.bytes ?? [])).toString("utf8"), choice.message.content, "the tokens' bytes spell the content");
        assertConsistent(content, 5, true);
    });

    test("logprobs without top_logprobs gives empty alternative lists", async () => {
        const completion = await chat({logprobs: true});
        for (const entry of completion.choices[0].logprobs!.content!) assert.deepEqual(entry.top_logprobs, []);
    });

    test("the same request scores the same, and at temperature 1 the sampled tokens are still scored raw", async () => {
        const first = await chat({logprobs: true, top_logprobs: 3});
        const second = await chat({logprobs: true, top_logprobs: 3});
        assert.deepEqual(second.choices[0].logprobs, first.choices[0].logprobs);
        const sampled = await chat({logprobs: true, top_logprobs: 3, temperature: 1, seed: 7});
        assertConsistent(sampled.choices[0].logprobs!.content!, 3, false);
    });

    test("stream chunks carry their tokens' logprobs, equal to the unstreamed ones at temperature 0", async () => {
        const plain = await chat({logprobs: true, top_logprobs: 4});
        const stream = await server.client.chat.completions.create({
            model: "svc-1", messages, max_tokens: 12, temperature: 0, logprobs: true, top_logprobs: 4, stream: true
        });
        const streamed: Scored[] = [];
        let text = "";
        for await (const chunk of stream) {
            const [choice] = chunk.choices;
            if (choice?.delta.content) {
                text += choice.delta.content;
                assert.ok((choice.logprobs?.content?.length ?? 0) > 0, "a content chunk carries logprobs");
            }
            streamed.push(...(choice?.logprobs?.content ?? []));
        }
        assert.equal(text, plain.choices[0].message.content);
        assert.deepEqual(streamed, plain.choices[0].logprobs!.content);
    });

    test("n choices are scored each", async () => {
        const completion = await chat({logprobs: true, top_logprobs: 2, n: 2});
        for (const choice of completion.choices) assertConsistent(choice.logprobs!.content!, 2, true);
    });

    test("bad values are 400s with the spec's envelope", async () => {
        const cases: Array<[Record<string, unknown>, string]> = [
            [{logprobs: "yes"}, "logprobs"],
            [{top_logprobs: 3}, "top_logprobs"],
            [{logprobs: true, top_logprobs: maxTopLogprobs + 1}, "top_logprobs"],
            [{logprobs: true, top_logprobs: -1}, "top_logprobs"],
            [{logprobs: true, top_logprobs: 1.5}, "top_logprobs"]
        ];
        for (const [change, field] of cases) {
            const reply = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages, max_tokens: 4, ...change}});
            assertApiError(reply, 400, "invalid_request", undefined, field);
        }
    });
});

const complete = (body: Record<string, unknown>) =>
    server.client.completions.create({model: "svc-1", prompt: "Once upon a time", max_tokens: 8, temperature: 0, ...body} as any) as Promise<any>;

describe("legacy completions logprobs", () => {
    test("logprobs: N gives tokens, token_logprobs, top_logprobs and text_offset for the output", async () => {
        const completion = await complete({logprobs: 3});
        const [choice] = completion.choices;
        const {tokens, token_logprobs, top_logprobs, text_offset} = choice.logprobs;
        assert.equal(tokens.length, completion.usage.completion_tokens);
        assert.equal(tokens.join(""), choice.text);
        assert.equal(token_logprobs.length, tokens.length);
        assert.equal(text_offset[0], 0);
        tokens.forEach((token: string, index: number) => {
            const alternatives = Object.entries(top_logprobs[index]) as Array<[string, number]>;
            assert.ok(alternatives.length <= 3 && alternatives.length > 0);
            assert.equal(alternatives[0][0], token, "greedy picks the best alternative");
            assert.ok(Math.abs(alternatives[0][1] - token_logprobs[index]) < 1e-9);
            if (index > 0) assert.equal(text_offset[index], text_offset[index - 1] + tokens[index - 1].length);
        });
        const plain = await complete({});
        assert.equal(plain.choices[0].logprobs, null);
        assert.equal(plain.choices[0].text, choice.text, "scoring does not change the output");
    });

    test("echo scores the prompt's tokens too, the first one null, and the output scores stay the same", async () => {
        const prompt = "Once upon a time";
        const echoed = await complete({logprobs: 2, echo: true});
        const plain = await complete({logprobs: 2});
        const {tokens, token_logprobs, top_logprobs, text_offset} = echoed.choices[0].logprobs;
        const promptCount = tokens.length - plain.choices[0].logprobs.tokens.length;
        assert.equal(promptCount, echoed.usage.prompt_tokens - 1, "every prompt token but BOS is listed");
        assert.equal(tokens.slice(0, promptCount).join("").trim(), prompt);
        assert.equal(token_logprobs[0], null);
        assert.equal(top_logprobs[0], null);
        for (let index = 1; index < promptCount; index++) {
            assert.ok(token_logprobs[index] <= 0, `prompt token ${index} is scored`);
            assert.ok(Object.keys(top_logprobs[index]).length > 0);
        }
        assert.deepEqual(token_logprobs.slice(promptCount), plain.choices[0].logprobs.token_logprobs);
        assert.equal(text_offset[promptCount], prompt.length, "output offsets start after the echoed prompt");
    });

    test("max_tokens 0 with echo and logprobs scores the prompt alone, as echo with generation does", async () => {
        const prompt = "Once upon a time";
        const scoredOnly = await complete({max_tokens: 0, echo: true, logprobs: 2});
        const withOutput = await complete({echo: true, logprobs: 2});
        const [choice] = scoredOnly.choices;
        assert.equal(choice.text, prompt, "the prompt is echoed and nothing is generated");
        assert.equal(choice.finish_reason, "length");
        assert.equal(scoredOnly.usage.completion_tokens, 0);
        assert.equal(scoredOnly.usage.total_tokens, scoredOnly.usage.prompt_tokens);
        const promptCount = scoredOnly.usage.prompt_tokens - 1;
        const {tokens, token_logprobs, top_logprobs, text_offset} = choice.logprobs;
        assert.equal(tokens.length, promptCount, "every prompt token but BOS, and no output token");
        assert.equal(token_logprobs[0], null);
        const reference = withOutput.choices[0].logprobs;
        assert.deepEqual(tokens, reference.tokens.slice(0, promptCount));
        assert.deepEqual(token_logprobs, reference.token_logprobs.slice(0, promptCount));
        assert.deepEqual(top_logprobs, reference.top_logprobs.slice(0, promptCount));
        assert.deepEqual(text_offset, reference.text_offset.slice(0, promptCount));

        const stream = await server.client.completions.create({model: "svc-1", prompt, max_tokens: 0, echo: true, logprobs: 2, stream: true});
        let text = "";
        const streamedTokens: string[] = [];
        for await (const chunk of stream) {
            text += chunk.choices[0]?.text ?? "";
            streamedTokens.push(...(chunk.choices[0]?.logprobs?.tokens ?? []));
        }
        assert.equal(text, prompt);
        assert.deepEqual(streamedTokens, tokens);
    });

    test("max_tokens 0 is still a 400 without echo or logprobs, and on chat", async () => {
        for (const change of [{echo: true}, {logprobs: 2}, {echo: false, logprobs: 2}, {}]) {
            const reply = await callApi(server, {path: "/completions", body: {model: "svc-1", prompt: "Hi", max_tokens: 0, ...change}});
            assertApiError(reply, 400, "invalid_request", undefined, "max_tokens");
        }
        const reply = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages, max_tokens: 0, logprobs: true}});
        assertApiError(reply, 400, "invalid_request", undefined, "max_tokens");
    });

    test("a streamed scored completion carries the logprobs of its text", async () => {
        const plain = await complete({logprobs: 1});
        const stream = await server.client.completions.create({model: "svc-1", prompt: "Once upon a time", max_tokens: 8, temperature: 0, logprobs: 1, stream: true});
        let text = "";
        const tokens: string[] = [];
        for await (const chunk of stream) {
            text += chunk.choices[0]?.text ?? "";
            tokens.push(...(chunk.choices[0]?.logprobs?.tokens ?? []));
        }
        assert.equal(text, plain.choices[0].text);
        assert.deepEqual(tokens, plain.choices[0].logprobs.tokens);
    });

    test("the values are the log-softmax of the model's raw logits, checked against an independent pass", async () => {
        const completion = await complete({logprobs: 5, max_tokens: 1, temperature: 1.5, presence_penalty: 1, seed: 3});
        // The engine's attention kernel (flash attention off on a CPU), so only the batch shapes differ between the passes.
        const context = await server.engine.model.createContext({contextSize: 256, sequences: 1, flashAttention: server.engine.llama.gpu !== false});
        try {
            const sequence = context.getSequence();
            const prompt = await tokenizePrompt(server.engine.model, "Once upon a time");
            const input = prompt.map((token, index) => index < prompt.length - 1 ? token : [token, {generateNext: {logits: true}}] as const);
            // Every logit of the vocabulary after the prompt, with no sampling options (nothing biased or scaled).
            const output = await sequence.controlledEvaluate(input as any);
            const logits = [...output.at(-1)!.next.logits!.entries()];
            assert.equal(logits.length, server.engine.model.fileInfo.metadata.tokenizer.ggml.tokens.length);
            const best = Math.max(...logits.map(([, logit]) => logit));
            const logZ = best + Math.log(logits.reduce((sum, [, logit]) => sum + Math.exp(logit - best), 0));
            const expected = logits.map(([token, logit]) => ({token, logprob: logit - logZ})).sort((a, b) => b.logprob - a.logprob).slice(0, 5);
            const top = Object.entries(completion.choices[0].logprobs.top_logprobs[0]) as Array<[string, number]>;
            top.forEach(([text, logprob], index) => {
                assert.equal(text, server.engine.model.detokenize([expected[index].token], true));
                // 1e-3: a natively compiled llama.cpp (npm run build:engine) gives logits that differ by about 2e-4
                // between a one-token decode and a batch. Scaling by the request's temperature (1.5) or its presence
                // penalty would move these values by more than 1.
                assert.ok(Math.abs(logprob - expected[index].logprob) < 1e-3, `${logprob} vs ${expected[index].logprob}`);
            });
        } finally {
            await context.dispose();
        }
    });

    test("bad values are 400s", async () => {
        for (const logprobs of [-1, maxTopLogprobs + 1, 2.5, "3", true]) {
            const reply = await callApi(server, {path: "/completions", body: {model: "svc-1", prompt: "Hi", max_tokens: 2, logprobs}});
            assertApiError(reply, 400, "invalid_request", undefined, "logprobs");
        }
    });
});

describe("logit_bias", () => {
    /** Token ids by their text, for the small built-in vocabulary (byte tokens, which share U+FFFD, are left out). */
    const idOf = (text: string) => {
        const model = server.engine.model;
        const size = model.fileInfo.metadata.tokenizer.ggml.tokens.length;
        for (let id = 0; id < size; id++) if (model.detokenize([id as any], true) === text) return id;
        throw new Error(`no token ${JSON.stringify(text)}`);
    };

    test("-100 bans a token: it never appears, where greedy decoding chose it first", async () => {
        const greedy = await complete({logprobs: 1, max_tokens: 12});
        const first: string = greedy.choices[0].logprobs.tokens[0];
        const banned = await complete({logprobs: 1, max_tokens: 12, logit_bias: {[idOf(first)]: -100}});
        assert.ok(!banned.choices[0].logprobs.tokens.includes(first), `${JSON.stringify(first)} appeared in ${JSON.stringify(banned.choices[0].text)}`);
        const chatGreedy = await chat({logprobs: true});
        const chatFirst = chatGreedy.choices[0].logprobs!.content![0].token;
        const chatBanned = await chat({logprobs: true, logit_bias: {[idOf(chatFirst)]: -100}});
        assert.ok(!chatBanned.choices[0].logprobs!.content!.some((entry) => entry.token === chatFirst));
    });

    test("+100 all but forces a token, and logprobs stay the model's raw values", async () => {
        const forced = " happy";
        const id = idOf(forced);
        const completion = await complete({logprobs: 1, max_tokens: 6, logit_bias: {[id]: 100}});
        assert.deepEqual(completion.choices[0].logprobs.tokens, Array(6).fill(forced));
        assert.ok(completion.choices[0].logprobs.token_logprobs[0] < Math.log(0.5), "the bias is not in the reported value");
        const reply = await chat({logprobs: true, max_tokens: 4, logit_bias: {[id]: 100}});
        assert.deepEqual(reply.choices[0].logprobs!.content!.map((entry) => entry.token), Array(4).fill(forced));
    });

    test("bad values are 400s naming the entry", async () => {
        const cases: Array<[unknown, string]> = [
            [{"abc": 1}, "logit_bias.abc"],
            [{"-1": 1}, "logit_bias.-1"],
            [{"5": 101}, "logit_bias.5"],
            [{"5": -100.5}, "logit_bias.5"],
            [{"5": "1"}, "logit_bias.5"],
            [[1, 2], "logit_bias"],
            [{"99999": 1}, "logit_bias.99999"]
        ];
        for (const [logitBias, field] of cases) {
            for (const path of ["/chat/completions", "/completions"]) {
                const body = path === "/completions"
                    ? {model: "svc-1", prompt: "Hi", max_tokens: 2, logit_bias: logitBias}
                    : {model: "svc-1", messages, max_tokens: 2, logit_bias: logitBias, stream: true};
                assertApiError(await callApi(server, {path, body}), 400, "invalid_request", undefined, field);
            }
        }
    });
});

describe("Responses logprobs", () => {
    const respond = (body: Record<string, unknown>) =>
        server.client.responses.create({model: "svc-1", input: "Once upon a time", max_output_tokens: 10, temperature: 0, ...body} as any) as Promise<OpenAI.Responses.Response>;
    const outputText = (response: OpenAI.Responses.Response) => {
        const message = response.output.find((item) => item.type === "message") as OpenAI.Responses.ResponseOutputMessage;
        return message.content[0] as OpenAI.Responses.ResponseOutputText;
    };

    test("include message.output_text.logprobs scores the output_text part", async () => {
        const response = await respond({include: ["message.output_text.logprobs"], top_logprobs: 3});
        const part = outputText(response);
        assertConsistent(part.logprobs as Scored[], 3, true);
        assert.equal(part.logprobs!.length, response.usage!.output_tokens);
        const plain = await respond({top_logprobs: 3});
        assert.deepEqual(outputText(plain).logprobs, [], "not included, not returned");
    });

    test("streamed output_text deltas carry their tokens' logprobs; the done events carry them all", async () => {
        const plain = await respond({include: ["message.output_text.logprobs"], top_logprobs: 2});
        const stream = await server.client.responses.create({
            model: "svc-1", input: "Once upon a time", max_output_tokens: 10, temperature: 0, include: ["message.output_text.logprobs"], top_logprobs: 2, stream: true
        });
        const streamed: unknown[] = [];
        let done: unknown[] | undefined;
        for await (const event of stream) {
            if (event.type === "response.output_text.delta") {
                assert.ok(event.logprobs.length > 0);
                streamed.push(...event.logprobs);
            }
            if (event.type === "response.output_text.done") done = event.logprobs;
        }
        assert.deepEqual(streamed, outputText(plain).logprobs);
        assert.deepEqual(done, streamed);
    });

    test("bad values are 400s", async () => {
        for (const change of [{top_logprobs: maxTopLogprobs + 1}, {include: "message.output_text.logprobs"}, {include: [3]}]) {
            const reply = await callApi(server, {path: "/responses", body: {model: "svc-1", input: "Hi", max_output_tokens: 2, ...change}});
            assertApiError(reply, 400, "invalid_request");
        }
    });
});
