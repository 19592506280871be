// One screen as people see it at the two window sizes the app is checked at, in both themes: a screenshot of each, and
// every control cut off and serious accessibility violation found, for a test to assert there are none.
import type {Page} from "playwright-core";
import {accessibilityViolations, cutOffControls} from "./layoutChecks.ts";
import {screenshot} from "./screenshot.ts";

export const checkedSizes = [{width: 1024, height: 768}, {width: 1440, height: 900}];

/**
 * Shows the page at 1024x768 and 1440x900, each in the theme it has and then the other (the theme toggle is clicked
 * twice per size, so the page ends in its theme at 1440x900); `show` scrolls what matters into view first. Screenshots
 * go to `<name>-<width>-<theme>`. Returns the problems, each prefixed with its size and theme.
 */
export async function layoutProblemsAtSizes(page: Page, name: string, show: () => Promise<void>): Promise<string[]> {
    const problems: string[] = [];
    for (const size of checkedSizes) {
        await page.setViewportSize(size);
        for (let round = 0; round < 2; round++) {
            const theme = await page.evaluate(() => document.documentElement.dataset.theme);
            await show();
            await screenshot(page, `${name}-${size.width}-${theme}`);
            for (const problem of [...await cutOffControls(page), ...await accessibilityViolations(page)]) problems.push(`${size.width} ${theme}: ${problem}`);
            await page.getByTestId("theme-toggle").click();
        }
    }
    return problems;
}
