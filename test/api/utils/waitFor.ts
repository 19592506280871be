/** Polls `check` until it holds; returns the milliseconds it took, or throws after `timeoutMs`. */
export async function waitFor(check: () => boolean, {timeoutMs = 5_000, what = "condition"}: {timeoutMs?: number, what?: string} = {}): Promise<number> {
    const started = performance.now();
    while (!check()) {
        if (performance.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return performance.now() - started;
}
