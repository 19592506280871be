import type {Page} from "playwright-core";

/**
 * Replaces the text of the Monaco editor inside `[data-testid=<testId>]` the way a user would: select
 * all and paste. Pasting (unlike typing) does not trigger Monaco's bracket auto-closing. The page's
 * context needs the clipboard permissions.
 */
export async function setMonacoText(page: Page, testId: string, text: string) {
    await page.evaluate((value) => navigator.clipboard.writeText(value), text);
    await page.locator(`[data-testid=${testId}] .monaco-editor .view-lines`).click();
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Control+V");
}
