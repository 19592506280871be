// Test-only: the setup two experiment tests share, made through the app as a person would.
import {writeFile} from "node:fs/promises";
import path from "node:path";
import type {Page} from "playwright-core";
import {expectText} from "./expect.ts";

/**
 * Imports `csv` (rows of two columns, one of them `topic`) as a dataset, then saves two versions of a chat prompt, "Topic writer",
 * that name the topic column, with replies kept short (6 tokens).
 */
export async function datasetAndTopicWriter(page: Page, scratch: string, fileName: string, csv: string): Promise<void> {
    await page.getByTestId("nav-datasets").click();
    const file = path.join(scratch, fileName);
    await writeFile(file, csv);
    await page.getByTestId("dataset-sheet-input").setInputFiles(file);
    await expectText(page.getByTestId("datasets-message"), new RegExp(`Imported ${csv.trim().split("\n").length - 1} rows of 2 columns`));
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("param-max_tokens").fill("6");
    const form = page.getByTestId("version-save-chat");
    for (const [index, system] of ["You write about {{topic}}.", "One word about {{topic}}, please."].entries()) {
        await page.getByTestId("system-prompt").fill(system);
        await page.getByTestId("message-content").first().fill("Tell me about {{topic}}.");
        if (index === 0) await form.getByTestId("version-name").fill("Topic writer");
        await form.getByTestId("version-save-button").click();
        await expectText(form.getByTestId("version-message"), `Saved version ${index + 1} of "Topic writer".`);
    }
}

/** On the Experiments setup: the dataset `datasetLabel` ("topics (4 rows)"), variant A Topic writer v1, B v2. */
export async function topicWriterExperiment(page: Page, datasetLabel: string): Promise<void> {
    await page.getByTestId("nav-experiments").click();
    await page.getByTestId("exp-tabs-setup").click();
    await page.getByTestId("exp-dataset").selectOption({label: datasetLabel});
    const variants = page.getByTestId("exp-variant");
    for (const [index, version] of ["1", "2"].entries()) {
        await variants.nth(index).getByTestId("exp-variant-item").selectOption({label: "Topic writer (Chat)"});
        await variants.nth(index).getByTestId("exp-variant-version").selectOption(version);
    }
}
