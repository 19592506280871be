import type {Locator} from "playwright-core";

/**
 * Waits until `locator` matches exactly `count` elements. A list re-renders after the input that filters it, so
 * counting right after `fill` can still see the old list (playwright-core has no auto-retrying `expect`).
 */
export async function waitForCount(locator: Locator, count: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let seen = await locator.count();
    while (seen !== count) {
        if (Date.now() > deadline)
            throw new Error(`expected ${count} matching elements, still ${seen} after ${timeoutMs} ms: ${JSON.stringify(await locator.allTextContents())}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen = await locator.count();
    }
}
