import {test} from "node:test";
import assert from "node:assert/strict";
import {ApiError} from "../../protocol/errors.ts";
import {TransportError} from "./errors.ts";
import type {RetryOptions} from "./retry.ts";
import {SvcClient, type ChatCompletionBody, type ResponseMeta} from "./SvcClient.ts";
import {empty, json, pause, sse, type Reply, withTestServer} from "../../test/support/startTestServer.ts";

const encoder = new TextEncoder();
const noWait: RetryOptions = {sleep: async () => undefined};
const chatBody: ChatCompletionBody = {model: "svc-1", messages: [{role: "user", content: "hi"}]};

const chunks = [
    {id: "c1", object: "chat.completion.chunk", choices: [{index: 0, delta: {role: "assistant", reasoning: "think "}}]},
    {id: "c1", object: "chat.completion.chunk", choices: [{index: 0, delta: {content: "日本語 🙂 "}}]},
    {id: "c1", object: "chat.completion.chunk", choices: [{index: 0, delta: {content: "done"}, finish_reason: "stop"}]},
    {id: "c1", object: "chat.completion.chunk", choices: [], usage: {prompt_tokens: 3, completion_tokens: 4, total_tokens: 7}}
];

/** The chunks as an event stream with mixed line ends and a comment, cut at awkward byte offsets. */
function oddlySplitChatStream(): Uint8Array[] {
    const text = ": open\r\n\r\n" + chunks.map((chunk, index) => `data: ${JSON.stringify(chunk)}${index % 2 ? "\r\n\r\n" : "\n\n"}`).join("") + "data: [DONE]\n\n";
    const bytes = encoder.encode(text);
    // Cut inside the comment, inside "data:", between CR and LF, and inside a 3-byte and a 4-byte character.
    const cuts = new Set<number>([3, 12, 14]);
    const crlf = text.indexOf("\r\n\r\n", 12);
    cuts.add(encoder.encode(text.slice(0, crlf + 1)).length);
    const kanji = encoder.encode(text.slice(0, text.indexOf("本"))).length;
    cuts.add(kanji + 1);
    const emoji = encoder.encode(text.slice(0, text.indexOf("🙂"))).length;
    cuts.add(emoji + 2);
    for (let cut = 40; cut < bytes.length; cut += 37) cuts.add(cut);
    const sorted = [...cuts].filter((cut) => cut > 0 && cut < bytes.length).sort((a, b) => a - b);
    const pieces: Uint8Array[] = [];
    let start = 0;
    for (const cut of [...sorted, bytes.length]) {
        pieces.push(bytes.slice(start, cut));
        start = cut;
    }
    return pieces;
}

test("chat stream in odd chunk splits yields every chunk intact, and meta once open", async () => {
    const pieces = oddlySplitChatStream();
    await withTestServer([sse(pieces, {headers: {"server-timing": "total;dur=8.25", "x-client-trace-id": "trace-7"}})], async (url, requests) => {
        let opened: ResponseMeta | null = null;
        const stream = new SvcClient({baseUrl: url, apiKey: "ck_test"}).streamChatCompletions(chatBody, {traceId: "trace-7", onOpen: (meta) => {
            opened = meta;
        }});
        assert.equal(stream.meta as ResponseMeta | null, null, "meta is empty before iteration");
        const received = await stream.toArray();
        assert.deepEqual(received, chunks);
        assert.ok(pieces.length > 10);
        assert.equal(stream.meta?.serverTimingMs, 8.25);
        assert.equal(stream.meta?.traceId, "trace-7");
        assert.equal(stream.meta?.attempts, 1);
        assert.equal(opened, stream.meta);
        assert.equal(requests[0].url, "/svc-1/v1/chat/completions");
        assert.equal(requests[0].headers.accept, "text/event-stream");
        assert.equal(requests[0].headers.authorization, "Bearer ck_test");
        assert.deepEqual(JSON.parse(requests[0].body), {...chatBody, stream: true});
    });
});

