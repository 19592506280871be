import {ApiError} from "../../protocol/errors.ts";
import {TransportError} from "./errors.ts";
import {abortReason, backoffDelay, sleep} from "../../base/common/sleep.ts";

export type RetryOptions = {
    /** Total attempts, the first included. Default 4. */
    maxAttempts?: number,
    /** Backoff cap before jitter for attempt n is `baseDelayMs * 2^(n-1)`. Default 500. */
    baseDelayMs?: number,
    /** Longest wait between attempts; a `Retry-After` beyond it ends the retries. Default 30 000. */
    maxDelayMs?: number,
    /** Statuses worth another try. Default: 408, 429 and every 5xx but 501 and 505 (spec §7). */
    retryStatus?: (status: number) => boolean,
    /** Injected in tests to record delays instead of waiting. */
    sleep?: (ms: number, signal?: AbortSignal) => Promise<void>,
    /** Injected in tests for a fixed jitter; returns [0, 1). */
    random?: () => number,
    /** Called before each wait, e.g. to show "retrying in 2 s" in a UI. */
    onRetry?: (info: {attempt: number, delayMs: number, error: unknown}) => void,
    /**
     * A 429 that carries `Retry-After` is waited out and sent again however often it comes and however long it asks
     * to wait: it counts in neither `maxAttempts` nor `maxDelayMs`. For a job that must slow down under a rate limit,
     * never fail for it; its abort signal still ends the wait at once.
     */
    waitOutRateLimits?: boolean,
    /** Shares a server's rate limit among concurrent requests (a job's workers): asked before every attempt. */
    pacer?: RequestPacer
};

/**
 * Paces the attempts of several requests to one rate limit. A lane is what one limit covers: the client names it by
 * its base URL and the path's model segment (spec §8: per workspace per model). `ready` resolves when an attempt on
 * the lane may start, to a ticket the attempt's outcome is told with: `admitted` for any reply but a 429 with
 * `Retry-After` (the limit let it through), `refused` for that one.
 */
export type RequestPacer = {
    ready(lane: string, signal?: AbortSignal): Promise<PaceTicket>,
    admitted(ticket: PaceTicket): void,
    refused(ticket: PaceTicket, retryAfterMs: number): void
};

/** One attempt's place on its lane: when it started, and whether it had to wait for the pace first. */
export type PaceTicket = {lane: string, startedAt: number, waited: boolean};

/**
 * `free`: a rate-limit refusal waited out under `waitOutRateLimits`, which does not count as one of the attempts.
 */
export type RetryDecision = {retry: false} | {retry: true, delayMs: number, free?: true};

export type RetryPolicy = {
    readonly maxAttempts: number,
    /**
     * Whether to try again after `attempt` (1-based, counting the attempts that count: see `free`) failed with
     * `error`, and how long to wait first.
     */
    decide(error: unknown, attempt: number): RetryDecision,
    sleep(ms: number, signal?: AbortSignal): Promise<void>,
    onRetry?: RetryOptions["onRetry"],
    pacer?: RequestPacer
};

// 400, 401, 402, 404, 413, 422 only change when the request or account changes: never retried as is.
// "Retry all 5xx by status" (spec §7), except the two that say the server will never do this.
const defaultRetryStatus = (status: number) =>
    status === 408 || status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);

/**
 * Spec §7 retry policy: exponential backoff with full jitter (a uniform wait in [0, cap)), `Retry-After`
 * honoured exactly when the server sends it, bounded attempts and delay. Network errors and the client's
 * own timeouts count as transient; a user abort never does.
 */
export function retryPolicy(options: RetryOptions | false = {}): RetryPolicy {
    const settings = options === false ? {maxAttempts: 1} : options;
    const maxAttempts = Math.max(1, Math.floor(settings.maxAttempts ?? 4));
    const baseDelayMs = settings.baseDelayMs ?? 500;
    const maxDelayMs = settings.maxDelayMs ?? 30_000;
    const retryStatus = settings.retryStatus ?? defaultRetryStatus;
    const random = settings.random ?? Math.random;

    return {
        maxAttempts,
        sleep: settings.sleep ?? sleep,
        onRetry: settings.onRetry,
        pacer: settings.pacer,
        decide(error, attempt) {
            const retryAfter = error instanceof ApiError ? error.retryAfter : undefined;
            if (settings.waitOutRateLimits === true && retryAfter != null && (error as ApiError).status === 429)
                return {retry: true, delayMs: Math.ceil(retryAfter * 1000), free: true};
            if (attempt >= maxAttempts || !isTransient(error, retryStatus)) return {retry: false};
            if (retryAfter != null) {
                const delayMs = Math.ceil(retryAfter * 1000);
                // Retrying sooner than asked would be refused again; waiting longer than allowed is the caller's call.
                return delayMs <= maxDelayMs ? {retry: true, delayMs} : {retry: false};
            }
            const cap = backoffDelay(attempt, baseDelayMs, maxDelayMs);
            return {retry: true, delayMs: Math.floor(random() * cap)};
        }
    };
}

function isTransient(error: unknown, retryStatus: (status: number) => boolean): boolean {
    if (error instanceof ApiError) return retryStatus(error.status);
    if (error instanceof TransportError) return error.kind === "network" || error.kind === "timeout";
    return false;
}

/**
 * Runs `attempt` until it succeeds or the policy gives up; the last error is rethrown as is. `attempts` counts every
 * attempt made, rate-limit refusals waited out included. A user abort (the signal) ends it at once, also in the
 * middle of a wait.
 */
export async function withRetry<T>(policy: RetryPolicy, signal: AbortSignal | undefined, attempt: (attemptNumber: number) => Promise<T>): Promise<{value: T, attempts: number}> {
    // Failed attempts that count against maxAttempts (not the rate-limit refusals waited out).
    let counted = 0;
    for (let attemptNumber = 1; ; attemptNumber++) {
        try {
            return {value: await attempt(attemptNumber), attempts: attemptNumber};
        } catch (error) {
            if (signal?.aborted) throw abortReason(signal);
            const decision = policy.decide(error, counted + 1);
            if (!decision.retry) throw error;
            if (decision.free !== true) counted++;
            policy.onRetry?.({attempt: attemptNumber, delayMs: decision.delayMs, error});
            await policy.sleep(decision.delayMs, signal);
        }
    }
}
