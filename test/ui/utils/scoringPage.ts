// Steps the scoring UI tests share: a question set opened from a file in the Decision studio, as a person would,
// and the cells of one column of the results grid.
import assert from "node:assert/strict";
import {writeFile} from "node:fs/promises";
import path from "node:path";
import type {Page} from "playwright-core";

/** Writes `questionSet` to `<dir>/<fileName>` and opens it with the Decision studio's Open button. */
export async function openQuestionSetFile(page: Page, dir: string, fileName: string, questionSet: unknown): Promise<void> {
    const setFile = path.join(dir, fileName);
    await writeFile(setFile, JSON.stringify(questionSet, null, 2));
    await page.getByTestId("nav-decisions").click();
    await page.getByTestId("qs-open-input").setInputFiles(setFile);
    await page.getByTestId("qs-file-message").filter({hasText: "Opened"}).waitFor();
}

/** The text of `column`'s cells in the results grid's rows now in the DOM (it is virtualized), in display order. */
export async function gridColumn(page: Page, column: string): Promise<string[]> {
    const header = await page.getByTestId("grid-sort").allTextContents();
    const index = header.findIndex((text) => text.replace(/[▲▼]/g, "") === column);
    assert.ok(index >= 0, `grid column ${column} in ${header.join(", ")}`);
    return page.getByTestId("grid-row").evaluateAll((rows, at) => rows.map((row) => row.children[at + 1]?.textContent ?? ""), index);
}