test("legacy completions stream on its own path", async () => {
    const chunk = {id: "cmpl-1", object: "text_completion", choices: [{index: 0, text: "Once"}]};
    await withTestServer([sse([`data: ${JSON.stringify(chunk)}\n\n`, "data: [DONE]\n\n"])], async (url, requests) => {
        const received = await new SvcClient({baseUrl: url}).streamCompletions({model: "svc-1", prompt: "x"}).toArray();
        assert.deepEqual(received, [chunk]);
        assert.equal(requests[0].url, "/svc-1/v1/completions");
    });
});

test("Responses stream: events come back as {type, ...}, type taken from the event: line when the data lacks it", async () => {
    const wire = [
        "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\"}}\n\n",
        "event: response.output_text.delta\ndata: {\"delta\":\"Hel",
        "lo\"}\n\n",
        "event: response.completed\r\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\"}}\r\n\r\n"
    ];
    await withTestServer([sse(wire)], async (url, requests) => {
        const events = await new SvcClient({baseUrl: `${url}/`}).streamResponses({model: "svc-1", input: "hi"}).toArray();
        assert.deepEqual(events.map((event) => event.type), ["response.created", "response.output_text.delta", "response.completed"]);
        assert.equal(events[1].delta, "Hello");
        assert.equal(requests[0].url, "/svc-1/v1/responses");
    });
});

test("a stream failing before its first byte is retried; the retry's stream is read", async () => {
    const pieces = oddlySplitChatStream();
    await withTestServer([empty(503), json(429, {error: {message: "busy", type: "rate_limit_exceeded", code: "service_busy"}}, {"retry-after": "0"}), sse(pieces)], async (url, requests) => {
        const stream = new SvcClient({baseUrl: url, retry: noWait}).streamChatCompletions(chatBody);
        assert.deepEqual(await stream.toArray(), chunks);
        assert.equal(requests.length, 3);
        assert.equal(stream.meta?.attempts, 3);
    });
});

test("a stream that closes with no data at all counts as not started, and is retried", async () => {
    await withTestServer([sse([]), sse(oddlySplitChatStream())], async (url, requests) => {
        assert.deepEqual(await new SvcClient({baseUrl: url, retry: noWait}).streamChatCompletions(chatBody).toArray(), chunks);
        assert.equal(requests.length, 2);
    });
});

test("a stream that breaks after its first byte is not retried", async () => {
    const first = `data: ${JSON.stringify(chunks[0])}\n\n`;
    await withTestServer([sse([first, "data: {\"id\":"], {end: "destroy"}), sse(oddlySplitChatStream())], async (url, requests) => {
        const received: unknown[] = [];
        const error = await (async () => {
            for await (const chunk of new SvcClient({baseUrl: url, retry: noWait}).streamChatCompletions(chatBody)) received.push(chunk);
        })().catch((caught: unknown) => caught);
        assert.ok(error instanceof TransportError, String(error));
        assert.equal(error.kind, "interrupted");
        assert.deepEqual(received, [chunks[0]]);
        assert.equal(requests.length, 1);
    });
});

test("a chat stream that ends cleanly but without [DONE] is reported as cut off", async () => {
    await withTestServer([sse([`data: ${JSON.stringify(chunks[0])}\n\n`])], async (url) => {
        const error = await new SvcClient({baseUrl: url, retry: noWait}).streamChatCompletions(chatBody).toArray().catch((caught: unknown) => caught);
        assert.ok(error instanceof TransportError && error.kind === "interrupted");
    });
});

test("an error object sent inside the stream is thrown as an ApiError", async () => {
    const failure = {error: {message: "engine crashed", type: "api_error", code: "upstream_error"}};
    await withTestServer([sse([`data: ${JSON.stringify(chunks[0])}\n\n`, `data: ${JSON.stringify(failure)}\n\n`])], async (url) => {
        const error = await new SvcClient({baseUrl: url}).streamChatCompletions(chatBody).toArray().catch((caught: unknown) => caught);
        assert.ok(error instanceof ApiError);
        assert.equal(error.code, "upstream_error");
        assert.equal(error.message, "engine crashed");
    });
});

