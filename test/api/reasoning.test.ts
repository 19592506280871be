// Reasoning (spec 2.6) on the real local server, with the tiny fixture built with a thinking chat template
// (`<think>`, Qwen3/DeepSeek-R1 style): thought segments, budgets, effort, and the reasoning-by-default variant.
// Greedy decoding (temperature 0) keeps each turn reproducible; the random weights never close `</think>` by
// themselves, so thinking runs until its budget and the token counts follow the budget rules exactly.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import OpenAI from "openai";
import {writeTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

let server: TestServer;
let variant: OpenAI;
let workDir: string;

before(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), "reasoning-"));
    const modelPath = path.join(workDir, "tiny-thinking.gguf");
    await writeTinyGguf(modelPath, {chatTemplate: "chatml-thinking"});
    server = await startTestServer({modelPath, contextSize: 1024});
    variant = new OpenAI({baseURL: `${server.url}/svc-1-reasoning/v1`, apiKey: server.apiKey, maxRetries: 0, timeout: 60_000});
});
after(async () => {
    await server?.close();
    await rm(workDir, {recursive: true, force: true});
});

const hello = [{role: "user" as const, content: "Hello"}];
const general = (body: Record<string, unknown>) =>
    server.client.chat.completions.create({model: "svc-1", messages: hello, temperature: 0, ...body} as any) as Promise<any>;
const reasoning = (body: Record<string, unknown>) =>
    variant.chat.completions.create({model: "svc-1-reasoning", messages: hello, temperature: 0, ...body} as any) as Promise<any>;
const reasoningTokens = (completion: any): number => completion.usage.completion_tokens_details.reasoning_tokens;

describe("the reasoning-by-default variant", () => {
    test("is served and listed when the chat template has a thought segment", async () => {
        assert.ok(server.engine.chatWrapper.settings.segments?.thought != null, `wrapper ${server.engine.info.chatWrapper} has no thought segment`);
        for (const client of [server.client, variant]) {
            const models = await client.models.list();
            assert.deepEqual(models.data.map((model) => model.id), ["svc-1", "svc-1-reasoning"]);
        }
        assert.equal((await server.client.models.retrieve("svc-1-reasoning")).id, "svc-1-reasoning");
        const mismatch = await callApi(server, {path: "/svc-1-reasoning/v1/chat/completions", body: {model: "svc-1", messages: hello}});
        assertApiError(mismatch, 400, "invalid_request", "invalid_request_error", "model");
    });

    test("thinks by default with the low effort share of the budget, then answers", async () => {
        const completion = await reasoning({max_tokens: 40});
        const {message} = completion.choices[0];
        assert.equal(typeof message.reasoning, "string");
        assert.ok(message.reasoning.length > 0);
        assert.equal(reasoningTokens(completion), Math.floor(40 * 0.25));
        assert.ok(message.content.length > 0, "the answer follows the thought");
        assert.equal(completion.usage.completion_tokens, 40);
    });

    test("reasoning_effort sets the share; the top-level value wins over chat_template_kwargs", async () => {
        assert.equal(reasoningTokens(await reasoning({max_tokens: 40, chat_template_kwargs: {reasoning_effort: "xhigh"}})), 30);
        assert.equal(reasoningTokens(await reasoning({max_tokens: 40, reasoning_effort: "medium"})), 20);
        assert.equal(reasoningTokens(await reasoning({max_tokens: 40, reasoning_effort: "medium", chat_template_kwargs: {reasoning_effort: "xhigh"}})), 20);
        assert.equal(reasoningTokens(await reasoning({max_tokens: 40, reasoning_effort: "xhigh", thinking_token_budget: 4})), 4, "the budget overrides the share");
        assertApiError(await callApi(server, {path: "/svc-1-reasoning/v1/chat/completions", body: {model: "svc-1-reasoning", messages: hello, reasoning_effort: "high"}}),
            400, "invalid_request", "invalid_request_error", "reasoning_effort");
    });

    test("enable_thinking false turns it off", async () => {
        const completion = await reasoning({max_tokens: 8, chat_template_kwargs: {enable_thinking: false}});
        assert.equal(completion.choices[0].message.reasoning, undefined);
        assert.equal(reasoningTokens(completion), 0);
        assert.equal(completion.usage.completion_tokens, 8);
    });
});

