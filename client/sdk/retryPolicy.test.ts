import {test} from "node:test";
import assert from "node:assert/strict";
import {ApiError} from "../../protocol/errors.ts";
import {TransportError} from "./errors.ts";
import {retryPolicy, withRetry} from "./retry.ts";

const errorWithStatus = (status: number, retryAfter?: number) => new ApiError(status, "x", "x", {retryAfter});

test("retries 408, 429 and 5xx; never 400, 401, 402, 404, 413, 422", () => {
    const policy = retryPolicy({random: () => 0.5});
    for (const status of [408, 429, 500, 502, 503, 504])
        assert.equal(policy.decide(errorWithStatus(status), 1).retry, true, `status ${status}`);
    for (const status of [400, 401, 402, 404, 413, 422, 501, 505])
        assert.equal(policy.decide(errorWithStatus(status), 1).retry, false, `status ${status}`);
});

test("network failures and client timeouts are transient; interrupted streams and other errors are not", () => {
    const policy = retryPolicy();
    assert.equal(policy.decide(new TransportError("network", "x"), 1).retry, true);
    assert.equal(policy.decide(new TransportError("timeout", "x"), 1).retry, true);
    assert.equal(policy.decide(new TransportError("interrupted", "x"), 1).retry, false);
    assert.equal(policy.decide(new DOMException("aborted", "AbortError"), 1).retry, false);
    assert.equal(policy.decide(new TypeError("bug"), 1).retry, false);
});

test("backoff is full jitter: a uniform draw below an exponentially growing, capped ceiling", () => {
    const draws = [0, 0.25, 0.999999];
    for (const draw of draws) {
        const policy = retryPolicy({maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1000, random: () => draw});
        const delays = [1, 2, 3, 4, 5, 6].map((attempt) => {
            const decision = policy.decide(errorWithStatus(503), attempt);
            assert.equal(decision.retry, true);
            return decision.retry ? decision.delayMs : -1;
        });
        const ceilings = [100, 200, 400, 800, 1000, 1000];
        delays.forEach((delay, index) => {
            assert.equal(delay, Math.floor(draw * ceilings[index]), `attempt ${index + 1}, draw ${draw}`);
            assert.ok(delay >= 0 && delay < ceilings[index]);
        });
    }
});

test("Retry-After is honoured exactly, and one beyond the maximum delay ends the retries", () => {
    const policy = retryPolicy({maxDelayMs: 5000, random: () => 0});
    assert.deepEqual(policy.decide(errorWithStatus(429, 1), 1), {retry: true, delayMs: 1000});
    assert.deepEqual(policy.decide(errorWithStatus(503, 2.5), 1), {retry: true, delayMs: 2500});
    assert.deepEqual(policy.decide(errorWithStatus(429, 6), 1), {retry: false});
    // Retry-After on a status that is never retried changes nothing.
    assert.deepEqual(policy.decide(errorWithStatus(400, 1), 1), {retry: false});
});

test("attempts are bounded, and retry: false sends once", () => {
    const policy = retryPolicy({maxAttempts: 3});
    assert.equal(policy.decide(errorWithStatus(503), 2).retry, true);
    assert.equal(policy.decide(errorWithStatus(503), 3).retry, false);
    const once = retryPolicy(false);
    assert.equal(once.maxAttempts, 1);
    assert.equal(once.decide(errorWithStatus(503), 1).retry, false);
});

test("waitOutRateLimits: a 429 with Retry-After is retried however often and long it asks, without using up an attempt", () => {
    const policy = retryPolicy({maxAttempts: 2, maxDelayMs: 5000, waitOutRateLimits: true});
    assert.deepEqual(policy.decide(errorWithStatus(429, 60), 2), {retry: true, delayMs: 60_000, free: true});
    // A 429 without Retry-After, and other statuses, still count and stay bounded.
    assert.equal(policy.decide(errorWithStatus(429), 2).retry, false);
    assert.equal(policy.decide(errorWithStatus(503, 1), 2).retry, false);
});

test("withRetry: refusals waited out under waitOutRateLimits do not count towards maxAttempts", async () => {
    const waits: number[] = [];
    const policy = retryPolicy({maxAttempts: 2, waitOutRateLimits: true, random: () => 0, sleep: async (ms) => {
        waits.push(ms);
    }});
    // Five rate-limit refusals, then one 503 (the first counted failure), then an answer.
    const replies = [...Array.from({length: 5}, () => errorWithStatus(429, 1)), errorWithStatus(503), "ok"];
    const {value, attempts} = await withRetry(policy, undefined, async () => {
        const reply = replies.shift();
        if (reply instanceof Error) throw reply;
        return reply;
    });
    assert.equal(value, "ok");
    assert.equal(attempts, 7);
    assert.deepEqual(waits, [1000, 1000, 1000, 1000, 1000, 0]);
    // Without it, the same refusals end the call at the second attempt.
    const bounded = retryPolicy({maxAttempts: 2, sleep: async () => undefined});
    await assert.rejects(withRetry(bounded, undefined, async () => {
        throw errorWithStatus(429, 1);
    }), (error: ApiError) => error.status === 429);
});