test("a 400 on a stream request is thrown before any chunk, without retry", async () => {
    const body = {error: {message: "forced tool_choice is not supported when streaming", type: "invalid_request_error", code: "invalid_request"}};
    await withTestServer([json(400, body)], async (url, requests) => {
        const error = await new SvcClient({baseUrl: url, retry: noWait}).streamChatCompletions({...chatBody, tool_choice: "required"}).toArray().catch((caught: unknown) => caught);
        assert.ok(error instanceof ApiError && error.status === 400);
        assert.equal(error.message, body.error.message);
        assert.equal(requests.length, 1);
    });
});

/** Sends one chunk every 20 ms until the client goes away; counts what it wrote. */
function endless(counter: {written: number}): Reply {
    return async (res) => {
        res.writeHead(200, {"content-type": "text/event-stream"});
        while (!res.destroyed && !res.writableEnded) {
            res.write(`data: ${JSON.stringify({...chunks[1], n: counter.written})}\n\n`);
            counter.written++;
            await pause(20);
        }
    };
}

test("aborting mid-stream stops the reading and closes the connection", {timeout: 10_000}, async () => {
    const counter = {written: 0};
    await withTestServer([endless(counter)], async (url, requests) => {
        const controller = new AbortController();
        const received: unknown[] = [];
        const error = await (async () => {
            for await (const chunk of new SvcClient({baseUrl: url}).streamChatCompletions(chatBody, {signal: controller.signal})) {
                received.push(chunk);
                if (received.length === 3) controller.abort();
            }
        })().catch((caught: unknown) => caught);
        assert.equal((error as Error).name, "AbortError");
        assert.equal(received.length, 3);
        // The server sees the connection close promptly, and stops writing.
        await Promise.race([requests[0].closed, pause(2000).then(() => assert.fail("connection still open after abort"))]);
        const writtenAtClose = counter.written;
        await pause(100);
        assert.equal(counter.written, writtenAtClose);
    });
});

test("an abort while waiting for the next chunk ends the wait at once", {timeout: 10_000}, async () => {
    await withTestServer([sse([`data: ${JSON.stringify(chunks[0])}\n\n`], {end: "hang"})], async (url, requests) => {
        const controller = new AbortController();
        const stream = new SvcClient({baseUrl: url}).streamChatCompletions(chatBody, {signal: controller.signal});
        const started = performance.now();
        const error = await (async () => {
            for await (const _chunk of stream) setTimeout(() => controller.abort(), 50);
        })().catch((caught: unknown) => caught);
        assert.equal((error as Error).name, "AbortError");
        assert.ok(performance.now() - started < 1500);
        await requests[0].closed;
    });
});

test("an abort reaches the stream even through a fetch that ignores signals", {timeout: 10_000}, async () => {
    const counter = {written: 0};
    await withTestServer([endless(counter)], async (url, requests) => {
        const controller = new AbortController();
        const deafFetch = (input: string, init: RequestInit) => fetch(input, {...init, signal: undefined});
        let received = 0;
        const error = await (async () => {
            for await (const _chunk of new SvcClient({baseUrl: url, fetch: deafFetch}).streamChatCompletions(chatBody, {signal: controller.signal}))
                if (++received === 2) controller.abort();
        })().catch((caught: unknown) => caught);
        assert.equal((error as Error).name, "AbortError");
        assert.equal(received, 2);
        await Promise.race([requests[0].closed, pause(2000).then(() => assert.fail("connection still open after abort"))]);
    });
});

test("breaking out of the loop closes the connection", {timeout: 10_000}, async () => {
    const counter = {written: 0};
    await withTestServer([endless(counter)], async (url, requests) => {
        for await (const _chunk of new SvcClient({baseUrl: url}).streamChatCompletions(chatBody)) break;
        await Promise.race([requests[0].closed, pause(2000).then(() => assert.fail("connection still open after break"))]);
    });
});

test("a stream can be iterated only once", async () => {
    await withTestServer([sse(oddlySplitChatStream())], async (url) => {
        const stream = new SvcClient({baseUrl: url}).streamChatCompletions(chatBody);
        await stream.toArray();
        assert.throws(() => stream[Symbol.asyncIterator](), /only once/);
    });
});
