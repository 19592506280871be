// The numbers of the scoring, evaluation and answer-card screens against the real gateway and engine, in Chromium:
// a score question's predicted level is its most likely level on every screen (card, histogram, grid, confusion
// matrix) with the expected score beside it; one ECE; a calibration fit that does not pass its checks says so;
// whole-row input leaves label columns out and keeps numbers; XLSX keeps a CSV's number columns as numbers; saved jobs
// name their question set; label-column choices survive a reload; charts have names and the confusion matrix shows
// every column, at 1024x768 and 1440x900, light and dark. The tiny random-weight model answers near-uniformly.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import type {Browser, Page, Request} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {newAppPage} from "./utils/appPage.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {gridColumn, openQuestionSetFile} from "./utils/scoringPage.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const levels = ["useless", "poor", "okay", "good", "great"];
const questionSet = {
    format: "decisions",
    name: "Numbers check",
    questions: [
        {type: "predicate", name: "positive", instructions: "Is the review positive?"},
        {type: "choice", name: "topic", instructions: "What is the review about?", choices: [{value: "price"}, {value: "quality"}, {value: "delivery"}]},
        {type: "score", name: "stars", instructions: "How good is the product?", levels: levels.map((label) => ({label}))}
    ]
};
const rowCount = 20;
const topics = ["price", "quality", "delivery"];
// ids and star labels are numbers; positive and topic labels are text.
const csvText = ["id,review,positive,topic,stars", ...Array.from({length: rowCount}, (_, index) =>
    `${index + 1},Review ${index + 1}: the parcel came on day ${index % 6} and the product was ${levels[index % 5]},${index % 2 === 0 ? "yes" : "no"},${topics[index % 3]},${index % 5}`)].join("\n") + "\n";

const sizes = [{width: 1024, height: 768}, {width: 1440, height: 900}] as const;

