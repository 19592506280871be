import {test} from "node:test";
import assert from "node:assert/strict";
import {createServer} from "node:net";
import {ApiError} from "../../protocol/errors.ts";
import {HttpApiError, TransportError} from "./errors.ts";
import type {RetryOptions} from "./retry.ts";
import {SvcClient, type ChatCompletionBody} from "./SvcClient.ts";
import {empty, json, pause, type Reply, withTestServer} from "../../test/support/startTestServer.ts";

// Every test records the waits the policy asks for instead of sleeping them; the server is real.
function recordingRetry(extra: RetryOptions = {}): {retry: RetryOptions, delays: number[]} {
    const delays: number[] = [];
    return {delays, retry: {random: () => 0.5, baseDelayMs: 100, sleep: async (ms) => void delays.push(ms), ...extra}};
}

const ok = json(200, {id: "chatcmpl-1", object: "chat.completion", choices: []}, {"server-timing": "total;dur=4.5"});
const chatBody: ChatCompletionBody = {model: "svc-1", messages: [{role: "user", content: "hi"}]};

test("429 with Retry-After: 1 is retried after exactly 1000 ms, then succeeds", async () => {
    const {retry, delays} = recordingRetry();
    await withTestServer([json(429, {error: {message: "slow down", type: "rate_limit_exceeded", code: "rate_limit_exceeded"}}, {"retry-after": "1"}), ok], async (url, requests) => {
        const result = await new SvcClient({baseUrl: url, retry}).chatCompletions(chatBody);
        assert.equal(requests.length, 2);
        assert.deepEqual(delays, [1000]);
        assert.equal(result.meta.attempts, 2);
        assert.equal(result.meta.status, 200);
        assert.equal(result.data.id, "chatcmpl-1");
    });
});

test("Retry-After given as an HTTP date is honoured", async () => {
    const {retry, delays} = recordingRetry();
    const retryAt = () => new Date(Date.now() + 3000).toUTCString();
    await withTestServer([(res, req) => json(503, {error: {message: "busy", type: "api_error", code: "service_unavailable"}}, {"retry-after": retryAt()})(res, req), ok], async (url, requests) => {
        await new SvcClient({baseUrl: url, retry}).chatCompletions(chatBody);
        assert.equal(requests.length, 2);
        // HTTP dates have whole seconds, so 3 s ahead reads as more than 2 s and at most 3 s.
        assert.equal(delays.length, 1);
        assert.ok(delays[0] > 2000 && delays[0] <= 3000, `delay ${delays[0]}`);
    });
});

test("503 twice then 200: three attempts with growing jittered backoff", async () => {
    const {retry, delays} = recordingRetry();
    const busy = json(503, {error: {message: "unavailable", type: "api_error", code: "service_unavailable"}});
    await withTestServer([busy, busy, ok], async (url, requests) => {
        const result = await new SvcClient({baseUrl: url, retry}).chatCompletions(chatBody);
        assert.equal(requests.length, 3);
        assert.equal(result.meta.attempts, 3);
        // random() = 0.5 under ceilings of 100 and 200 ms.
        assert.deepEqual(delays, [50, 100]);
        // Each retry resends the same request.
        assert.deepEqual(requests.map((request) => JSON.parse(request.body)), [chatBody, chatBody, chatBody]);
    });
});

test("400 is not retried and comes back as the server's ApiError", async () => {
    const {retry, delays} = recordingRetry();
    const body = {error: {message: "max_tokens must be positive", type: "invalid_request_error", code: "invalid_request"}};
    await withTestServer([json(400, body), ok], async (url, requests) => {
        const error = await new SvcClient({baseUrl: url, retry}).chatCompletions(chatBody).catch((caught: unknown) => caught);
        assert.ok(error instanceof ApiError);
        assert.equal(error.status, 400);
        assert.equal(error.code, "invalid_request");
        assert.equal(error.message, body.error.message);
        assert.equal(requests.length, 1);
        assert.deepEqual(delays, []);
    });
});

test("401, 402 and 404 are not retried either", async () => {
    for (const [status, code] of [[401, "invalid_api_key"], [402, "insufficient_quota"], [404, "not_found"]] as const) {
        const {retry, delays} = recordingRetry();
        await withTestServer([json(status, {error: {message: code, type: "x", code}}), ok], async (url, requests) => {
            const error = await new SvcClient({baseUrl: url, retry}).listModels().catch((caught: unknown) => caught);
            assert.ok(error instanceof ApiError && error.status === status && error.code === code, `status ${status}`);
            assert.equal(requests.length, 1);
            assert.deepEqual(delays, []);
        });
    }
});