describe("the general model", () => {
    test("does not think unless enable_thinking is true", async () => {
        const completion = await general({max_tokens: 8});
        assert.equal(completion.choices[0].message.reasoning, undefined);
        assert.equal(reasoningTokens(completion), 0);
    });

    test("with enable_thinking true, thinking shares the output budget with no separate cap", async () => {
        const capped = await general({max_tokens: 30, chat_template_kwargs: {enable_thinking: true}, thinking_token_budget: 8});
        assert.equal(reasoningTokens(capped), 8);
        assert.ok(capped.choices[0].message.reasoning.length > 0 && capped.choices[0].message.content.length > 0);
        const uncapped = await general({max_tokens: 12, chat_template_kwargs: {enable_thinking: true}});
        assert.equal(reasoningTokens(uncapped), 12);
        assert.equal(uncapped.choices[0].finish_reason, "length");
    });

    test("refuses reasoning_effort, at top level or in chat_template_kwargs", async () => {
        for (const body of [{reasoning_effort: "low"}, {chat_template_kwargs: {enable_thinking: true, reasoning_effort: "low"}}]) {
            const reply = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: hello, ...body}});
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", "reasoning_effort");
            assert.match(reply.json.error.message, /svc-1-reasoning/);
        }
    });
});

describe("separation, include_reasoning and truncated thinking", () => {
    test("a budget spent on thinking is a 200 with finish_reason length, empty content and the working in reasoning", async () => {
        const completion = await reasoning({max_tokens: 10, thinking_token_budget: 100});
        const [choice] = completion.choices;
        assert.equal(choice.finish_reason, "length");
        assert.ok(choice.message.content === "" || choice.message.content === null);
        assert.ok(choice.message.reasoning.length > 0);
        assert.equal(reasoningTokens(completion), 10);
    });

    test("include_reasoning false makes reasoning null, and the thinking is still counted", async () => {
        const completion = await reasoning({max_tokens: 10, thinking_token_budget: 100, include_reasoning: false});
        assert.equal(completion.choices[0].message.reasoning, null);
        assert.equal(reasoningTokens(completion), 10);
    });

    test("streaming sends delta.reasoning chunks first, then delta.content, the same text as without streaming", async () => {
        const expected = await reasoning({max_tokens: 24});
        const stream = await variant.chat.completions.create({model: "svc-1-reasoning", messages: hello, temperature: 0, max_tokens: 24, stream: true} as any) as any;
        const kinds: string[] = [];
        let thought = "";
        let answer = "";
        for await (const chunk of stream) {
            const delta = chunk.choices[0]?.delta ?? {};
            if (delta.reasoning) {
                kinds.push("reasoning");
                thought += delta.reasoning;
            }
            if (delta.content) {
                kinds.push("content");
                answer += delta.content;
            }
        }
        assert.ok(kinds.includes("reasoning") && kinds.includes("content"));
        assert.equal(kinds.indexOf("content"), kinds.lastIndexOf("reasoning") + 1, "every reasoning chunk comes before the first content chunk");
        assert.equal(thought, expected.choices[0].message.reasoning);
        assert.equal(answer, expected.choices[0].message.content);
    });

    test("streaming with include_reasoning false sends no reasoning", async () => {
        const reply = await callApi(server, {path: "/svc-1-reasoning/v1/chat/completions", body: {model: "svc-1-reasoning", messages: hello, max_tokens: 16, stream: true, include_reasoning: false}});
        assert.equal(reply.status, 200);
        assert.ok(!reply.text.includes("\"reasoning\""));
    });
});

