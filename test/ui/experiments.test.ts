// An experiment's whole loop against the real gateway and engine (`npm run web`, the built-in model) in Chromium: a
// 50-row labelled CSV imported as a dataset, two versions of a question set saved from the Decision studio, an
// experiment of the two set up and run, the matrix with its interval verdict, the disagreements and one row's detail,
// the HTML report opened in the browser; then a reload mid-run that loses no cell and sends none twice, and a reload
// that keeps the finished experiment open; last, two
// questions per row, whose disagreements grid must draw each entry once and in order while cells arrive.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import {parseExperimentSpec} from "../../client/experiments/experimentFile.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {newAppPage} from "./utils/appPage.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {cutOffControls} from "./utils/layoutChecks.ts";
import {openQuestionSetFile} from "./utils/scoringPage.ts";
import {screenshot} from "./utils/screenshot.ts";
import {readSavedResults} from "./utils/readAppData.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const words = ["please", "thanks", "now", "kindly", "go away", "hello", "stop it", "would you"];
/** 50 rows: a text and its label, the politeness question's yes/no. */
const csvText = ["text,polite_label", ...Array.from({length: 50}, (_, index) => {
    const word = words[index % words.length];
    return `"${word} ${index}",${["please", "thanks", "kindly", "hello", "would you"].includes(word) ? "yes" : "no"}`;
})].join("\n") + "\n";

const questionSet = (instructions: string) => ({format: "decisions", name: "Tone", questions: [{type: "predicate", name: "polite", instructions}]});

/** The row index of every cell the app saved for each experiment, read from its database. */
async function savedCells(dataDir: string): Promise<Map<string, number[]>> {
    return new Map([...await readSavedResults(dataDir, "experiment")].map(([id, cells]) => [id, cells.map((cell) => cell.rowIndex)]));
}

/** Height of a row of the disagreements grid: each entry is drawn at (its place in the list) × this. */
const gridRowHeight = 32;

/**
 * Every entry the disagreements grid holds now: each once (by its place and by its row and question), at the height
 * of its place, and in the list's order (the largest spread first, then by row).
 */
async function assertGridDrawn(page: Page) {
    const drawn = await page.getByTestId("exp-disagreement-grid").getByTestId("exp-disagreement").evaluateAll((elements) => elements.map((element) => ({
        place: Number(element.getAttribute("aria-rowindex")),
        top: Number(/translateY\((-?[\d.]+)px\)/.exec((element as HTMLElement).style.transform)?.[1] ?? NaN),
        row: Number(element.getAttribute("data-row")),
        question: element.getAttribute("data-question"),
        spread: Number(element.querySelector("[data-testid=exp-disagreement-size]")?.textContent ?? NaN)
    })));
    const places = drawn.map((entry) => entry.place).sort((a, b) => a - b);
    assert.equal(new Set(places).size, places.length, `each place drawn once: ${places.join(", ")}`);
    // A virtualised window is one run of consecutive places: an element left from an earlier window breaks it.
    assert.equal(places.length === 0 ? 0 : places[places.length - 1] - places[0] + 1, places.length, `one run of places: ${places.join(", ")}`);
    for (const entry of drawn) assert.equal(entry.top, (entry.place - 2) * gridRowHeight, `row ${entry.row + 1} (${entry.question}) drawn at its place ${entry.place}`);
    const entries = drawn.map((entry) => `${entry.row}:${entry.question}`);
    assert.equal(new Set(entries).size, entries.length, `each row and question drawn once: ${entries.join(", ")}`);
    const ordered = [...drawn].sort((a, b) => a.place - b.place);
    for (let index = 1; index < ordered.length; index++) {
        const [before, after] = [ordered[index - 1], ordered[index]];
        assert.ok(before.spread > after.spread || (before.spread === after.spread && before.row <= after.row),
            `in order: row ${before.row + 1} (spread ${before.spread}) before row ${after.row + 1} (spread ${after.spread})`);
    }
    return drawn.length;
}

