// The local-only token id readout: `x_svc: {token_ids: true}` adds each scored token's and alternative's
// id to chat and legacy completions logprobs, through the official openai client and the real server. The ids must
// be the tokenizer's own (the app builds logit_bias entries from them), and absent unless asked for.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import type OpenAI from "openai";
import type {Token} from "node-llama-cpp";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

let server: TestServer;

before(async () => {
    server = await startTestServer();
});
after(async () => {
    await server?.close();
});

const messages: OpenAI.ChatCompletionMessageParam[] = [{role: "user", content: "Once upon a time"}];
const withIds = {x_svc: {token_ids: true}};
// The extension is not in the openai client's types; its parsing must still leave every official field intact.
const chat = (body: Record<string, unknown>) =>
    server.client.chat.completions.create({model: "svc-1", messages, max_tokens: 10, temperature: 0, logprobs: true, top_logprobs: 4, ...body} as OpenAI.ChatCompletionCreateParamsNonStreaming);
const complete = (body: Record<string, unknown>) =>
    server.client.completions.create({model: "svc-1", prompt: "Once upon a time", max_tokens: 8, temperature: 0, logprobs: 3, ...body} as any) as Promise<any>;

type WithId = {token: string, x_svc?: {token_id: number}};

/** The token text the server shows for an id, as it detokenizes one token. */
const textOf = (id: number) => server.engine.model.detokenize([id as Token], true);

/** Every entry and alternative carries an id whose text is the entry's token (byte tokens share U+FFFD). */
function assertIdsMatchText(entries: Array<WithId & {top_logprobs: WithId[]}>) {
    assert.ok(entries.length > 0);
    for (const entry of [...entries, ...entries.flatMap((item) => item.top_logprobs)]) {
        assert.equal(typeof entry.x_svc?.token_id, "number", `${JSON.stringify(entry.token)} has an id`);
        assert.equal(textOf(entry.x_svc!.token_id), entry.token);
    }
}

describe("x_svc.token_ids on chat completions", () => {
    test("without the extension no entry carries an id; with it every entry and alternative does, and the rest is unchanged", async () => {
        const plain = await chat({});
        const content = plain.choices[0].logprobs!.content!;
        assert.ok(content.every((entry) => !("x_svc" in entry) && entry.top_logprobs.every((item) => !("x_svc" in item))));
        const identified = await chat(withIds);
        const entries = identified.choices[0].logprobs!.content! as Array<WithId & {top_logprobs: WithId[]}>;
        assertIdsMatchText(entries);
        const stripped = entries.map(({x_svc: _entryId, top_logprobs, ...rest}) => ({...rest, top_logprobs: top_logprobs.map(({x_svc: _id, ...item}) => item)}));
        // Logprobs are read as the tokens are generated, so they are those of that request's decodes: the second
        // request reuses the first one's cached prompt, and a one-token decode and a batch differ by about 1e-8 here.
        const logprobsOf = (list: typeof content) => list.flatMap((entry) => [entry.logprob, ...entry.top_logprobs.map((item) => item.logprob)]);
        const withoutLogprobs = (list: typeof content) => JSON.parse(JSON.stringify(list, (key, value) => key === "logprob" ? undefined : value));
        assert.deepEqual(withoutLogprobs(stripped as typeof content), withoutLogprobs(content), "the official fields are the same with or without ids");
        const expected = logprobsOf(content);
        logprobsOf(stripped as typeof content).forEach((logprob, index) => assert.ok(Math.abs(logprob - expected[index]) < 1e-6, `${logprob} against ${expected[index]}`));
        assert.equal(identified.choices[0].message.content, plain.choices[0].message.content);
    });

    test("the ids are the ones logit_bias takes: banning the first token's id removes it", async () => {
        const first = (await chat(withIds)).choices[0].logprobs!.content![0] as WithId;
        const banned = await chat({logit_bias: {[first.x_svc!.token_id]: -100}});
        assert.ok(!banned.choices[0].logprobs!.content!.some((entry) => entry.token === first.token));
    });

    test("stream chunks carry the ids too", async () => {
        const stream = await server.client.chat.completions.create({model: "svc-1", messages, max_tokens: 6, temperature: 0, logprobs: true, top_logprobs: 2, stream: true, ...withIds} as OpenAI.ChatCompletionCreateParamsStreaming);
        const entries: Array<WithId & {top_logprobs: WithId[]}> = [];
        for await (const chunk of stream) entries.push(...(chunk.choices[0]?.logprobs?.content ?? []) as Array<WithId & {top_logprobs: WithId[]}>);
        assertIdsMatchText(entries);
    });

    test("bad extensions are 400s naming the field", async () => {
        const cases: Array<[Record<string, unknown>, string]> = [
            [{x_svc: {token_ids: true}}, "x_svc.token_ids"],
            [{logprobs: true, x_svc: {token_ids: "yes"}}, "x_svc.token_ids"],
            [{logprobs: true, x_svc: {token_id: true}}, "x_svc.token_id"],
            [{logprobs: true, x_svc: true}, "x_svc"]
        ];
        for (const [change, field] of cases) {
            const reply = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages, max_tokens: 2, ...change}});
            assertApiError(reply, 400, "invalid_request", undefined, field);
        }
    });
});

describe("x_svc.token_ids on legacy completions", () => {
    test("token_ids parallel tokens and top_token_ids parallel top_logprobs, echo included; absent unless asked for", async () => {
        assert.equal((await complete({})).choices[0].logprobs.x_svc, undefined);
        const completion = await complete({echo: true, ...withIds});
        const {tokens, top_logprobs, x_svc} = completion.choices[0].logprobs;
        assert.deepEqual(x_svc.token_ids.map(textOf), tokens);
        assert.equal(x_svc.top_token_ids.length, top_logprobs.length);
        assert.equal(x_svc.top_token_ids[0], null, "the echoed first token is unscored, as in top_logprobs");
        x_svc.top_token_ids.forEach((ids: Record<string, number> | null, index: number) => {
            if (ids == null) return assert.equal(top_logprobs[index], null);
            assert.deepEqual(Object.keys(ids), Object.keys(top_logprobs[index]));
            for (const [text, id] of Object.entries(ids)) assert.equal(textOf(id), text);
        });
        // The ids are the tokenizer's: the echoed prompt's ids are its tokenization, less BOS.
        const promptIds = server.engine.model.tokenize("Once upon a time");
        assert.deepEqual(x_svc.token_ids.slice(0, promptIds.length), [...promptIds]);
    });

    test("bad extensions are 400s", async () => {
        const reply = await callApi(server, {path: "/completions", body: {model: "svc-1", prompt: "Hi", max_tokens: 2, ...withIds}});
        assertApiError(reply, 400, "invalid_request", undefined, "x_svc.token_ids");
    });
});
