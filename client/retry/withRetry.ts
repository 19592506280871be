import {abortReason} from "../utils/abortReason.ts";
import type {RetryPolicy} from "./retryPolicy.ts";

/**
 * Runs `attempt` until it succeeds or the policy gives up; the last error is rethrown as is.
 * A user abort (the signal) ends it at once, also in the middle of a wait.
 */
export async function withRetry<T>(policy: RetryPolicy, signal: AbortSignal | undefined, attempt: (attemptNumber: number) => Promise<T>): Promise<{value: T, attempts: number}> {
    for (let attemptNumber = 1; ; attemptNumber++) {
        try {
            return {value: await attempt(attemptNumber), attempts: attemptNumber};
        } catch (error) {
            if (signal?.aborted) throw abortReason(signal);
            const decision = policy.decide(error, attemptNumber);
            if (!decision.retry) throw error;
            policy.onRetry?.({attempt: attemptNumber, delayMs: decision.delayMs, error});
            await policy.sleep(decision.delayMs, signal);
        }
    }
}
