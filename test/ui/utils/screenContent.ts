// Screens with something open, as people see them after some use: a scoring job with its table and answers (so
// Evaluation has reports, a confusion matrix among them), two versions of a question set (so Versions shows a diff) and
// the Decision studio's comparison of two sets, an experiment of the two versions with its results (and a chat prompt's
// variant in its setup), and a refused run in History (its error status shown). Set up through the UI against the real
// gateway and engine, once per page.
import {writeFile} from "node:fs/promises";
import path from "node:path";
import type {Page} from "playwright-core";
import {expectText} from "./expect.ts";
import {openQuestionSetFile} from "./scoringPage.ts";

/** Two questions, one of them a choice: the evaluation shows binary and multi-class reports. */
export const reviewQuestions = (instructions: string) => ({
    format: "decisions",
    name: "Review labels",
    questions: [
        {type: "predicate", name: "positive", instructions},
        {type: "choice", name: "topic", instructions: "What is the review mostly about?", choices: [{value: "price"}, {value: "quality"}, {value: "delivery"}]}
    ]
});

const reviews: Array<[string, string, string]> = [
    ["Arrived in two days, well packed", "yes", "delivery"], ["Terrible, broke after a day", "no", "quality"],
    ["Cheap and cheerful", "yes", "price"], ["Overpriced for what it is", "no", "price"],
    ["Solid build, feels premium", "yes", "quality"], ["Late delivery, box damaged", "no", "delivery"],
    ["Great value for the money", "yes", "price"], ["Stopped working after a week", "no", "quality"],
    ["Fast shipping, thanks", "yes", "delivery"], ["Okay, nothing special", "no", "quality"],
    ["Worth every penny", "yes", "price"], ["The courier lost it twice", "no", "delivery"],
    ["Sturdy and well made", "yes", "quality"], ["Too expensive", "no", "price"]
];

/**
 * The reviews as a labelled CSV, with order columns beside them: wider than the scoring screen's table preview at
 * 1024 px, and more rows than it shows.
 */
export const reviewsCsv = ["review,positive,topic,order_id,shipped_from,reviewed_at", ...reviews.map(([review, positive, topic], index) =>
    [`"${review}"`, positive, topic, `ORD-2024-${String(48_213 + index * 37).padStart(7, "0")}`, "Rotterdam distribution centre", `2024-03-${String(index + 1).padStart(2, "0")}T09:${String(index * 4).padStart(2, "0")}:00Z`].join(","))]
    .join("\n") + "\n";

/**
 * Opens the screens' content on `page` (at any size): the reviews imported as a dataset and as the scoring table, two
 * versions of the question set saved from the Decision studio and compared there (the builder's set against a copy), a
 * chat prompt's version, the scoring job run, an experiment of the two question set versions run (then a third variant,
 * the chat prompt, added to its setup), and a chat run refused with 401 by a connection with a wrong key to the local
 * engine's own address (the Engine screen shows it; the engine refuses any key but its own); the local engine is the
 * active connection again at the end. `dir`: a scratch folder.
 */
export async function openScreenContent(page: Page, dir: string): Promise<void> {
    const file = path.join(dir, "reviews.csv");
    await writeFile(file, reviewsCsv);
    await page.getByTestId("nav-datasets").click();
    await page.getByTestId("dataset-sheet-input").setInputFiles(file);
    await expectText(page.getByTestId("datasets-message"), /Imported 14 rows/);

    for (const [index, instructions] of ["Is the review positive?", "Would the reviewer buy it again?"].entries()) {
        await openQuestionSetFile(page, dir, `reviews-${index + 1}.questions.json`, reviewQuestions(instructions));
        await page.getByTestId("input-mode-text").click();
        await page.getByTestId("input-text").fill("Review: {{review}}");
        const form = page.getByTestId("version-save-decision");
        await form.getByTestId("version-note").fill(`try ${index + 1}`);
        await form.getByTestId("version-save-button").click();
        await expectText(form.getByTestId("version-message"), `Saved version ${index + 1} of "Review labels".`);
    }
    await page.getByTestId("studio-tab-compare").click();
    await page.getByTestId("variant-copy").click();
    await page.getByTestId("compare-run").click();
    await page.getByTestId("compare-results").waitFor({timeout: 60_000});
    await page.getByTestId("studio-tab-build").click();

    await page.getByTestId("nav-chat").click();
    await page.getByTestId("system-prompt").fill("You answer questions about {{review}}.");
    const chatForm = page.getByTestId("version-save-chat");
    await chatForm.getByTestId("version-name").fill("Support bot");
    await chatForm.getByTestId("version-save-button").click();
    await expectText(chatForm.getByTestId("version-message"), "Saved version 1 of \"Support bot\".");

    await page.getByTestId("nav-scoring").click();
    await page.getByTestId("scoring-file-input").setInputFiles(file);
    await page.getByTestId("import-summary").filter({hasText: "14 rows × 6 columns"}).waitFor();
    await page.getByTestId("mapping-template").fill("Review: {{review}}");
    await page.getByTestId("scoring-start").click();
    await page.getByTestId("scoring-status").filter({hasText: "completed"}).waitFor({timeout: 120_000});

    await page.getByTestId("nav-experiments").click();
    await page.getByTestId("exp-tabs-setup").click();
    await page.getByTestId("exp-dataset").selectOption({label: "reviews (14 rows)"});
    const variants = page.getByTestId("exp-variant");
    for (const [index, version] of ["1", "2"].entries()) {
        await variants.nth(index).getByTestId("exp-variant-item").selectOption({label: "Review labels (Question set)"});
        await variants.nth(index).getByTestId("exp-variant-version").selectOption(version);
    }
    await page.getByTestId("exp-run").click();
    await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 120_000});
    await page.getByTestId("exp-tabs-setup").click();
    await page.getByTestId("exp-add-variant").click();
    await variants.nth(2).getByTestId("exp-variant-item").selectOption({label: "Support bot (Chat)"});
    await variants.nth(2).getByTestId("exp-variant-model").waitFor();

    await page.getByTestId("nav-engine").click();
    const engineUrl = (await page.getByTestId("engine-address").textContent())!.trim();
    await page.getByTestId("connection-name").fill("Wrong key");
    await page.getByTestId("connection-base-url").fill(engineUrl);
    await page.getByTestId("connection-key").fill("ck_wrong_key");
    await page.getByRole("button", {name: "Add connection"}).click();
    const refusing = page.locator("li[data-testid^=connection-]").filter({hasText: "Wrong key"});
    await refusing.getByRole("button", {name: "Activate"}).click();
    await refusing.getByText("active").waitFor();
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("run-button").click();
    await page.getByTestId("run-status").filter({hasText: "error"}).waitFor({timeout: 30_000});
    const switcher = page.getByTestId("connection-switcher");
    await switcher.selectOption("local");
    await page.waitForFunction(() => {
        const select = document.querySelector<HTMLSelectElement>("[data-testid=connection-switcher]");
        return select != null && !select.disabled && select.value === "local";
    });
}
