// Abortable waiting and retry backoff, for code that runs in browsers too (so not `timers/promises`).

/** The error an aborted signal stands for; older runtimes leave `reason` undefined. */
export function abortReason(signal: AbortSignal): unknown {
    return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts, so a cancelled retry stops at once. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
        if (signal?.aborted) {
            reject(abortReason(signal));
            return;
        }
        const onAbort = () => {
            clearTimeout(timer);
            reject(abortReason(signal!));
        };
        const timer = setTimeout(() => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
        }, Math.max(0, ms));
        signal?.addEventListener("abort", onAbort, {once: true});
    });
}

/** Exponential backoff: `baseMs * 2^(attempt - 1)` for the 1-based `attempt`, at most `maxMs`. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number): number {
    return Math.min(maxMs, baseMs * 2 ** (attempt - 1));
}