describe("Responses", () => {
    const respond = (body: Record<string, unknown>) => variant.responses.create({model: "svc-1-reasoning", input: "Hello", temperature: 0, ...body} as any) as Promise<any>;

    test("a reasoning item with reasoning_text precedes the message item; the answer is the message", async () => {
        const response = await respond({max_output_tokens: 40});
        assert.deepEqual(response.output.map((item: any) => item.type), ["reasoning", "message"]);
        const [thought, message] = response.output;
        assert.match(thought.id, /^rs-/);
        assert.equal(thought.content[0].type, "reasoning_text");
        assert.ok(thought.content[0].text.length > 0);
        assert.equal(response.output_text, message.content[0].text);
        assert.equal(response.usage.output_tokens_details.reasoning_tokens, 10);
        const chat = await reasoning({max_tokens: 40});
        assert.equal(thought.content[0].text, chat.choices[0].message.reasoning);
        assert.equal(response.output_text, chat.choices[0].message.content);
    });

    test("enable_thinking false gives the message item only", async () => {
        const response = await respond({max_output_tokens: 8, chat_template_kwargs: {enable_thinking: false}});
        assert.deepEqual(response.output.map((item: any) => item.type), ["message"]);
        assert.equal(response.usage.output_tokens_details.reasoning_tokens, 0);
    });

    test("streaming sends the reasoning item's events before the message item's, and the client rebuilds the response", async () => {
        const stream = variant.responses.stream({model: "svc-1-reasoning", input: "Hello", temperature: 0, max_output_tokens: 40} as any);
        const types: string[] = [];
        stream.on("event", (event) => types.push(event.type));
        const final: any = await stream.finalResponse();
        const lastReasoning = types.lastIndexOf("response.reasoning_text.delta");
        const firstText = types.indexOf("response.output_text.delta");
        assert.ok(lastReasoning > 0 && firstText > lastReasoning);
        assert.deepEqual(types.slice(lastReasoning + 1, firstText), [
            "response.reasoning_text.done", "response.content_part.done", "response.output_item.done",
            "response.output_item.added", "response.content_part.added"
        ]);
        const expected = await respond({max_output_tokens: 40});
        assert.deepEqual(final.output.map((item: any) => item.type), ["reasoning", "message"]);
        assert.equal(final.output[0].content[0].text, expected.output[0].content[0].text);
        assert.equal(final.output_text, expected.output_text);
    });
});

describe("a separate model for the reasoning role (--reasoning-model)", () => {
    test("svc-1 serves the chat model and svc-1-reasoning the thinking model, both listed", async () => {
        // The chat model here (the plain ChatML fixture) cannot think; only the reasoning model can.
        const separate = await startTestServer({reasoningModelPath: path.join(workDir, "tiny-thinking.gguf"), contextSize: 1024});
        try {
            const listed = await fetch(`${separate.url}/svc-1/v1/models`).then((response) => response.json()) as {data: Array<{id: string}>};
            assert.deepEqual(listed.data.map((model) => model.id), ["svc-1", "svc-1-reasoning"]);
            const client = new OpenAI({baseURL: `${separate.url}/svc-1-reasoning/v1`, apiKey: separate.apiKey, maxRetries: 0});
            const thought: any = await client.chat.completions.create({model: "svc-1-reasoning", messages: hello, temperature: 0, max_tokens: 16} as any);
            assert.ok(thought.usage.completion_tokens_details.reasoning_tokens > 0, "the reasoning model thinks by default");
            const plain: any = await separate.client.chat.completions.create({model: "svc-1", messages: hello, temperature: 0, max_tokens: 4} as any);
            assert.equal(plain.choices[0].message.reasoning, undefined, "the chat model has no thought segment");
            assert.equal(plain.usage.completion_tokens_details?.reasoning_tokens ?? 0, 0);
        } finally {
            await separate.close();
        }
    });
});