describe("Scoring numbers: one rule per number on every screen", {skip: noChromium ?? false, timeout: 400_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    let scratch: string;
    const pageErrors: string[] = [];
    /** The decisions requests the page sent while scoring, as JSON bodies. */
    const sent: Array<{input: unknown}> = [];

    const setTheme = async (theme: "light" | "dark") => {
        if (await page.evaluate(() => document.documentElement.dataset.theme) !== theme) await page.getByTestId("theme-toggle").click();
        await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, theme);
    };
    /** Each chart's SVG: its role and name (recharts' default is role="application" and no name). */
    const chartSurfaces = (scope: string) => page.locator(`${scope} svg.recharts-surface:not([aria-hidden=true])`).evaluateAll((svgs) =>
        svgs.map((svg) => ({role: svg.getAttribute("role"), name: svg.getAttribute("aria-label") ?? "", tabIndex: svg.getAttribute("tabindex")})));
    /** How many rows the scoring histogram put at each level of `stars`: what the evaluation must predict too. */
    let starsCounts: number[] = [];

    before(async () => {
        ensureRendererBuilt();
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-studio-scoring-numbers-"));
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
        page = await newAppPage(browser, pageErrors);
        page.on("request", (request: Request) => {
            if (request.method() === "POST" && request.url().endsWith("/v1/decisions")) sent.push(request.postDataJSON());
        });
        await page.goto(gateway.url);
        await openQuestionSetFile(page, scratch, "numbers.questions.json", questionSet);
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
    });

    test("answer card: a score shows its expected score and its most likely level, each level's probability as text", async () => {
        await page.getByTestId("input-text").fill("The parcel came late but the product is fine.");
        await page.getByTestId("decision-run").click();
        await page.getByTestId("decision-status").filter({hasText: "done"}).waitFor({timeout: 60_000});
        const card = page.locator("[data-testid=answer-card][data-name=stars]");
        const pick = await card.getByTestId("answer-pick").textContent() ?? "";
        const [, expected, mostLikely] = /^expected (\d\.\d\d) · most likely (\d)$/.exec(pick) ?? [];
        assert.ok(expected !== undefined, `header ${JSON.stringify(pick)}`);
        assert.match(await card.getByTestId("answer-pick").getAttribute("title") ?? "", /Expected score.*\n.*most likely level/s);
        // The legend names every level with its probability; the one marked most likely is the header's and the highest.
        const legend = await card.getByTestId("level-probability").allTextContents();
        assert.equal(legend.length, 5);
        const probabilities = legend.map((text) => Number(/(\d\.\d\d)/.exec(text)?.[1]));
        const marked = legend.findIndex((text) => text.endsWith("most likely"));
        assert.equal(marked, Number(mostLikely), legend.join(" | "));
        assert.equal(probabilities[marked], Math.max(...probabilities));
        assert.ok(Math.abs(probabilities.reduce((sum, probability, level) => sum + probability * level, 0) - Number(expected)) < 0.03, `${expected} from ${probabilities}`);
        // Charts are named images, not unnamed applications.
        const charts = await chartSurfaces("[data-testid=decision-result]");
        assert.ok(charts.length >= 2, JSON.stringify(charts));
        for (const chart of charts) assert.ok(chart.role === "img" && chart.name.length > 10 && chart.tabIndex === null, JSON.stringify(chart));
        assert.match(charts.map((chart) => chart.name).join("\n"), /stars: probability of each level/);
        await card.scrollIntoViewIfNeeded();
        await screenshot(page, "numbers/answer-card-score");
    });

    test("whole-row input: label columns start unpicked, a picked one is warned about, numbers stay numbers", async () => {
        await page.getByTestId("nav-scoring").click();
        const file = path.join(scratch, "numbers.csv");
        await writeFile(file, csvText);
        await page.getByTestId("scoring-file-input").setInputFiles(file);
        await page.getByTestId("import-summary").filter({hasText: `numbers.csv · ${rowCount} rows × 5 columns`}).waitFor();
        await page.getByTestId("mapping-row-mode").click();
        const picked = () => page.getByTestId("row-column").evaluateAll((labels) => labels.filter((label) => label.querySelector("input")!.checked).map((label) => label.getAttribute("data-column")));
        assert.deepEqual(await picked(), ["id", "review"]);
        assert.deepEqual(await page.locator("[data-testid=row-column].is-label").evaluateAll((labels) => labels.map((label) => label.getAttribute("data-column"))), ["positive", "topic", "stars"]);
        assert.deepEqual(JSON.parse(await page.getByTestId("mapping-preview").textContent() ?? ""), {id: 1, review: "Review 1: the parcel came on day 0 and the product was useless"});
        await page.locator("[data-testid=row-column][data-column=stars] input").check();
        await page.getByTestId("row-label-warning").waitFor();
        assert.deepEqual(JSON.parse(await page.getByTestId("mapping-preview").textContent() ?? "").stars, 0);
        await page.locator("[data-testid=row-column][data-column=stars] input").uncheck();
        await expectCount(page.getByTestId("row-label-warning"), 0);
    });

    test("score every row: the histogram, the grid's level column and the requests agree", async () => {
        sent.length = 0;
        await page.getByTestId("scoring-start").click();
        await page.getByTestId("scoring-status").filter({hasText: "completed"}).waitFor({timeout: 120_000});
        assert.equal(sent.length, rowCount);
        for (const body of sent) {
            const input = JSON.parse(body.input as string);
            assert.deepEqual(Object.keys(input), ["id", "review"], "no label column goes to the model");
            assert.equal(typeof input.id, "number");
        }
        // The saved job is named by its file and its question set.
        const job = page.getByTestId("saved-job").first();
        await expectText(job.getByTestId("saved-job-file"), "numbers.csv");
        await expectText(job.getByTestId("saved-job-set"), "Numbers check");

        const histogram = page.locator("[data-testid=histogram][data-name=stars]");
        assert.equal(await histogram.getByTestId("histogram-rule").textContent(), "most likely level");
        assert.match(await histogram.getByTestId("histogram-rule").getAttribute("title") ?? "", /^Predicted level: the most likely level/);
        assert.match(await histogram.getByTestId("histogram-expected").textContent() ?? "", /^mean expected score \d\.\d\d$/);
        const histogramName = await histogram.locator("svg.recharts-surface").getAttribute("aria-label") ?? "";
        const counts = levels.map((label, level) => Number(new RegExp(`${level} · ${label}: (\\d+)`).exec(histogramName)?.[1]));
        assert.equal(counts.reduce((a, b) => a + b, 0), rowCount, histogramName);
        // The grid shows both numbers; its level column is the histogram's rule, row by row.
        await page.getByTestId("results-grid").evaluate((grid) => grid.style.height = "2000px");
        const gridLevels = (await gridColumn(page, "stars.level")).map(Number);
        assert.equal(gridLevels.length, rowCount);
        assert.deepEqual(levels.map((_, level) => gridLevels.filter((value) => value === level).length), counts);
        assert.ok((await gridColumn(page, "stars.score")).every((text) => /^\d(\.\d+)?$/.test(text)));
        assert.match(await page.locator("[data-testid=grid-sort][data-column='stars.level']").getAttribute("title") ?? "", /most likely level/);
        await page.getByTestId("results-grid").evaluate((grid) => grid.style.height = "");
        starsCounts = counts;
    });

    test("XLSX export: the CSV's number columns are number cells", async () => {
        const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-xlsx").click()]);
        const target = path.join(scratch, "numbers.scored.xlsx");
        await download.saveAs(target);
        const bytes = await readFile(target);
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
        const sheet = workbook.worksheets[0];
        const header = (sheet.getRow(1).values as unknown[]).slice(1);
        const cell = (row: number, column: string) => sheet.getRow(row).getCell(header.indexOf(column) + 1).value;
        assert.equal(cell(2, "id"), 1);
        assert.equal(cell(3, "stars"), 1);
        assert.equal(cell(2, "review"), "Review 1: the parcel came on day 0 and the product was useless");
        assert.equal(cell(2, "positive"), "yes");
        assert.equal(typeof cell(2, "stars.level"), "number");
    });

    test("evaluation: the confusion matrix predicts the histogram's levels, the MAE says it uses the expected score, one ECE", async () => {
        await page.getByTestId("nav-evaluation").click();
        await expectText(page.getByTestId("evaluation-job"), /^numbers\.csv · Numbers check · /);
        const stars = page.locator("[data-testid=eval-card][data-name=stars]");
        assert.equal(await stars.getByTestId("eval-label-stars").inputValue(), "stars");
        const matrix = await stars.getByTestId("confusion-matrix").locator("tbody tr").evaluateAll((rows) =>
            rows.map((row) => [...row.querySelectorAll("td")].map((cell) => Number(cell.textContent))));
        const predicted = levels.map((_, level) => matrix.reduce((sum, row) => sum + row[level], 0));
        assert.deepEqual(predicted, starsCounts, "the matrix's columns count the histogram's levels");
        assert.match(await stars.getByTestId("confusion-matrix").textContent() ?? "", /columns: predicted \(most likely level\)/);
        assert.match(await stars.getByTestId("metric-mae").textContent() ?? "", /MAE \(expected score\)/);
        assert.match(await stars.getByTestId("metric-mae").getAttribute("title") ?? "", /expected score/);

        const topic = page.locator("[data-testid=eval-card][data-name=topic]");
        const ece = /\d\.\d{3}/.exec(await topic.getByTestId("metric-ece").textContent() ?? "")?.[0];
        assert.equal(/\d\.\d{3}/.exec(await topic.getByTestId("reliability-ece").textContent() ?? "")?.[0], ece);
        await topic.getByTestId("calibration-fit").click();
        await expectText(topic.getByTestId("calibration-before-ece"), ece!);
        assert.match(await topic.locator("th", {hasText: "ECE"}).getAttribute("title") ?? "", /10 equal-width bins/);
        // Near-uniform answers with unrelated labels: the fit stops at its bound or does not help on held-out rows; it says so.
        const warnings = await topic.getByTestId("calibration-warnings").locator("li").allTextContents();
        assert.ok(warnings.length >= 1);
        const temperature = /temperature (\d+\.\d{3})/.exec(await topic.getByTestId("calibration-note").textContent() ?? "")?.[1];
        if (temperature === "20.000") assert.match(warnings[0], /is at the end of the range a fit is held to/);
        else assert.match(warnings.join("\n"), /does not lower the log loss/);
        assert.equal(await topic.getByTestId("calibration-save").getAttribute("data-warned"), "true");
        page.once("dialog", (dialog) => void dialog.dismiss());
        await topic.getByTestId("calibration-save").click();
        assert.equal(await topic.getByTestId("calibration-saved").count(), 0, "dismissed: nothing saved");

        // The threshold chart has a legend and axis titles.
        const positive = page.locator("[data-testid=eval-card][data-name=positive]");
        assert.deepEqual(await positive.getByTestId("threshold-positive-legend").locator("li").allTextContents(), ["precision", "recall", "chosen threshold"]);
        assert.match(await positive.locator(".threshold-picker svg.recharts-surface").textContent() ?? "", /threshold on P\(true\).*rate/s);
        const charts = await chartSurfaces("[data-testid=evaluation-screen]");
        assert.ok(charts.length >= 5);
        for (const chart of charts) assert.ok(chart.role === "img" && chart.name.length > 10, JSON.stringify(chart));
    });

    for (const theme of ["light", "dark"] as const)
        for (const size of sizes)
            test(`${size.width}x${size.height} ${theme}: every confusion column shows, the calibration note is whole`, async () => {
                await page.setViewportSize(size);
                await setTheme(theme);
                await page.getByTestId("nav-evaluation").click();
                const stars = page.locator("[data-testid=eval-card][data-name=stars]");
                await stars.getByTestId("confusion-matrix").scrollIntoViewIfNeeded();
                const cut = await stars.getByTestId("confusion-matrix").evaluate((box) => {
                    const frame = box.getBoundingClientRect();
                    return [...box.querySelectorAll("th, td")].flatMap((cell) => {
                        const rect = cell.getBoundingClientRect();
                        return rect.right > frame.right + 1 || rect.right > window.innerWidth || rect.left < frame.left - 1 ? [`${cell.textContent} at ${Math.round(rect.left)}-${Math.round(rect.right)} of ${Math.round(frame.left)}-${Math.round(frame.right)}`] : [];
                    });
                });
                assert.deepEqual(cut, []);
                const topic = page.locator("[data-testid=eval-card][data-name=topic]");
                await topic.getByTestId("calibration-fit").click();
                const note = topic.getByTestId("calibration-note");
                await note.scrollIntoViewIfNeeded();
                assert.ok(await note.evaluate((cell) => cell.scrollWidth <= cell.clientWidth + 1), "the calibration note is not cut short");
                await stars.scrollIntoViewIfNeeded();
                await screenshot(page, `numbers/evaluation-score-${size.width}-${theme}`);
                await topic.getByTestId("calibration-table").scrollIntoViewIfNeeded();
                await screenshot(page, `numbers/evaluation-calibration-${size.width}-${theme}`);
                await page.locator("[data-testid=eval-card][data-name=positive] .eval-charts").scrollIntoViewIfNeeded();
                await screenshot(page, `numbers/evaluation-yesno-${size.width}-${theme}`);
                await page.getByTestId("nav-scoring").click();
                await page.getByTestId("mapping-card").scrollIntoViewIfNeeded();
                await screenshot(page, `numbers/scoring-row-columns-${size.width}-${theme}`);
                await page.getByTestId("results-card").scrollIntoViewIfNeeded();
                await screenshot(page, `numbers/scoring-histograms-${size.width}-${theme}`);
            });

    test("label-column choices survive a reload", async () => {
        await page.setViewportSize({width: 1440, height: 900});
        await page.getByTestId("nav-evaluation").click();
        await page.getByTestId("eval-label-positive").selectOption("");
        await page.getByTestId("eval-label-topic").selectOption("review");
        await page.getByTestId("threshold-positive").waitFor({state: "detached"});
        // The saved document is written shortly after a change; the reload's pagehide sends what is still pending.
        await page.reload();
        // The job that was open is open again by itself.
        await page.getByTestId("nav-scoring").click();
        await page.getByTestId("import-summary").filter({hasText: "numbers.csv"}).waitFor();
        await page.getByTestId("nav-evaluation").click();
        await eventually(async () => {
            assert.equal(await page.getByTestId("eval-label-positive").inputValue(), "");
            assert.equal(await page.getByTestId("eval-label-topic").inputValue(), "review");
            assert.equal(await page.getByTestId("eval-label-stars").inputValue(), "stars");
        });
    });

    test("no page errors", () => {
        assert.deepEqual(pageErrors, []);
    });
});
