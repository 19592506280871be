import type {Browser, Page} from "playwright-core";

/**
 * A new page in a fresh context at `viewport` (1440x900, dark, downloads accepted by default) whose uncaught errors
 * and console errors go into `errors`, for a test to assert there were none.
 */
export async function newAppPage(browser: Browser, errors: string[], options: {viewport?: {width: number, height: number}, colorScheme?: "light" | "dark"} = {}): Promise<Page> {
    const context = await browser.newContext({viewport: options.viewport ?? {width: 1440, height: 900}, colorScheme: options.colorScheme ?? "dark", acceptDownloads: true});
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
    });
    return page;
}
