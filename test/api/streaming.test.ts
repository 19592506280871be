// Chat streaming (spec 6.1): OpenAI-compatible chunks, include_usage's last chunk, `data: [DONE]`.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {callApi} from "./utils/callApi.ts";
import {readSse} from "./utils/readSse.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

let server: TestServer;
const messages = [{role: "user" as const, content: "Tell me a story"}];

before(async () => {
    server = await startTestServer();
});
after(async () => {
    await server?.close();
});

test("the openai client reads the same answer as a stream as without one", async () => {
    const whole = await server.client.chat.completions.create({model: "svc-1", messages, max_tokens: 16, temperature: 0});
    const stream = await server.client.chat.completions.create({model: "svc-1", messages, max_tokens: 16, temperature: 0, stream: true});
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);

    assert.ok(chunks.length >= 3, `${chunks.length} chunks`);
    assert.equal(new Set(chunks.map((chunk) => chunk.id)).size, 1, "one id for the whole stream");
    for (const chunk of chunks) {
        assert.equal(chunk.object, "chat.completion.chunk");
        assert.equal(chunk.model, "svc-1");
        assert.match(chunk.id, /^chatcmpl-/);
    }
    assert.equal(chunks[0].choices[0].delta.role, "assistant");
    const content = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    assert.equal(content, whole.choices[0].message.content);
    const finishes = chunks.filter((chunk) => chunk.choices[0]?.finish_reason != null);
    assert.equal(finishes.length, 1);
    assert.equal(finishes[0], chunks.at(-1), "the finish chunk is last when usage is not asked for");
    assert.equal(finishes[0].choices[0].finish_reason, "length");
    assert.ok(chunks.every((chunk) => chunk.usage == null), "no usage unless include_usage");
});

test("include_usage adds a last chunk with usage and no choices, then data: [DONE]", async () => {
    const reply = await callApi(server, {
        path: "/chat/completions",
        body: {model: "svc-1", messages, max_tokens: 10, temperature: 0, stream: true, stream_options: {include_usage: true}}
    });
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get("content-type") ?? "", /^text\/event-stream/);
    assert.match(reply.headers.get("server-timing") ?? "", /dur=\d/);
    const chunks = readSse(reply.text);
    const last = chunks.at(-1);
    assert.deepEqual(last.choices, []);
    assert.equal(last.object, "chat.completion.chunk");
    assert.equal(last.usage.completion_tokens, 10);
    assert.ok(last.usage.prompt_tokens > 0);
    assert.equal(last.usage.total_tokens, last.usage.prompt_tokens + last.usage.completion_tokens);
    assert.ok(Number.isInteger(last.usage.prompt_tokens_details.cached_tokens));
    for (const chunk of chunks.slice(0, -1)) {
        assert.equal(chunk.usage, null, "earlier chunks carry usage: null");
        assert.equal(chunk.choices.length, 1);
    }
    assert.equal(chunks.at(-2).choices[0].finish_reason, "length");
});

test("the openai client sees the usage chunk", async () => {
    const stream = await server.client.chat.completions.create({
        model: "svc-1", messages, max_tokens: 4, temperature: 0, stream: true, stream_options: {include_usage: true}
    });
    let usage;
    for await (const chunk of stream) if (chunk.usage != null) usage = chunk.usage;
    assert.equal(usage?.completion_tokens, 4);
});

test("streamed n choices each get their deltas and their own finish chunk", async () => {
    const reply = await callApi(server, {
        path: "/chat/completions",
        body: {model: "svc-1", messages, max_tokens: 5, temperature: 1, seed: 11, n: 2, stream: true, stream_options: {include_usage: true}}
    });
    const chunks = readSse(reply.text);
    const byChoice = new Map<number, {content: string, finish?: string}>();
    for (const chunk of chunks)
        for (const choice of chunk.choices) {
            const entry = byChoice.get(choice.index) ?? {content: ""};
            entry.content += choice.delta.content ?? "";
            if (choice.finish_reason != null) entry.finish = choice.finish_reason;
            byChoice.set(choice.index, entry);
        }
    assert.deepEqual([...byChoice.keys()], [0, 1]);
    const whole = await server.client.chat.completions.create({model: "svc-1", messages, max_tokens: 5, temperature: 1, seed: 11, n: 2} as any);
    for (const [index, entry] of byChoice) {
        assert.equal(entry.finish, "length");
        assert.equal(entry.content, whole.choices[index].message.content, "a seeded stream samples what the same request does without streaming");
    }
    assert.equal(chunks.at(-1).usage.completion_tokens, 10);
});

test("errors found before the first token are a JSON error, not a stream", async () => {
    const reply = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages, max_tokens: 100_000, stream: true}});
    assert.equal(reply.status, 400);
    assert.match(reply.headers.get("content-type") ?? "", /application\/json/);
    assert.equal(reply.json.error.code, "max_output_tokens_exceeded");
});
