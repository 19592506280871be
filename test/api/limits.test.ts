// Output budget and window rules (spec 2.1, §7 causes 2, 3 and 7, §8) on a server whose window, the loaded
// context, is small enough to test at its edges: prompt plus budget may fill it exactly, one token more is a 400,
// an explicit budget above it is max_output_tokens_exceeded, and nothing is ever truncated silently.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {renderChatPrompt} from "../../native/chat/turnPlan.ts";
import {toChatHistory} from "../../native/chat/history.ts";
import {tokenizePrompt} from "../../native/completions/routes.ts";
import {commonPrefixLength} from "../../native/engine/SequenceScheduler.ts";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

let server: TestServer;
/** The loaded context: node-llama-cpp may round the requested size up, so the server's own figure is the window. */
let window: number;

before(async () => {
    server = await startTestServer({contextSize: 256});
    window = server.engine.context.contextSize;
    assert.ok(window >= 256 && window < 1024, `context ${window}`);
});
after(async () => {
    await server?.close();
});

/** "hello hello ...": one token per word in the fixture's vocabulary. */
const words = (count: number) => Array.from({length: count}, () => "hello").join(" ");
const userMessages = (count: number) => [{role: "user" as const, content: words(count)}];

const chat = (body: Record<string, unknown>) => callApi(server, {path: "/chat/completions", body: {model: "svc-1", temperature: 0, ...body}});
const complete = (body: Record<string, unknown>) => callApi(server, {path: "/completions", body: {model: "svc-1", temperature: 0, ...body}});

/** Messages whose rendered chat prompt is exactly `tokens` long. */
function chatMessagesOfLength(tokens: number) {
    const overhead = renderChatPrompt(server.engine.model, server.engine.chatWrapper, toChatHistory(userMessages(1))).length - 1;
    const messages = userMessages(tokens - overhead);
    assert.equal(chatPromptTokens(messages).length, tokens);
    return messages;
}

const chatPromptTokens = (messages: ReturnType<typeof userMessages>) =>
    renderChatPrompt(server.engine.model, server.engine.chatWrapper, toChatHistory(messages));

/** Asserts the sequence that served the last request holds the whole prompt, then what was generated. */
async function assertPromptIntact(prompt: readonly number[], completionTokens: number) {
    const lease = await server.engine.scheduler.acquire([]);
    try {
        const held = lease.sequence.contextTokens;
        assert.equal(commonPrefixLength(held, prompt), prompt.length,
            `the sequence holds ${commonPrefixLength(held, prompt)} of the ${prompt.length} prompt tokens: the prompt was cut to fit`);
        assert.equal(held.length, prompt.length + completionTokens - 1, "prompt and output stayed in the window without a context shift");
    } finally {
        lease.release();
    }
}

describe("chat at the window's edge", () => {
    test("a short prompt with a budget that fills the window exactly is served in full", async () => {
        const messages = userMessages(3);
        const prompt = chatPromptTokens(messages);
        const budget = window - prompt.length;
        const reply = await chat({messages, max_tokens: budget});
        assert.equal(reply.status, 200, reply.text);
        assert.equal(reply.json.usage.prompt_tokens, prompt.length);
        assert.equal(reply.json.usage.completion_tokens, budget);
        assert.equal(reply.json.usage.total_tokens, window);
        assert.equal(reply.json.choices[0].finish_reason, "length");
        await assertPromptIntact(prompt, budget);
    });

    test("one budget token more is a 400 invalid_request that says how much room there is", async () => {
        const messages = userMessages(3);
        const prompt = chatPromptTokens(messages);
        for (const field of ["max_tokens", "max_completion_tokens"]) {
            const reply = await chat({messages, [field]: window - prompt.length + 1});
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", String(window - prompt.length));
        }
    });

    test("a long prompt with a budget of 2 that fills the window exactly is served and kept whole", async () => {
        const messages = chatMessagesOfLength(window - 2);
        const reply = await chat({messages, max_tokens: 2});
        assert.equal(reply.status, 200, reply.text);
        assert.equal(reply.json.usage.total_tokens, window);
        await assertPromptIntact(chatPromptTokens(messages), 2);
    });

    test("a prompt one token short of the window with max_tokens 1 is served and kept whole", async () => {
        const messages = chatMessagesOfLength(window - 1);
        const reply = await chat({messages, max_tokens: 1});
        assert.equal(reply.status, 200, reply.text);
        assert.equal(reply.json.usage.total_tokens, window);
        await assertPromptIntact(chatPromptTokens(messages), 1);
    });

    test("a prompt that fills the window leaves no room: 400, not 413", async () => {
        for (const length of [window, window + 40]) {
            const reply = await chat({messages: chatMessagesOfLength(length), max_tokens: 1});
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", String(length));
        }
    });

    test("without a budget the default is fitted into the room the prompt leaves", async () => {
        for (const count of [3, 150]) {
            const messages = userMessages(count);
            const prompt = chatPromptTokens(messages);
            assert.ok(window - prompt.length < 2048);
            const reply = await chat({messages});
            assert.equal(reply.status, 200, reply.text);
            assert.equal(reply.json.choices[0].finish_reason, "length");
            assert.equal(reply.json.usage.completion_tokens, window - prompt.length);
            await assertPromptIntact(prompt, window - prompt.length);
        }
    });
});

