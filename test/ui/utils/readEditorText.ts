import type {Page} from "playwright-core";

/**
 * The text Monaco shows inside `[data-testid=<testId>]`: its rendered lines (only those in view), with the
 * non-breaking spaces it renders turned back into spaces.
 */
export async function readEditorText(page: Page, testId: string): Promise<string> {
    const text = await page.locator(`[data-testid=${testId}] .monaco-editor .view-lines`).innerText();
    return text.replace(/\u00a0/g, " ");
}
