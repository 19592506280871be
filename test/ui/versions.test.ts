// Saved prompt versions against the real gateway (`npm run web`) in Chromium: two versions of a chat prompt saved with
// notes, listed newest first, compared side by side, opened again in the playground (with Undo), a question set's
// version from the Decision studio, and all of it kept across a reload (in the app's data folder).
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {newAppPage} from "./utils/appPage.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {layoutProblemsAtSizes} from "./utils/layoutAtSizes.ts";
import {readPromptItems} from "./utils/readAppData.ts";
import {openQuestionSetFile} from "./utils/scoringPage.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const firstSystem = "You answer questions about {{topic}}.\nKeep it short.";
const secondSystem = "You answer questions about {{topic}}.\nOne sentence at most.";

describe("Prompt versions", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    let scratch: string;
    const pageErrors: string[] = [];
    const chatForm = () => page.getByTestId("version-save-chat");

    before(async () => {
        ensureRendererBuilt();
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-studio-versions-"));
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
        page = await newAppPage(browser, pageErrors);
        await page.goto(gateway.url);
        await page.getByTestId("nav-chat").click();
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await rm(scratch, {recursive: true, force: true});
    });

    test("two versions of a chat prompt are saved from the playground, each with its note", async () => {
        await page.getByTestId("system-prompt").fill(firstSystem);
        await chatForm().getByTestId("version-name").fill("Support bot");
        await chatForm().getByTestId("version-note").fill("first try");
        await chatForm().getByTestId("version-save-button").click();
        await expectText(chatForm().getByTestId("version-message"), "Saved version 1 of \"Support bot\".");
        // The next save goes to the same prompt unless another is picked.
        assert.match(await chatForm().getByTestId("version-item").locator("option:checked").textContent() ?? "", /Support bot \(v2 next\)/);
        await page.getByTestId("system-prompt").fill(secondSystem);
        await page.getByTestId("chat-settings-tab").getByText("Parameters").click();
        await chatForm().getByTestId("version-note").fill("one sentence");
        await chatForm().getByTestId("version-save-button").click();
        await expectText(chatForm().getByTestId("version-message"), "Saved version 2 of \"Support bot\".");
    });

    test("the Versions list shows them newest first; the diff marks the changed line on both sides", async () => {
        await page.getByTestId("version-list-link").first().click();
        await page.locator("main[data-screen=versions]").waitFor();
        await expectCount(page.getByTestId("prompt-item"), 1);
        assert.deepEqual(await page.getByTestId("version-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-version"))), ["2", "1"]);
        assert.deepEqual(await page.getByTestId("version-note-text").allTextContents(), ["one sentence", "first try"]);
        assert.match(await page.getByTestId("version-row").first().textContent() ?? "", /variables: topic/);
        await expectText(page.getByTestId("diff-summary"), "2 lines removed, 2 added, from version 1 to version 2.");
        assert.deepEqual(await page.getByTestId("diff-removed").allTextContents(), ["note: first try", "Keep it short."]);
        assert.deepEqual(await page.getByTestId("diff-added").allTextContents(), ["note: one sentence", "One sentence at most."]);
        // The marks are text, not colour alone.
        assert.equal(await page.locator(".diff-removed-mark").first().textContent(), "−removed");
        await screenshot(page, "versions-diff");
    });

    test("the list and the diff at 1024x768 and 1440x900 in both themes: nothing cut off, no serious accessibility violation", async () => {
        const problems = await layoutProblemsAtSizes(page, "versions", async () => {
            await page.getByTestId("version-diff").scrollIntoViewIfNeeded();
        });
        assert.deepEqual(problems, []);
    });

    test("a version opens in its playground; Undo there brings the draft from before back", async () => {
        await page.locator("[data-testid=version-row][data-version='1'] [data-testid=version-open]").click();
        await page.locator("main[data-screen=chat]").waitFor();
        assert.equal(await page.getByTestId("system-prompt").inputValue(), firstSystem);
        await expectText(chatForm().getByTestId("version-message"), /Opened version 1 of "Support bot" in the Chat playground\./);
        await chatForm().getByTestId("version-message-undo").click();
        assert.equal(await page.getByTestId("system-prompt").inputValue(), secondSystem);
    });

    test("a question set's version is saved from the Decision studio and opens there", async () => {
        await openQuestionSetFile(page, scratch, "tone.questions.json", {
            format: "decisions", name: "Tone", questions: [{type: "predicate", name: "polite", instructions: "Is the text polite?"}]
        });
        // The version keeps the input the studio shows: here a template that takes each row's text.
        await page.getByTestId("input-mode-text").click();
        await page.getByTestId("input-text").fill("Review: {{text}}");
        const form = page.getByTestId("version-save-decision");
        await form.getByTestId("version-note").fill("one question");
        await form.getByTestId("version-save-button").click();
        await expectText(form.getByTestId("version-message"), "Saved version 1 of \"Tone\".");
        await page.getByTestId("nav-versions").click();
        await expectCount(page.getByTestId("prompt-item"), 2);
        assert.match(await page.getByTestId("version-row").first().textContent() ?? "", /1 question · input: template Review: \{\{text\}\}/);
        await page.getByTestId("nav-decisions").click();
        await page.getByTestId("input-text").fill("something else");
        await page.getByTestId("nav-versions").click();
        await page.getByTestId("version-open").first().click();
        await page.locator("main[data-screen=decisions]").waitFor();
        await expectText(page.getByTestId("qs-file-message"), /Opened version 1 of "Tone"\./);
        assert.equal(await page.getByTestId("qs-name").inputValue(), "Tone");
        // The studio shows the version's input as it was saved (it held other text when the version was opened).
        assert.equal(await page.getByTestId("input-text").inputValue(), "Review: {{text}}");
        await page.getByTestId("nav-versions").click();
    });

    test("a reload keeps every version and note", async () => {
        await eventually(async () => {
            assert.deepEqual((await readPromptItems(gateway.dataDir)).map((item) => [item.name, item.latest]), [["Tone", 1], ["Support bot", 2]]);
        });
        await page.reload();
        await page.locator("main[data-screen=versions]").waitFor();
        await expectCount(page.getByTestId("prompt-item"), 2);
        await page.getByTestId("prompt-item").filter({hasText: "Support bot"}).getByRole("button", {name: "Support bot", exact: true}).click();
        assert.deepEqual(await page.getByTestId("version-note-text").allTextContents(), ["one sentence", "first try"]);
        await page.getByTestId("diff-summary").waitFor();
        assert.deepEqual(pageErrors, []);
    });

    test("after the reload each save panel still adds to the item being edited; a new item with a name already taken asks first", async () => {
        await page.getByTestId("nav-decisions").click();
        const form = page.getByTestId("version-save-decision");
        const chosen = (on = form) => on.getByTestId("version-item").locator("option:checked").textContent();
        assert.match(await chosen() ?? "", /^Tone \(v2 next\)$/, "the studio still saves to the set it opened");
        await form.getByTestId("version-note").fill("after the reload");
        await form.getByTestId("version-save-button").click();
        await expectText(form.getByTestId("version-message"), "Saved version 2 of \"Tone\".");
        await page.getByTestId("nav-chat").click();
        assert.match(await chosen(chatForm()) ?? "", /^Support bot \(v3 next\)$/);

        // "New question set…" with the set's own name, which an item has: nothing is saved until the person chooses.
        await page.getByTestId("nav-decisions").click();
        await form.getByTestId("version-item").selectOption({label: "New question set…"});
        await form.getByTestId("version-save-button").click();
        await expectText(form.getByTestId("version-name-taken"), /Question set "Tone" exists already: add this as its version 3/);
        await form.getByTestId("version-name-add").click();
        await expectText(form.getByTestId("version-message"), "Saved version 3 of \"Tone\".");
        assert.match(await chosen() ?? "", /^Tone \(v4 next\)$/);
        // A second item of the same name only when asked for.
        await form.getByTestId("version-item").selectOption({label: "New question set…"});
        await form.getByTestId("version-save-button").click();
        await form.getByTestId("version-name-new").click();
        await expectText(form.getByTestId("version-message"), "Saved version 1 of \"Tone\".");
        await page.getByTestId("nav-versions").click();
        await expectCount(page.getByTestId("prompt-item"), 3);
        assert.deepEqual(pageErrors, []);
    });
});