describe("explicit budgets above the window", () => {
    test("max_tokens or max_completion_tokens above the loaded context is max_output_tokens_exceeded", async () => {
        for (const field of ["max_tokens", "max_completion_tokens"]) {
            const reply = await chat({messages: userMessages(1), [field]: window + 1});
            assertApiError(reply, 400, "max_output_tokens_exceeded", "invalid_request_error", String(window));
        }
        const streaming = await chat({messages: userMessages(1), max_tokens: window + 1, stream: true});
        assertApiError(streaming, 400, "max_output_tokens_exceeded");
        const legacy = await complete({prompt: "hello", max_tokens: window + 1});
        assertApiError(legacy, 400, "max_output_tokens_exceeded");
    });

    test("the error names the field the client sent", async () => {
        const reply = await chat({messages: userMessages(1), max_completion_tokens: window + 1});
        assertApiError(reply, 400, "max_output_tokens_exceeded", "invalid_request_error", "max_completion_tokens");
    });

    test("an oversized max_tokens is ignored when max_completion_tokens sets the budget", async () => {
        const reply = await chat({messages: userMessages(1), max_tokens: window * 10, max_completion_tokens: 3});
        assert.equal(reply.status, 200, reply.text);
        assert.equal(reply.json.usage.completion_tokens, 3);
    });
});

describe("legacy completions at the window's edge", () => {
    async function assertServedWhole(prompt: string, budget: number) {
        const tokens = await tokenizePrompt(server.engine.model, prompt);
        const reply = await complete({prompt, max_tokens: budget});
        assert.equal(reply.status, 200, reply.text);
        assert.equal(reply.json.usage.prompt_tokens, tokens.length);
        assert.equal(reply.json.usage.total_tokens, window);
        await assertPromptIntact(tokens, reply.json.usage.completion_tokens);
    }

    test("short prompt, budget filling the window: served whole", async () => {
        const prompt = words(4);
        await assertServedWhole(prompt, window - (await tokenizePrompt(server.engine.model, prompt)).length);
    });

    test("long prompts (90%, 99% of the window) are not cut to leave free space", async () => {
        for (const budget of [30, 2, 1]) await assertServedWhole(words(window - budget - 1), budget);
    });

    test("one budget token more, or a prompt that fills the window, is a 400", async () => {
        const prompt = words(4);
        const room = window - (await tokenizePrompt(server.engine.model, prompt)).length;
        assertApiError(await complete({prompt, max_tokens: room + 1}), 400, "invalid_request", "invalid_request_error", String(room));
        assertApiError(await complete({prompt: words(window), max_tokens: 1}), 400, "invalid_request");
        assertApiError(await complete({prompt: ["hello", words(window)], max_tokens: 1}), 400, "invalid_request");
    });

    test("without a budget the default is fitted into the room the prompt leaves", async () => {
        const prompt = words(20);
        const reply = await complete({prompt});
        assert.equal(reply.status, 200, reply.text);
        assert.equal(reply.json.usage.total_tokens, window);
        assert.equal(reply.json.choices[0].finish_reason, "length");
    });
});
