// Label columns never reach the model from the app, against the real gateway and engine (`npm run web`, the built-in
// model) in Chromium: a dataset whose label columns are marked on the Datasets screen; the Decision studio saves
// exactly the input it shows (a text template, a dataset row as JSON) and reads rows from that dataset; an experiment
// of the two versions runs, and every request it stored is read: no label column in any of them. A version whose
// template names a label column is a problem said before anything is sent.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {expectCount, expectText} from "./utils/expect.ts";
import {newAppPage} from "./utils/appPage.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {cutOffControls} from "./utils/layoutChecks.ts";
import {openQuestionSetFile} from "./utils/scoringPage.ts";
import {screenshot} from "./utils/screenshot.ts";
import {readSavedResults} from "./utils/readAppData.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const heroes = ["Kai", "Mia", "Tom", "Lily", "Ben", "Sue", "Ada", "Max", "Zoe", "Leo"];
const csvText = ["id,story,hero,happy,mood,rating",
    ...heroes.map((hero, index) => `s${index},${hero} found a ${index % 2 === 0 ? "red ball" : "lost cat"} in the park.,${hero},${index % 2 === 0 ? "yes" : "no"},${index % 3 === 0 ? "calm" : "sad"},${1 + index % 5}`)].join("\n") + "\n";
const labels = ["happy", "mood", "rating"];
const questionSet = {format: "decisions", name: "Happy", questions: [{type: "predicate", name: "happy", instructions: "Is the story happy?"}]};

const byInput = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.input).localeCompare(String(b.input));

/** Every request the app stored for its experiments, by experiment, in the order the cells were stored. */
async function storedRequests(dataDir: string): Promise<Array<Array<{variant: number, request: Record<string, unknown>, cached?: true}>>> {
    return [...(await readSavedResults(dataDir, "experiment")).values()].map((cells) => cells.map((cell) =>
        (cell as unknown as {cell: {variant: number, request: Record<string, unknown>, cached?: true}}).cell));
}

