import type {Page} from "playwright-core";

/**
 * Counts the page's long tasks (main-thread tasks over 50 ms) with a PerformanceObserver installed before any script of
 * the page runs; `take()` answers the durations seen since the last `take()` (or since the page loaded) and starts over.
 */
export async function watchLongTasks(page: Page): Promise<{take: () => Promise<number[]>}> {
    await page.addInitScript(() => {
        const tasks: number[] = [];
        (window as unknown as {longTasks: number[]}).longTasks = tasks;
        new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) tasks.push(entry.duration);
        }).observe({type: "longtask", buffered: false});
    });
    return {take: () => page.evaluate(() => (window as unknown as {longTasks: number[]}).longTasks.splice(0))};
}
