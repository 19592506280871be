import {ApiError} from "../../protocol/errors.ts";
import type {RateLimit} from "../../protocol/admin/contract.ts";

type Bucket = {capacity: number, level: number, updatedAt: number};

const minuteMs = 60_000;

/**
 * Spec §8: a sustained rate per workspace per model, each model independent; past it, 429 `rate_limit_exceeded`
 * with `Retry-After` (§7), which is not charged. One token bucket per limit: it holds a minute's worth (the
 * burst) and refills at the per-minute rate, so a steady client at the rate is never refused.
 *
 * Requests: one taken per admitted request. Tokens: the bucket must not be empty to admit, and a completed
 * request's tokens are taken when it settles (its size is not known before), so one large request can overdraw
 * it and the next waits until it refills. The buckets live in this process; a restart starts them full.
 */
export class RateLimiter {
    private readonly buckets = new Map<string, Bucket>();
    private readonly now: () => number;

    public constructor(now: () => number = () => performance.now()) {
        this.now = now;
    }

    /** Throws the 429 when either of the workspace's limits for the model is spent; takes one request otherwise. */
    public admit(limit: RateLimit) {
        const requests = limit.requestsPerMinute != null ? this.bucket(limit, "requests", limit.requestsPerMinute) : undefined;
        const tokens = limit.tokensPerMinute != null ? this.bucket(limit, "tokens", limit.tokensPerMinute) : undefined;
        if (requests != null && requests.level < 1) throw rateRefusal(limit, "requests", waitMs(requests, 1));
        // Above zero rather than at least one: a bucket a large request overdrew admits again once it is paid back.
        if (tokens != null && tokens.level <= 0) throw rateRefusal(limit, "tokens", waitMs(tokens, Number.EPSILON));
        if (requests != null) requests.level -= 1;
    }

    /** Takes a completed request's tokens from the workspace's token bucket for the model, if it has one. */
    public spend(limit: RateLimit, tokenCount: number) {
        if (limit.tokensPerMinute == null || tokenCount <= 0) return;
        this.bucket(limit, "tokens", limit.tokensPerMinute).level -= tokenCount;
    }

    /** The bucket, refilled up to now; a changed limit keeps what is left, up to the new capacity. */
    private bucket(limit: RateLimit, kind: "requests" | "tokens", capacity: number): Bucket {
        const key = `${limit.workspaceId}\u0000${limit.model}\u0000${kind}`;
        const now = this.now();
        let bucket = this.buckets.get(key);
        if (bucket == null) {
            bucket = {capacity, level: capacity, updatedAt: now};
            this.buckets.set(key, bucket);
        }
        bucket.level = Math.min(capacity, bucket.level + (now - bucket.updatedAt) * capacity / minuteMs);
        bucket.capacity = capacity;
        bucket.updatedAt = now;
        return bucket;
    }
}

/** Milliseconds until the bucket holds `level`. */
export function waitMs(bucket: {level: number, capacity: number}, level: number): number {
    return (level - bucket.level) * minuteMs / bucket.capacity;
}

/** The 429 of a spent bucket of `kind`, due to refill in `wait` ms. */
export function rateRefusal(limit: RateLimit, kind: "requests" | "tokens", wait: number): ApiError {
    const rate = `${kind === "requests" ? limit.requestsPerMinute : limit.tokensPerMinute} ${kind}`;
    // Spec §4 and §7: Retry-After in whole seconds, rounded up so a client that honours it is admitted.
    const retryAfter = Math.max(1, Math.ceil(wait / 1000));
    return new ApiError(429, "rate_limit_exceeded", `workspace ${limit.workspaceId} is over its rate limit for ${limit.model} ` +
        `(${rate} per minute); retry after ${retryAfter} s`, {retryAfter});
}
