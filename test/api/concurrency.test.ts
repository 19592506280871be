// Parallel sequences, the bounded queue (429 service_busy with Retry-After) and client disconnects.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi, type ApiReply} from "./utils/callApi.ts";
import {sequenceMeters} from "./utils/sequenceMeters.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {waitFor} from "./utils/waitFor.ts";

const longBudget = 3000;
// The fixture's greedy answer to "Hello" falls into a loop and never ends by itself, so these requests run
// until their budget or until their client leaves.
const longChat = (stream: boolean) => ({model: "svc-1", messages: [{role: "user", content: "Hello"}], max_tokens: longBudget, temperature: 0, stream});

/** A streaming request that is left open: resolves once `events` SSE events have arrived. */
async function openStream(server: TestServer, {events = 2} = {}) {
    const controller = new AbortController();
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
        method: "POST",
        headers: {"Authorization": `Bearer ${server.apiKey}`, "Content-Type": "application/json"},
        body: JSON.stringify(longChat(true)),
        signal: controller.signal
    });
    assert.equal(response.status, 200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (text.split("\n\n").length - 1 < events) {
        const {value, done} = await reader.read();
        if (done) throw new Error("the stream ended early");
        text += decoder.decode(value, {stream: true});
    }
    return {text, abort: () => controller.abort(), finished: () => text.includes("data: [DONE]")};
}

describe("parallel 2", () => {
    let server: TestServer;
    before(async () => {
        server = await startTestServer({parallel: 2});
    });
    after(async () => {
        await server?.close();
    });

    test("serves two requests at once", async () => {
        assert.equal(server.engine.scheduler.idle, 2);
        const [first, second] = await Promise.all([openStream(server), openStream(server)]);
        try {
            assert.equal(server.engine.scheduler.idle, 0, "both sequences are generating");
            assert.equal(server.engine.scheduler.queued, 0, "neither request waits");
            assert.ok(!first.finished() && !second.finished());
        } finally {
            first.abort();
            second.abort();
        }
        await waitFor(() => server.engine.scheduler.idle === 2, {what: "both sequences to be free again"});
    });

    test("concurrent requests each get their own correct answer", async () => {
        const body = (content: string) => ({model: "svc-1", messages: [{role: "user" as const, content}], max_tokens: 48, temperature: 0});
        const prompts = ["Is the sky blue?", "Tell me a story"];
        const together = await Promise.all(prompts.map((content) => server.client.chat.completions.create(body(content))));
        const alone: Array<Awaited<typeof together>[number]> = [];
        for (const content of prompts) alone.push(await server.client.chat.completions.create(body(content)));
        together.forEach((completion, index) => {
            assert.equal(completion.usage?.completion_tokens, 48);
            assert.equal(completion.usage?.prompt_tokens, alone[index].usage?.prompt_tokens);
            assert.equal(completion.choices[0].message.content, alone[index].choices[0].message.content, "greedy output does not depend on company");
        });
        assert.notEqual(together[0].choices[0].message.content, together[1].choices[0].message.content, "answers are not crossed or shared");
    });
});

describe("parallel 1 with a queue of 1", () => {
    let server: TestServer;
    before(async () => {
        server = await startTestServer({parallel: 1, maxQueue: 1});
    });
    after(async () => {
        await server?.close();
    });

    test("a third concurrent request is refused with 429 service_busy and Retry-After", async () => {
        const controllers = [0, 1, 2].map(() => new AbortController());
        const settled: Array<ApiReply | Error> = [];
        const calls = controllers.map((controller) =>
            callApi(server, {path: "/chat/completions", body: longChat(true), signal: controller.signal})
                .then((reply) => void settled.push(reply), (error: Error) => void settled.push(error)));
        try {
            // The refused request answers at once; the served one answers with its first token; the queued one waits.
            await waitFor(() => server.engine.scheduler.queued === 1 && settled.length >= 1, {what: "one request queued and one refused"});
            const refused = settled.find((reply): reply is ApiReply => !(reply instanceof Error) && reply.status === 429);
            assert.ok(refused != null, `settled: ${settled.map((reply) => reply instanceof Error ? reply.message : reply.status).join(", ")}`);
            assertApiError(refused, 429, "service_busy", "rate_limit_exceeded");
            const retryAfter = Number(refused.headers.get("retry-after"));
            assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${refused.headers.get("retry-after")}`);
            assert.equal(server.engine.scheduler.idle, 0);
        } finally {
            for (const controller of controllers) controller.abort();
        }
        await Promise.all(calls);
        await waitFor(() => server.engine.scheduler.idle === 1 && server.engine.scheduler.queued === 0, {what: "the engine to be idle", timeoutMs: 3_000});
    });

    test("a client that disconnects from a stream stops its generation and frees the sequence", async () => {
        const before = await sequenceMeters(server.engine);
        const stream = await openStream(server, {events: 3});
        assert.equal(server.engine.scheduler.idle, 0);
        stream.abort();
        const freedAfter = await waitFor(() => server.engine.scheduler.idle === 1, {what: "the sequence to be released", timeoutMs: 2_000});
        assert.ok(freedAfter < 1_000, `freed after ${freedAfter.toFixed(0)} ms`);
        const generated = (await sequenceMeters(server.engine)).output - before.output;
        assert.ok(generated < longBudget / 2, `${generated} tokens were generated for a client that left`);

        const startedAt = performance.now();
        const next = await callApi(server, {path: "/chat/completions", body: {...longChat(false), max_tokens: 4}});
        assert.equal(next.status, 200);
        assert.ok(performance.now() - startedAt < 2_000, "the next request is served promptly");
    });

    test("a client that disconnects from a non-streaming request stops its generation too", async () => {
        const before = await sequenceMeters(server.engine);
        const controller = new AbortController();
        const call = callApi(server, {path: "/chat/completions", body: longChat(false), signal: controller.signal}).catch((error: Error) => error);
        await waitFor(() => server.engine.scheduler.idle === 0, {what: "the request to start"});
        await new Promise((resolve) => setTimeout(resolve, 100));
        controller.abort();
        const outcome = await call;
        assert.ok(outcome instanceof Error, `the request was answered before the client left: ${outcome instanceof Error ? "" : outcome.text.slice(0, 300)}`);
        await waitFor(() => server.engine.scheduler.idle === 1, {what: "the sequence to be released", timeoutMs: 2_000});
        const generated = (await sequenceMeters(server.engine)).output - before.output;
        assert.ok(generated < longBudget / 2, `${generated} tokens were generated for a client that left`);
    });

    test("a queued client that disconnects leaves the queue", async () => {
        const running = await openStream(server);
        const controller = new AbortController();
        const queued = callApi(server, {path: "/chat/completions", body: longChat(false), signal: controller.signal}).catch((error: Error) => error);
        try {
            await waitFor(() => server.engine.scheduler.queued === 1, {what: "the second request to queue"});
            controller.abort();
            await waitFor(() => server.engine.scheduler.queued === 0, {what: "the queue to empty", timeoutMs: 1_000});
            assert.ok(!running.finished());
        } finally {
            running.abort();
        }
        assert.ok(await queued instanceof Error);
        await waitFor(() => server.engine.scheduler.idle === 1, {what: "the engine to be idle"});
    });
});