describe("Experiments in the app never send a label column", {skip: noChromium ?? false, timeout: 240_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    let scratch: string;
    const pageErrors: string[] = [];
    const role = (column: string, which: "label" | "input") => page.locator(`[data-testid=dataset-role][data-column="${column}"] [data-testid=role-${which}]`);
    const saveVersion = async (note: string, expected: string) => {
        const form = page.getByTestId("version-save-decision");
        await form.getByTestId("version-note").fill(note);
        await form.getByTestId("version-save-button").click();
        await expectText(form.getByTestId("version-message"), expected);
    };

    before(async () => {
        ensureRendererBuilt();
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-studio-experiment-labels-"));
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
        page = await newAppPage(browser, pageErrors, {viewport: {width: 1024, height: 768}, colorScheme: "light"});
        await page.goto(gateway.url);
        await page.getByTestId("nav-datasets").click();
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await rm(scratch, {recursive: true, force: true});
    });

    test("the Datasets screen marks happy, mood and rating as labels: the model does not see them", async () => {
        const file = path.join(scratch, "stories.csv");
        await writeFile(file, csvText);
        await page.getByTestId("dataset-sheet-input").setInputFiles(file);
        await expectText(page.getByTestId("datasets-message"), /Imported 10 rows of 6 columns/);
        for (const column of labels) {
            await role(column, "label").check();
            assert.equal(await role(column, "input").isChecked(), false);
        }
    });

    test("the Decision studio saves the input it shows, and reads rows from the dataset without its labels", async () => {
        await openQuestionSetFile(page, scratch, "happy.questions.json", questionSet);
        await page.getByTestId("input-mode-text").click();
        await page.getByTestId("input-text").fill("Story: {{story}}");
        await saveVersion("the story only", "Saved version 1 of \"Happy\".");

        await page.getByTestId("input-mode-row").click();
        await page.getByTestId("input-row-source").selectOption({label: "Dataset: stories"});
        await expectText(page.getByTestId("input-row-columns"), /The model sees id, story, hero; label columns \(happy, mood, rating\) are sent only when ticked/);
        assert.deepEqual(JSON.parse(await page.getByTestId("input-row-preview").textContent() ?? ""), {id: "s0", story: "Kai found a red ball in the park.", hero: "Kai"});
        // A row template that names a label column is refused where it is typed.
        await page.getByTestId("input-row-template").fill("{{story}} ({{mood}})");
        await expectText(page.getByTestId("input-panel").getByRole("alert"), /the input template names the label column "mood"/);
        await page.getByTestId("input-row-template").fill("Hero: {{hero}}");
        await expectText(page.getByTestId("input-row-preview"), "Hero: Kai");
        await page.getByTestId("input-row-template").fill("");
        await screenshot(page, "experiments/studio-dataset-row-1024-light");
        assert.deepEqual(await cutOffControls(page), []);
        await page.getByTestId("version-save-decision").getByTestId("version-item").selectOption({label: "Happy (v2 next)"});
        await saveVersion("whole row", "Saved version 2 of \"Happy\".");

        await page.getByTestId("nav-versions").click();
        const versions = page.getByTestId("version-row");
        await expectText(versions.filter({hasText: "the story only"}), /input: template Story: \{\{story\}\}/);
        await expectText(versions.filter({hasText: "whole row"}), /input: row as JSON \(the columns the model sees\)/);
    });

    test("an experiment of the two runs, and every request it stored carries no label column", async () => {
        await page.getByTestId("nav-experiments").click();
        await page.locator("main[data-screen=experiments]").waitFor();
        await page.getByTestId("exp-dataset").selectOption({label: "stories (10 rows)"});
        const variants = page.getByTestId("exp-variant");
        for (const [index, version] of ["1", "2"].entries()) {
            await variants.nth(index).getByTestId("exp-variant-item").selectOption({label: "Happy (Question set)"});
            await variants.nth(index).getByTestId("exp-variant-version").selectOption(version);
        }
        await expectCount(page.getByTestId("exp-problems"), 0);
        await page.getByTestId("exp-run").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 90_000});
        const [cells] = await storedRequests(gateway.dataDir);
        assert.ok(cells !== undefined, "the experiment's cells are kept");
        assert.equal(cells.length, 20, "10 rows × 2 variants");
        for (const {variant, request} of cells) {
            const input = request.input as string;
            if (variant === 0) assert.match(input, /^Story: \w+ found a (red ball|lost cat) in the park\.$/);
            else assert.deepEqual(Object.keys(JSON.parse(input) as object).sort(), ["hero", "id", "story"], input);
            for (const label of labels) assert.doesNotMatch(JSON.stringify(request.input), new RegExp(`\\\\"${label}\\\\"`), `no ${label} in ${input}`);
        }
    });

    test("the results file the app exports opens again from History as a kept experiment with every cell", async () => {
        const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("exp-export-results").click()]);
        const file = path.join(scratch, "stories.svc-results.json");
        await download.saveAs(file);
        await page.getByTestId("exp-tabs-history").click();
        await expectCount(page.getByTestId("exp-saved"), 1);
        await page.getByTestId("exp-import-input").setInputFiles(file);
        await expectText(page.getByTestId("exp-import-message"), /Opened stories\.svc-results\.json: 20 of 20 cells\./);
        await page.getByTestId("exp-tabs-history").click();
        await expectCount(page.getByTestId("exp-saved"), 2);
        await page.getByTestId("exp-tabs-results").click();
        await expectText(page.getByTestId("exp-done"), "20 / 20");
        // The same requests as the run stored: the import sent nothing.
        const kept = await storedRequests(gateway.dataDir);
        assert.equal(kept.length, 2);
        assert.deepEqual(kept[0].map((cell) => cell.request).sort(byInput), kept[1].map((cell) => cell.request).sort(byInput));
    });

    test("run again with the same versions: every cell is answered from the response cache, and with reuse off none is", async () => {
        await page.getByTestId("exp-tabs-history").click();
        await page.locator("[data-testid=exp-saved]").last().getByTestId("exp-run-again").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 90_000});
        await expectText(page.getByTestId("exp-cached"), "20");
        const cached = (await storedRequests(gateway.dataDir)).find((cells) => cells.every((cell) => cell.cached === true));
        assert.ok(cached !== undefined && cached.length === 20, "a kept experiment whose 20 cells all came from the cache");
        // Reuse off: the same run again sends every cell.
        await page.getByTestId("exp-tabs-setup").click();
        await page.getByTestId("exp-reuse-answers").uncheck();
        await page.getByTestId("exp-run").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 90_000});
        await expectText(page.getByTestId("exp-done"), "20 / 20");
        await expectText(page.getByTestId("exp-cached"), "0");
        await page.getByTestId("exp-tabs-setup").click();
        await page.getByTestId("exp-reuse-answers").check();
    });

    test("a version whose input names a label column is a problem before anything is sent", async () => {
        await page.getByTestId("nav-decisions").click();
        await page.getByTestId("input-mode-text").click();
        await page.getByTestId("input-text").fill("{{story}} It has {{rating}} stars.");
        await page.getByTestId("version-save-decision").getByTestId("version-item").selectOption({label: "Happy (v3 next)"});
        await saveVersion("with the rating", "Saved version 3 of \"Happy\".");
        await page.getByTestId("nav-experiments").click();
        await page.getByTestId("exp-tabs-setup").click();
        await page.getByTestId("exp-variant").nth(1).getByTestId("exp-variant-version").selectOption("3");
        await expectText(page.getByTestId("exp-problems"), /Variant B, input: the input template names the label column "rating"/);
        assert.equal(await page.getByTestId("exp-run").isDisabled(), true);
        assert.deepEqual(pageErrors, []);
    });
});
