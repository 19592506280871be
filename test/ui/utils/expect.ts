// Auto-retrying assertions for the UI tests (playwright-core has no `expect`): the page updates after the input that
// caused it (a re-render, a debounce, a save through the gateway), so a check of what it shows is retried until it holds.
import assert from "node:assert/strict";
import {setTimeout as delay} from "node:timers/promises";
import type {Locator} from "playwright-core";

export type RetryOptions = {timeoutMs?: number};

/** Pauses between attempts: quick at first, then no busier than four times a second. */
const backoffMs = [0, 20, 50, 100, 250];

/**
 * Runs `assertion` (which throws, e.g. with node:assert, while what it checks does not hold yet) until it returns, and
 * returns its value. After `timeoutMs` it rethrows the last error, so the failure shows the last value seen.
 */
export async function eventually<T>(assertion: () => T | Promise<T>, {timeoutMs = 10_000}: RetryOptions = {}): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    for (let round = 0; ; round++) {
        try {
            return await assertion();
        } catch (error) {
            if (performance.now() >= deadline) {
                if (error instanceof Error) error.message = `still failing after ${timeoutMs} ms of retries: ${error.message}`;
                throw error;
            }
        }
        await delay(backoffMs[Math.min(round, backoffMs.length - 1)]);
    }
}

/** Waits until `locator` matches exactly `count` elements. */
export async function expectCount(locator: Locator, count: number, options?: RetryOptions): Promise<void> {
    await eventually(async () => {
        const seen = await locator.count();
        if (seen !== count) assert.fail(`${locator}: expected ${count} elements, saw ${seen}: ${JSON.stringify(await locator.allTextContents())}`);
    }, options);
}

/** Waits until the text of `locator` equals `expected` (a string) or matches it (a RegExp); returns that text. */
export async function expectText(locator: Locator, expected: string | RegExp, options?: RetryOptions): Promise<string> {
    return eventually(async () => {
        const text = await locator.textContent({timeout: 1_000}) ?? "";
        if (typeof expected === "string") assert.equal(text, expected, `text of ${locator}`);
        else assert.match(text, expected, `text of ${locator}`);
        return text;
    }, options);
}