test("422 from /v1/systemone is not retried and keeps its detail list", async () => {
    const {retry, delays} = recordingRetry();
    const detail = [{loc: ["body", "questions", "q", "criteria"], msg: "choice needs at least two options", type: "value_error"}];
    await withTestServer([json(422, {detail}), ok], async (url, requests) => {
        const error = await new SvcClient({baseUrl: url, retry}).systemone({model: "svc-1-decision", state: "x", questions: {}}).catch((caught: unknown) => caught);
        assert.ok(error instanceof HttpApiError);
        assert.equal(error.status, 422);
        assert.deepEqual(error.detail, detail);
        assert.match(error.message, /body\.questions\.q\.criteria: choice needs at least two options/);
        assert.equal(requests.length, 1);
        assert.equal(requests[0].url, "/svc-1-decision/v1/systemone");
        assert.deepEqual(delays, []);
    });
});

test("a 5xx with no body is retried by status until attempts run out, then thrown", async () => {
    const {retry, delays} = recordingRetry({maxAttempts: 3});
    await withTestServer([empty(500)], async (url, requests) => {
        const error = await new SvcClient({baseUrl: url, retry}).decisions({model: "svc-1-decision", input: "x", questions: []}).catch((caught: unknown) => caught);
        assert.ok(error instanceof HttpApiError);
        assert.equal(error.status, 500);
        assert.equal(error.type, "api_error");
        assert.equal(error.body, null);
        assert.equal(requests.length, 3);
        assert.equal(delays.length, 2);
    });
});

test("a bodiless 502 followed by success recovers", async () => {
    const {retry} = recordingRetry();
    await withTestServer([empty(502), ok], async (url, requests) => {
        const result = await new SvcClient({baseUrl: url, retry}).chatCompletions(chatBody);
        assert.equal(result.meta.attempts, 2);
        assert.equal(requests.length, 2);
    });
});

test("a Retry-After longer than the maximum delay is not waited out", async () => {
    const {retry, delays} = recordingRetry({maxDelayMs: 2000});
    await withTestServer([json(429, {error: {message: "later", type: "rate_limit_exceeded", code: "rate_limit_exceeded"}}, {"retry-after": "60"}), ok], async (url, requests) => {
        const error = await new SvcClient({baseUrl: url, retry}).chatCompletions(chatBody).catch((caught: unknown) => caught);
        assert.ok(error instanceof ApiError);
        assert.equal(error.status, 429);
        assert.equal(error.retryAfter, 60);
        assert.equal(requests.length, 1);
        assert.deepEqual(delays, []);
    });
});

test("a client timeout counts as transient: the slow attempt is abandoned and retried", async () => {
    const {retry, delays} = recordingRetry();
    const slow: Reply = async (res, req) => {
        await pause(1500);
        if (!res.destroyed) await ok(res, req);
    };
    await withTestServer([slow, ok], async (url, requests) => {
        const started = performance.now();
        const result = await new SvcClient({baseUrl: url, retry, timeoutMs: 200}).chatCompletions(chatBody);
        assert.equal(result.meta.attempts, 2);
        assert.equal(requests.length, 2);
        assert.equal(delays.length, 1);
        assert.ok(performance.now() - started < 1400, "the slow reply was not waited for");
        // The abandoned attempt's connection was closed by the client.
        await requests[0].closed;
    });
});

test("a refused connection is a network TransportError, retried up to maxAttempts", async () => {
    // Take a free port and release it, so nothing listens there.
    const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, "127.0.0.1", () => {
            const {port: free} = probe.address() as {port: number};
            probe.close(() => resolve(free));
        });
    });
    const {retry, delays} = recordingRetry({maxAttempts: 3});
    const error = await new SvcClient({baseUrl: `http://127.0.0.1:${port}`, retry}).listModels().catch((caught: unknown) => caught);
    assert.ok(error instanceof TransportError);
    assert.equal(error.kind, "network");
    assert.equal(delays.length, 2);
});

test("aborting during a Retry-After wait ends the call at once", async () => {
    await withTestServer([json(429, {error: {message: "wait", type: "rate_limit_exceeded", code: "rate_limit_exceeded"}}, {"retry-after": "5"}), ok], async (url, requests) => {
        const controller = new AbortController();
        const started = performance.now();
        // The real sleep this time: the abort must cut it short.
        const call = new SvcClient({baseUrl: url}).chatCompletions(chatBody, {signal: controller.signal});
        setTimeout(() => controller.abort(), 100);
        const error = await call.catch((caught: unknown) => caught);
        assert.equal((error as Error).name, "AbortError");
        assert.ok(performance.now() - started < 2000);
        assert.equal(requests.length, 1);
    });
});

test("retry: false sends once", async () => {
    await withTestServer([empty(503), ok], async (url, requests) => {
        const error = await new SvcClient({baseUrl: url, retry: {sleep: async () => undefined}}).chatCompletions(chatBody, {retry: false}).catch((caught: unknown) => caught);
        assert.ok(error instanceof ApiError && error.status === 503);
        assert.equal(requests.length, 1);
    });
});