describe("Experiments: two question-set versions over a labelled CSV", {skip: noChromium ?? false, timeout: 240_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    let scratch: string;
    const pageErrors: string[] = [];

    before(async () => {
        ensureRendererBuilt();
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-studio-experiments-"));
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

    test("a labelled CSV and two versions of a question set are saved", async () => {
        const file = path.join(scratch, "tone.csv");
        await writeFile(file, csvText);
        await page.getByTestId("dataset-sheet-input").setInputFiles(file);
        await expectText(page.getByTestId("datasets-message"), /Imported 50 rows of 2 columns/);
        for (const [index, instructions] of ["Is the text polite?", "Does the text say please, thanks or hello?"].entries()) {
            await openQuestionSetFile(page, scratch, `tone-${index + 1}.questions.json`, questionSet(instructions));
            // The version keeps the input as shown: each row's text goes in through the template.
            await page.getByTestId("input-mode-text").click();
            await page.getByTestId("input-text").fill("{{text}}");
            const form = page.getByTestId("version-save-decision");
            await form.getByTestId("version-note").fill(`try ${index + 1}`);
            await form.getByTestId("version-save-button").click();
            await expectText(form.getByTestId("version-message"), `Saved version ${index + 1} of "Tone".`);
        }
    });

    test("setup: problems are said before anything is sent; the estimate counts the cells", async () => {
        await page.getByTestId("nav-experiments").click();
        await page.locator("main[data-screen=experiments]").waitFor();
        await expectText(page.getByTestId("exp-problems"), /Choose a dataset/);
        assert.equal(await page.getByTestId("exp-run").isDisabled(), true);
        await page.getByTestId("exp-dataset").selectOption({label: "tone (50 rows)"});
        const variants = page.getByTestId("exp-variant");
        for (const [index, version] of ["1", "2"].entries()) {
            await variants.nth(index).getByTestId("exp-variant-item").selectOption({label: "Tone (Question set)"});
            await variants.nth(index).getByTestId("exp-variant-version").selectOption(version);
        }
        await expectCount(page.getByTestId("exp-problems"), 0);
        await expectText(page.getByTestId("exp-estimate-requests"), "100");
        // What the run can detect: with no experiment on this dataset yet, at the assumed discordance 0.2, on 50 rows
        // a difference of 0.173 (Connor's power 80%; scipy brentq gives 0.17304170018350126), and 0.1 needs 155 rows.
        await expectText(page.getByTestId("exp-power-detectable"), /On 50 rows, a difference of 0\.173 in the primary metric has an 80% chance/);
        await expectText(page.getByTestId("exp-power-source"), /Discordance assumed/);
        await page.getByTestId("exp-power-difference").fill("0.1");
        await expectText(page.getByTestId("exp-power-needed"), "needs 155 rows for an 80% chance");
        // A parameter that is not JSON is said in words, and Run waits for it.
        await variants.nth(1).getByTestId("exp-variant-params").fill("{oops");
        await expectText(page.getByTestId("exp-problems"), /Variant B: parameters is not JSON/);
        await variants.nth(1).getByTestId("exp-variant-params").fill("");
        await screenshot(page, "experiments/setup-1024-light");
        assert.deepEqual(await cutOffControls(page), []);
    });

    test("the run ends with the matrix, an interval verdict and McNemar's test on 50 rows", async () => {
        const started = Date.now();
        await page.getByTestId("exp-run").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 90_000});
        const tookSeconds = (Date.now() - started) / 1000;
        // The same setup is estimated again from the pace this run measured: within 2x of the time it took.
        await page.getByTestId("exp-tabs-setup").click();
        try {
            await expectText(page.getByTestId("exp-estimate-time-stat"), /\d/);
            assert.match(await page.getByTestId("exp-estimate-time-stat").getAttribute("title") ?? "", /your last run on the same connection and model/);
            const shown = /([\d.]+) (s|min)/.exec(await page.getByTestId("exp-estimate-time-stat").textContent() ?? "");
            const estimated = Number(shown?.[1]) * (shown?.[2] === "min" ? 60 : 1);
            assert.ok(estimated >= tookSeconds / 2 - 1 && estimated <= tookSeconds * 2 + 1, `estimated ${estimated} s for a run that took ${tookSeconds} s`);
            // The power figure now starts from the discordance this run measured on the dataset.
            await expectText(page.getByTestId("exp-power-source"), /^Discordance \d\.\d{3}: the share of rows only one variant got right in “.+” on this dataset \(50 rows\)\.$/);
        } finally {
            // Back on the results, whatever the estimate said: the tests after this one read them.
            await page.getByTestId("exp-tabs-results").click();
        }
        await expectText(page.getByTestId("exp-done"), "100 / 100");
        // The figures are the last cells' once the summary has caught up with them.
        await expectCount(page.getByTestId("exp-summary-lag"), 0);
        const accuracy = page.locator("[data-testid=exp-matrix-row][data-metric=accuracy]");
        await expectCount(accuracy, 1);
        assert.match(await accuracy.locator("th").getAttribute("title") ?? "", /Share of labelled rows/);
        const values = await accuracy.getByTestId("exp-matrix-value").allTextContents();
        assert.equal(values.length, 2);
        // Accuracy is a rate shown alone: its value, then its 95% Wilson interval, defined on hover.
        for (const value of values) assert.match(value, /^[01]\.\d{3} \([01]\.\d{3}–[01]\.\d{3}\)$/);
        assert.match(await accuracy.getByTestId("exp-matrix-value").first().getAttribute("title") ?? "", /95% Wilson score interval/);
        const verdict = page.locator("[data-testid=exp-verdict]").filter({hasText: /polite · Accuracy/}).first();
        assert.match(await verdict.getByTestId("exp-verdict-text").textContent() ?? "", /(is better by -?\d\.\d+ \(-?\d\.\d+–-?\d\.\d+\))|(no clear difference: -?\d\.\d+ \(-?\d\.\d+(–| to )-?\d\.\d+\) on 50 rows)/);
        assert.match(await verdict.locator("td").last().textContent() ?? "", /^p [=<] /);
        await expectCount(page.getByTestId("exp-usage-row"), 2);
    });

    test("the disagreements list only the rows where the two versions pick differently, counted as entries on rows", async () => {
        await expectText(page.getByTestId("exp-disagreement-count"), /^\d+ disagreements? on \d+ rows?, the largest spread first$/);
        // Both variants answer every row here, so a listed row is one where their picks differ.
        const picks = await page.getByTestId("exp-disagreement").evaluateAll((rows) => rows.map((row) =>
            [...row.querySelectorAll("[role=cell]")].slice(3).map((cell) => (cell.textContent ?? "").replace(/^[✓✗] /, "").split(" ")[0])));
        for (const pick of picks) assert.ok(new Set(pick).size > 1, `a listed row's picks differ: ${pick.join(" / ")}`);
        await screenshot(page, "experiments/results-1024-light");
    });

    test("exports: the HTML report opens in the browser as one file; the rows as CSV and XLSX; the experiment file reads back", async () => {
        const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("exp-export-report").click()]);
        const html = await readFile(await download.path(), "utf8");
        assert.doesNotMatch(html, /<script|<link|src="https?:/i, "self-contained: no script, no file or link out");
        const report = await page.context().newPage();
        await report.setContent(html);
        const text = await report.locator("body").textContent() ?? "";
        assert.match(text, /tone: A vs B/);
        assert.match(text, /(is better by -?\d\.\d+ \(-?\d\.\d+–-?\d\.\d+\))|(no clear difference: -?\d\.\d+ \(-?\d\.\d+(–| to )-?\d\.\d+\) on 50 rows)/);
        assert.ok(await report.locator("svg").count() > 0, "its charts are inline SVG");
        await report.close();
        const [csv] = await Promise.all([page.waitForEvent("download"), page.getByTestId("exp-export-csv").click()]);
        const lines = (await readFile(await csv.path(), "utf8")).replace(/^\uFEFF/, "").trim().split(/\r?\n/);
        assert.equal(lines.length, 51, "a header and the 50 rows");
        assert.match(lines[0], /^row,text,polite_label,A\./);
        const [xlsx] = await Promise.all([page.waitForEvent("download"), page.getByTestId("exp-export-xlsx").click()]);
        assert.equal((await readFile(await xlsx.path())).subarray(0, 2).toString(), "PK", "an XLSX workbook (a zip)");
        // The experiment file is what svc-studio eval reads: its own parser takes it, the dataset inline.
        const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId("exp-export-file").click()]);
        const spec = parseExperimentSpec(await readFile(await file.path(), "utf8"));
        assert.deepEqual(spec.variants.map((variant) => [variant.name, variant.version.version]), [["A", 1], ["B", 2]]);
        assert.equal("rows" in spec.dataset ? spec.dataset.rows.length : 0, 50);
    });

    test("a reload mid-run loses no cell; Resume sends only the cells without a result, none twice", async () => {
        // The run again must send its cells (not answer them from the response cache) to be stopped mid-run.
        await page.getByTestId("exp-tabs-setup").click();
        await page.getByTestId("exp-reuse-answers").uncheck();
        await page.getByTestId("exp-tabs-history").click();
        await page.getByTestId("exp-run-again").first().click();
        await page.getByTestId("exp-run-card").waitFor();
        await eventually(async () => assert.match(await page.getByTestId("exp-done").textContent() ?? "", /^([1-9]\d?) \/ 100$/), {timeoutMs: 60_000});
        // Paused: the cells in flight end and no new one goes; Resume goes on.
        await page.getByTestId("exp-pause").click();
        await expectText(page.getByTestId("exp-status"), "paused");
        // The cells in flight when it paused end within a second or so; then the count stands still.
        await page.waitForTimeout(1500);
        const paused = await page.getByTestId("exp-done").textContent();
        await page.waitForTimeout(1500);
        assert.equal(await page.getByTestId("exp-done").textContent(), paused);
        await page.getByTestId("exp-resume").click();
        await expectText(page.getByTestId("exp-status"), "running");
        await page.reload();
        await page.locator("main[data-screen=experiments]").waitFor();
        // The experiment that stopped mid-run opens again by itself, saying so, with Resume.
        await expectText(page.getByTestId("exp-interrupted"), /stopped before its end: Resume sends the \d+ cells without a result/);
        assert.match(await page.getByTestId("exp-run-card").locator("h3").textContent() ?? "", /· again$/);
        await page.getByTestId("exp-continue").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 90_000});
        // The setup was kept too.
        await page.getByTestId("exp-tabs-setup").click();
        assert.equal(await page.getByTestId("exp-name").inputValue(), "tone: A vs B · again");
        await page.getByTestId("exp-tabs-results").click();
        await expectCount(page.getByTestId("exp-summary-lag"), 0);
        assert.match(await page.locator("[data-testid=exp-matrix-row][data-metric=accuracy] [data-testid=exp-matrix-value]").first().getAttribute("title") ?? "", /On 50 rows\./);
        const cells = await savedCells(gateway.dataDir);
        assert.equal(cells.size, 2);
        for (const [id, keys] of cells) {
            assert.equal(keys.length, 100, `${id}: every cell once`);
            assert.equal(new Set(keys).size, 100, `${id}: no cell sent twice`);
        }
        await screenshot(page, "experiments/history-resumed-1024-light");
    });

    test("a finished experiment stays open across a reload", async () => {
        await page.reload();
        await page.locator("main[data-screen=experiments]").waitFor();
        await expectText(page.getByTestId("exp-status"), "completed");
        assert.match(await page.getByTestId("exp-run-card").locator("h3").textContent() ?? "", /· again$/);
        await expectText(page.getByTestId("exp-done"), "100 / 100");
        await expectCount(page.getByTestId("exp-interrupted"), 0);
    });

    test("History compares two kept experiments' summaries", async () => {
        await page.getByTestId("exp-tabs-history").click();
        await expectCount(page.getByTestId("exp-saved"), 2);
        for (const pick of await page.getByTestId("exp-compare-pick").all()) await pick.check();
        await page.getByTestId("exp-compare").waitFor({timeout: 30_000});
        const row = page.getByTestId("exp-compare-row").filter({hasText: "polite · Accuracy"}).first();
        assert.equal(await row.locator("td").count(), 4, "two variants of each experiment");
        // Each run's sample and rows are shown; both ran on the same 50 rows, so each variant is tested against its namesake.
        for (const side of await page.getByTestId("exp-compare-side").all()) assert.match(await side.textContent() ?? "", /every row · 50 rows/);
        assert.match(await page.getByTestId("exp-compare-n").textContent() ?? "", /50 \/ 50/);
        const tests = page.getByTestId("exp-compare-tests");
        await tests.waitFor({timeout: 30_000});
        assert.match(await tests.textContent() ?? "", /Compared: #2 A with #1 A, #2 B with #1 B\./);
        const primary = tests.locator("[data-testid=exp-verdict][data-primary=true]");
        await expectCount(primary, 2);
        assert.match(await primary.first().getByTestId("exp-verdict-text").textContent() ?? "", /(#2 A is better by|#1 A is better by|no clear difference: )/);
        await screenshot(page, "experiments/history-compare-1024-light");
        assert.deepEqual(await cutOffControls(page), []);
        await page.getByTestId("theme-toggle").click();
        await page.getByTestId("exp-tabs-results").click();
        await screenshot(page, "experiments/results-1024-dark");
        assert.deepEqual(await cutOffControls(page), []);
        assert.deepEqual(pageErrors, []);
    });

    test("two questions and a variant the server refuses: the disagreements grid draws each entry once, in order, while cells arrive and after", async () => {
        await openQuestionSetFile(page, scratch, "pair.questions.json", {format: "decisions", name: "Tone pair", questions: [
            {type: "predicate", name: "polite", instructions: "Is the text polite?"},
            {type: "choice", name: "mood", instructions: "What is the mood of the text?", choices: [{value: "calm"}, {value: "cross"}, {value: "glad"}]}
        ]});
        await page.getByTestId("input-mode-text").click();
        await page.getByTestId("input-text").fill("{{text}}");
        const form = page.getByTestId("version-save-decision");
        // A new item, not a version of the one the studio saved last: its first option.
        await form.getByTestId("version-item").selectOption({index: 0});
        await form.getByTestId("version-note").fill("two questions");
        await form.getByTestId("version-save-button").click();
        await expectText(form.getByTestId("version-message"), `Saved version 1 of "Tone pair".`);
        await page.getByTestId("nav-experiments").click();
        await page.getByTestId("exp-tabs-setup").click();
        await page.getByTestId("exp-name").fill("tone pair");
        const variants = page.getByTestId("exp-variant");
        for (const index of [0, 1]) {
            await variants.nth(index).getByTestId("exp-variant-item").selectOption({label: "Tone pair (Question set)"});
            await variants.nth(index).getByTestId("exp-variant-version").selectOption("1");
        }
        // B sends a field /v1/decisions does not know, so the server refuses each of its rows while A answers: every
        // row is a disagreement on both questions, two entries per row.
        await variants.nth(1).getByTestId("exp-variant-params").fill(`{"x_unknown": true}`);
        await expectCount(page.getByTestId("exp-problems"), 0);
        // Each answer held back 40 ms: the tiny model alone answers the whole run in well under a second, which would
        // leave no summary to look at while cells arrive.
        const answers = /\/local\/.*v1\/decisions$/;
        await page.route(answers, async (route) => {
            await new Promise((resolve) => setTimeout(resolve, 40));
            await route.continue();
        });
        await page.getByTestId("exp-run").click();
        // The list is replaced at every summary while cells arrive: each time, what is drawn is drawn once, at its place.
        let looks = 0;
        const deadline = Date.now() + 90_000;
        while (!/^(completed|failed|cancelled)$/.test(await page.getByTestId("exp-status").textContent() ?? "") && Date.now() < deadline) {
            if (await page.getByTestId("exp-disagreement-grid").count() > 0) {
                await assertGridDrawn(page);
                looks++;
            }
            await page.waitForTimeout(25);
        }
        await expectText(page.getByTestId("exp-status"), "completed");
        await page.unroute(answers);
        assert.ok(looks > 0, "the grid was looked at while the run went on");
        await expectCount(page.getByTestId("exp-summary-lag"), 0);
        await expectText(page.getByTestId("exp-disagreement-count"), "100 disagreements on 50 rows, the largest spread first");
        assert.match(await page.getByTestId("exp-disagreement-spread").getAttribute("title") ?? "", /^Spread: the largest difference between the variants' scores/);
        await assertGridDrawn(page);
        // Scrolled to the middle and to the end, the window moves over the list: still each entry once, in order.
        const grid = page.getByTestId("exp-disagreement-grid");
        for (const top of [30 * gridRowHeight, 200 * gridRowHeight]) {
            await grid.evaluate((element, to) => element.scrollTo({top: to}), top);
            await eventually(async () => assert.ok((await assertGridDrawn(page)) > 0));
        }
        await eventually(async () => assert.deepEqual(
            await grid.getByTestId("exp-disagreement").evaluateAll((elements) => elements.map((element) => Number(element.getAttribute("aria-rowindex"))).sort((a, b) => a - b).at(-1)), 101));
        // A decision cell reads as the option picked and its probability, per question; the raw JSON is still there.
        await grid.getByTestId("exp-disagreement").last().getByTestId("exp-open-row").click();
        const detail = page.getByTestId("exp-row-detail");
        await expectCount(detail.getByTestId("exp-detail-variant"), 2);
        const requests = await detail.getByTestId("exp-detail-request").allTextContents();
        assert.match(requests[0], /What is the mood of the text\?/);
        assert.match(requests[1], /"x_unknown": true/, "the request as sent, the one the server refused");
        const answered = detail.locator("[data-testid=exp-detail-variant][data-name=A]");
        assert.deepEqual(await answered.getByTestId("exp-detail-answer").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-question"))), ["polite", "mood"]);
        assert.match(await answered.locator("[data-testid=exp-detail-answer][data-question=polite] td").first().textContent() ?? "", /^(yes|no)$/);
        assert.match(await answered.locator("[data-testid=exp-detail-answer][data-question=mood] td").last().textContent() ?? "", /^[01]\.\d{3}$/);
        assert.match(await answered.getByTestId("exp-detail-response").textContent() ?? "", /"answers"/);
        assert.match(await detail.locator("[data-testid=exp-detail-variant][data-name=B]").textContent() ?? "", /failed/);
        await screenshot(page, "experiments/disagreements-two-questions-1024-dark");
        assert.deepEqual(await cutOffControls(page), []);
    });
});
