import {test} from "node:test";
import assert from "node:assert/strict";
import {RateLimiter} from "./rateLimits.ts";

const limit = (requestsPerMinute: number | null, tokensPerMinute: number | null, model = "svc-1") => ({workspaceId: "ws", model, requestsPerMinute, tokensPerMinute});

test("requests per minute: a minute's burst, then 429 with Retry-After until the bucket refills; models are independent", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    for (let index = 0; index < 30; index++) limiter.admit(limit(30, null));
    assert.throws(() => limiter.admit(limit(30, null)), {status: 429, code: "rate_limit_exceeded", retryAfter: 2});
    limiter.admit(limit(30, null, "svc-1-decision"));
    now += 1_000;
    assert.throws(() => limiter.admit(limit(30, null)), {retryAfter: 1}, "half a request refilled");
    now += 1_000;
    limiter.admit(limit(30, null));
    assert.throws(() => limiter.admit(limit(30, null)), {status: 429});
    // A steady client at the rate is never refused.
    for (let index = 0; index < 100; index++) {
        now += 2_000;
        limiter.admit(limit(30, null));
    }
});

test("tokens per minute: a completed request's tokens can overdraw the bucket; the next waits until it is paid back", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    limiter.admit(limit(null, 600));
    limiter.spend(limit(null, 600), 700);
    assert.throws(() => limiter.admit(limit(null, 600)), {status: 429, retryAfter: 10, message: /600 tokens per minute/});
    now += 9_000;
    assert.throws(() => limiter.admit(limit(null, 600)), {retryAfter: 1});
    now += 1_001;
    limiter.admit(limit(null, 600));
    limiter.spend(limit(null, null), 1_000_000);
    limiter.admit(limit(null, 600));
});

test("a refused request takes nothing from either bucket", () => {
    const now = 0;
    const limiter = new RateLimiter(() => now);
    limiter.admit(limit(2, 10));
    limiter.spend(limit(2, 10), 20);
    assert.throws(() => limiter.admit(limit(2, 10)), {status: 429});
    limiter.spend(limit(2, 10), -0);
    // The request bucket still holds its second request: lift the token limit and it is admitted.
    limiter.admit(limit(2, null));
    assert.throws(() => limiter.admit(limit(2, null)), {status: 429});
});
