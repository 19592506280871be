// Spreadsheet scoring and evaluation against the real gateway (`npm run web`) and the real local engine, in
// Chromium. The tiny random-weight model answers near-uniformly, so the tests check the plumbing (import,
// mapping, job progress, grid, exports, metrics, calibration), never the quality of the answers.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import type {Browser, Page, Request} from "playwright-core";
import {parseCsv} from "../support/csv.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {gatewayApi} from "./utils/gatewayApi.ts";
import {newAppPage} from "./utils/appPage.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {gridColumn, openQuestionSetFile} from "./utils/scoringPage.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const questionSet = {
    format: "decisions",
    name: "Review labels",
    questions: [
        {type: "predicate", name: "positive", instructions: "Is the review positive?"},
        {type: "choice", name: "topic", instructions: "What is the review mostly about?", choices: [{value: "price"}, {value: "quality"}, {value: "delivery"}]}
    ]
};

// Unicode, embedded quotes, commas and a line break inside quoted fields; labels for both questions.
const reviews: Array<[string, string, string]> = [
    ["Très bon produit, livré \"vite\"", "yes", "delivery"],
    ["Terrible — broke after a day", "no", "quality"],
    ["价格便宜，质量好", "yes", "price"],
    ["Emoji 👍 \"great\" value", "yes", "price"],
    ["Line one\nline two, still broken", "no", "quality"],
    ["Okay, nothing special", "no", "delivery"],
    ["Arrived in two days, well packed", "yes", "delivery"],
    ["Overpriced for what it is", "no", "price"],
    ["Solid build, feels premium", "yes", "quality"],
    ["Late delivery, box damaged", "no", "delivery"],
    ["Cheap and cheerful", "yes", "price"],
    ["Stopped working after a week", "no", "quality"]
];
const csvField = (text: string) => /[",\n]/.test(text) ? `"${text.replace(/"/g, "\"\"")}"` : text;
const csvText = ["review,positive,topic", ...reviews.map((row) => row.map(csvField).join(","))].join("\r\n") + "\r\n";

describe("Spreadsheet scoring and evaluation through the gateway", {skip: noChromium ?? false, timeout: 400_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    let scratch: string;
    const pageErrors: string[] = [];

    const download = async (testId: string): Promise<Buffer> => {
        const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
        const target = path.join(scratch, file.suggestedFilename());
        await file.saveAs(target);
        return readFile(target);
    };
    const waitStatus = (status: string, timeout = 120_000) => page.getByTestId("scoring-status").filter({hasText: status}).waitFor({timeout});
    const gridCells = (column: string) => gridColumn(page, column);

    before(async () => {
        ensureRendererBuilt();
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-studio-scoring-"));
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
        page = await newAppPage(browser, pageErrors);
        await page.goto(gateway.url);
        await openQuestionSetFile(page, scratch, "review-labels.questions.json", questionSet);
        await page.getByTestId("nav-scoring").click();
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
    });

    test("import a CSV with unicode, quotes and line breaks; header detected; a template maps the rows", async () => {
        const file = path.join(scratch, "reviews.csv");
        await writeFile(file, csvText);
        await page.getByTestId("scoring-file-input").setInputFiles(file);
        await page.getByTestId("import-summary").filter({hasText: "reviews.csv · 12 rows × 3 columns"}).waitFor();
        assert.match(await page.getByTestId("header-mode").locator("option:checked").textContent() ?? "", /found one/);
        const preview = await page.getByTestId("table-preview").locator("td").allTextContents();
        for (const cell of ["Très bon produit, livré \"vite\"", "价格便宜，质量好", "Emoji 👍 \"great\" value", "Line one\nline two, still broken"]) assert.ok(preview.includes(cell), `preview shows ${JSON.stringify(cell)}`);

        assert.equal(await page.getByTestId("mapping-template").inputValue(), "{{review}}");
        await page.getByTestId("mapping-template").fill("Customer review: {{ review }}");
        assert.equal(await page.getByTestId("mapping-preview").textContent(), "Customer review: Très bon produit, livré \"vite\"");
        await page.getByTestId("mapping-template").fill("Customer review: {{reviw}}");
        assert.match(await page.getByTestId("mapping-error").textContent() ?? "", /no column named "reviw"/);
        assert.ok(await page.getByTestId("scoring-start").isDisabled(), "a broken template cannot start a job");
        await page.getByTestId("mapping-template").fill("Customer review: {{review}}");
    });

    test("the Decision studio takes a row of the loaded table as its input, mapped by the template", async () => {
        await page.getByTestId("nav-decisions").click();
        await page.getByTestId("input-mode-row").click();
        await page.getByTestId("input-row-index").fill("3");
        assert.equal(await page.getByTestId("input-row-preview").textContent(), "Customer review: 价格便宜，质量好");
        await page.getByTestId("decision-run").click();
        await page.getByTestId("decision-status").filter({hasText: "done"}).waitFor({timeout: 60_000});
        assert.equal(await page.getByTestId("answer-card").count(), 2);
        await page.getByTestId("input-mode-text").click();
        await page.getByTestId("nav-scoring").click();
    });

    test("score every row: progress reaches 100%, the grid and histograms fill, sorting and filtering work", async () => {
        await page.getByTestId("scoring-concurrency").fill("3");
        await page.getByTestId("scoring-start").click();
        await waitStatus("completed");
        assert.equal(await page.getByTestId("scoring-percent").textContent(), "100%");
        assert.equal(await page.getByTestId("scoring-rows").textContent(), "12 / 12 rows");
        assert.equal(await page.getByTestId("scoring-errors").textContent(), "0");
        assert.equal(await page.getByTestId("grid-row").count(), 12);
        const probabilities = (await gridCells("positive.probability")).map(Number);
        assert.ok(probabilities.every((value) => value >= 0 && value <= 1), probabilities.join(", "));
        const choices = await gridCells("topic.choice");
        assert.ok(choices.every((value) => ["price", "quality", "delivery"].includes(value)), choices.join(", "));
        assert.equal(await page.getByTestId("histogram").count(), 2);
        assert.ok(await page.getByTestId("histogram").nth(1).locator(".recharts-bar-rectangle").count() >= 1, "histogram bars rendered");

        await page.locator("[data-testid=grid-sort][data-column='positive.probability']").click();
        const sorted = (await gridCells("positive.probability")).map(Number);
        assert.deepEqual(sorted, [...sorted].sort((a, b) => a - b), "ascending");
        await page.locator("[data-testid=grid-sort][data-column='positive.probability']").click();
        const reversed = (await gridCells("positive.probability")).map(Number);
        assert.deepEqual(reversed, [...reversed].sort((a, b) => b - a), "descending");
        await page.getByTestId("grid-filter").fill("价格");
        await page.getByTestId("grid-count").filter({hasText: "1 of 12 rows"}).waitFor();
        await page.getByTestId("grid-filter").fill("");
        await page.getByTestId("results-card").scrollIntoViewIfNeeded();
        await screenshot(page, "scoring-results");
    });

    test("export to CSV and XLSX (built in a Web Worker): every row with its answer columns", async () => {
        const csv = (await download("export-csv")).toString("utf8");
        assert.ok(csv.startsWith("\ufeff"), "a byte order mark, so Excel reads UTF-8");
        const [header, ...rows] = parseCsv(csv.slice(1)).filter((row) => row.length > 1);
        assert.deepEqual(header, ["review", "positive", "topic", "positive.probability", "topic.choice", "topic.confidence", "topic.p.price", "topic.p.quality", "topic.p.delivery", "error"]);
        assert.deepEqual(rows.map((row) => row[0]), reviews.map((review) => review[0]), "unicode, quotes and line breaks survive");
        for (const row of rows) {
            assert.ok(Number(row[3]) >= 0 && Number(row[3]) <= 1);
            assert.ok(["price", "quality", "delivery"].includes(row[4]));
            assert.equal((Number(row[6]) + Number(row[7]) + Number(row[8])).toFixed(2), "1.00");
            assert.equal(row[9], "");
        }

        const workbook = new ExcelJS.Workbook();
        const workers: string[] = [];
        const onWorker = (worker: {url(): string}) => workers.push(worker.url());
        page.on("worker", onWorker);
        const bytes = await download("export-xlsx");
        page.off("worker", onWorker);
        assert.ok(workers.some((url) => /xlsxExportWorker/.test(url)), `exceljs builds the workbook off the page's thread: workers ${workers}`);
        await workbook.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
        const sheet = workbook.worksheets[0];
        assert.equal(sheet.rowCount, 13);
        assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), header);
        assert.equal(sheet.getRow(4).getCell(1).value, "价格便宜，质量好");
        assert.equal(typeof sheet.getRow(2).getCell(4).value, "number");
    });

    test("evaluation: label columns give metrics, ROC, reliability, confusion; calibration is fitted, saved and applied", async () => {
        await page.getByTestId("nav-evaluation").click();
        const cards = page.getByTestId("eval-card");
        assert.equal(await cards.count(), 2);
        const positive = cards.nth(0);
        assert.equal(await positive.getByTestId("eval-label-positive").inputValue(), "positive", "the label column is guessed from the name");
        assert.match(await positive.getByTestId("eval-used").textContent() ?? "", /^12 rows used/);
        for (const metric of ["accuracy", "precision", "recall", "f1", "brier", "logloss", "ece", "auc"])
            assert.match(await positive.getByTestId(`metric-${metric}`).textContent() ?? "", /\d\.\d{3}|–/, metric);
        assert.match(await positive.getByTestId("metric-accuracy").textContent() ?? "", /\d\.\d{3}/);
        assert.match(await positive.getByTestId("roc-auc").textContent() ?? "", /AUC \d\.\d{3}/);
        assert.ok(await positive.getByTestId("roc-chart").locator(".recharts-line-curve").count() >= 1);
        assert.ok(await positive.getByTestId("reliability-diagram").locator(".recharts-line-curve").count() >= 1);
        // The threshold picker: at 1.00 nothing is predicted true, so recall is 0.
        await positive.getByTestId("threshold-positive").fill("1");
        assert.equal(await positive.getByTestId("threshold-positive-value").textContent(), "1.00");
        assert.equal(await positive.getByTestId("threshold-positive-recall").textContent(), "0.000");
        await positive.getByTestId("threshold-positive").fill("0.5");

        const topic = cards.nth(1);
        assert.equal(await topic.getByTestId("eval-label-topic").inputValue(), "topic");
        assert.equal(await topic.getByTestId("per-class-table").locator("tbody tr").count(), 3);
        const matrix = await topic.getByTestId("confusion-matrix").locator("tbody td").allTextContents();
        assert.equal(matrix.length, 9);
        assert.equal(matrix.reduce((sum, cell) => sum + Number(cell), 0), 12, "every labelled row lands in the matrix once");
        await screenshot(page, "evaluation");

        // One ECE for the same answers: the card's tile, its reliability chart and the calibration's "before" agree.
        const ece = /\d\.\d{3}/.exec(await positive.getByTestId("metric-ece").textContent() ?? "")?.[0];
        assert.equal(/\d\.\d{3}/.exec(await positive.getByTestId("reliability-ece").textContent() ?? "")?.[0], ece);
        assert.match(await positive.getByTestId("reliability-ece").textContent() ?? "", /10 equal bins/);
        assert.match(await positive.getByTestId("metric-ece").getAttribute("title") ?? "", /10 equal-width bins of P\(true\)/);
        await positive.getByTestId("calibration-fit").click();
        assert.match(await positive.getByTestId("calibration-table").textContent() ?? "", /before.*after/s);
        assert.equal(await positive.getByTestId("calibration-before-ece").textContent(), ece);
        assert.match(await positive.getByTestId("calibration-note").textContent() ?? "", /measured out of fold on 12 rows \(5 folds/);
        // The tiny model's answers carry no signal: the fit says so, and is saved only on purpose.
        assert.ok(await positive.getByTestId("calibration-warnings").locator("li").count() >= 1);
        assert.equal(await positive.getByTestId("calibration-save").getAttribute("data-warned"), "true");
        assert.match(await positive.getByTestId("calibration-save").textContent() ?? "", /Save anyway/);
        let asked = "";
        page.once("dialog", (dialog) => {
            asked = dialog.message();
            void dialog.accept();
        });
        await positive.getByTestId("calibration-save").click();
        await positive.getByTestId("calibration-saved").waitFor();
        assert.match(asked, /Save this calibration of positive anyway\?/);
        await positive.getByTestId("eval-calibrated").waitFor();
        await screenshot(page, "evaluation-calibrated");

        // Later runs apply it and say so: the studio's cards and a new scoring job.
        await page.getByTestId("nav-decisions").click();
        await page.getByTestId("decision-run").click();
        await page.getByTestId("decision-status").filter({hasText: "done"}).waitFor({timeout: 60_000});
        await page.locator("[data-testid=answer-card][data-name=positive] [data-testid=answer-calibrated]").waitFor();
        assert.equal(await page.locator("[data-testid=answer-card][data-name=topic] [data-testid=answer-calibrated]").count(), 0);
        await page.getByTestId("nav-scoring").click();
        await page.getByTestId("scoring-start").click();
        await waitStatus("completed");
        const calibrated = await gridCells("positive.calibrated");
        assert.deepEqual([...new Set(calibrated)], ["true"]);
    });

    test("evaluation: the scoring job opens as a one-variant experiment over its table", async () => {
        await page.getByTestId("nav-evaluation").click();
        await page.getByTestId("evaluation-open-experiment").click();
        await page.locator("main[data-screen=experiments]").waitFor();
        await expectCount(page.getByTestId("exp-variant"), 1);
        assert.match(await page.getByTestId("exp-dataset").locator("option:checked").textContent() ?? "", /12 rows/);
        // One request per row: the one variant over the table's 12 rows.
        await expectText(page.getByTestId("exp-estimate-requests"), "12");
        await page.getByTestId("nav-scoring").click();
    });

    test("evaluation: a fit is for the label column it was made on; a column with no usable row cannot be fitted on", async () => {
        await page.getByTestId("nav-evaluation").click();
        const topic = page.locator("[data-testid=eval-card][data-name=topic]");
        await topic.getByTestId("calibration-fit").click();
        await topic.getByTestId("calibration-save").waitFor();
        await topic.getByTestId("calibration-table").waitFor();
        // The yes/no column names none of topic's options: no row can be used, and the fit on "topic" is not offered.
        await topic.getByTestId("eval-label-topic").selectOption("positive");
        await expectText(topic.getByTestId("eval-used"), /^0 rows used/);
        await expectCount(topic.getByTestId("calibration-save"), 0);
        await expectCount(topic.getByTestId("calibration-table"), 0);
        assert.ok(await topic.getByTestId("calibration-fit").isDisabled(), "nothing to fit on");
        // Back on its own column: nothing stale there either, and a fit can be made again.
        await topic.getByTestId("eval-label-topic").selectOption("topic");
        await expectText(topic.getByTestId("eval-used"), /^12 rows used/);
        await expectCount(topic.getByTestId("calibration-save"), 0);
        assert.ok(await topic.getByTestId("calibration-fit").isEnabled());
        await page.getByTestId("nav-scoring").click();
    });

    test("pause, resume, cancel and continue a longer job", async () => {
        const file = path.join(scratch, "many.csv");
        await writeFile(file, ["text,label", ...Array.from({length: 300}, (_, index) => `Review number ${index} — ok,${index % 2 === 0 ? "yes" : "no"}`)].join("\n"));
        await page.getByTestId("scoring-file-input").setInputFiles(file);
        await page.getByTestId("import-summary").filter({hasText: "many.csv · 300 rows × 2 columns"}).waitFor();
        await page.getByTestId("scoring-concurrency").fill("1");
        // The rows this job sent to be scored (a retried row counts once).
        const requested = new Set<number>();
        const onRequest = (request: Request) => {
            if (request.method() === "POST" && /\/v1\/decisions$/.test(request.url())) requested.add(Number(/Review number (\d+) /.exec(request.postData() ?? "")?.[1]));
        };
        page.on("request", onRequest);
        await page.getByTestId("scoring-start").click();
        await page.getByTestId("scoring-pause").click();
        await waitStatus("paused", 10_000);
        // Pausing lets the request in flight finish: wait until every row sent is shown as scored.
        const rowsDone = async () => Number(/^(\d+)/.exec(await page.getByTestId("scoring-rows").textContent() ?? "")?.[1]);
        await eventually(async () => assert.equal(await rowsDone(), requested.size, "rows scored = rows sent"));
        const pausedAt = await page.getByTestId("scoring-rows").textContent();
        const sentBeforePause = requested.size;
        // Nothing more is sent while paused. Rather than watching for a while, the page sends a request of its own
        // now: a row taken after the pause would have been sent before it, and requests are reported in the order the
        // page sends them, so once this one is seen, no decisions request can still be on its way.
        await Promise.all([page.waitForRequest((request) => request.url().endsWith("/gateway/api/state?after-pause")), gatewayApi(page, "/state?after-pause")]);
        page.off("request", onRequest);
        assert.equal(requested.size, sentBeforePause, "no row is sent while paused");
        assert.equal(await page.getByTestId("scoring-rows").textContent(), pausedAt, "no rows are scored while paused");
        await page.getByTestId("scoring-resume").click();
        await waitStatus("running", 10_000);
        await page.waitForFunction(() => /^\d+/.exec(document.querySelector("[data-testid=scoring-rows]")?.textContent ?? "")?.[0] !== "0");
        assert.match(await page.getByTestId("scoring-rate").textContent() ?? "", /^(–|\d+\.\d)$/);
        await page.getByTestId("scoring-cancel").click();
        await waitStatus("cancelled", 10_000);
        const done = Number(/^(\d+)/.exec(await page.getByTestId("scoring-rows").textContent() ?? "")?.[1]);
        assert.ok(done > 0 && done < 300, `cancelled part way (${done} of 300)`);
        await page.getByTestId("scoring-concurrency").fill("4");
        await page.getByTestId("scoring-continue").click();
        await waitStatus("completed", 180_000);
        assert.equal(await page.getByTestId("scoring-rows").textContent(), "300 / 300 rows");
        assert.ok(await page.getByTestId("grid-row").count() < 60, "the grid keeps only the visible rows in the DOM");
        await page.getByTestId("scoring-run-card").scrollIntoViewIfNeeded();
        await screenshot(page, "scoring-continued");
    });

    test("XLSX: sheets to pick from, read in a worker", async () => {
        const workbook = new ExcelJS.Workbook();
        workbook.addWorksheet("Notes").addRows([["about"], ["labels by hand, March"]]);
        const data = workbook.addWorksheet("Données");
        data.addRow(["review", "stars", "checked"]);
        data.addRow(["Très bien", 5, true]);
        data.addRow(["\"Quoted\", with comma", 2, false]);
        const file = path.join(scratch, "book.xlsx");
        await writeFile(file, new Uint8Array(await workbook.xlsx.writeBuffer() as ArrayBuffer));
        await page.getByTestId("scoring-file-input").setInputFiles(file);
        await page.getByTestId("import-summary").filter({hasText: "book.xlsx · Notes"}).waitFor();
        assert.deepEqual(await page.getByTestId("sheet-picker").locator("option").allTextContents(), ["Notes", "Données"]);
        await page.getByTestId("sheet-picker").selectOption("Données");
        await page.getByTestId("import-summary").filter({hasText: "book.xlsx · Données · 2 rows × 3 columns"}).waitFor();
        const preview = await page.getByTestId("table-preview").locator("td").allTextContents();
        assert.deepEqual(preview, ["1", "Très bien", "5", "true", "2", "\"Quoted\", with comma", "2", "false"]);
    });

    test("100,000 rows load in batches while the page keeps painting", async () => {
        const lines = ["id,text,label"];
        for (let index = 0; index < 100_000; index++) lines.push(`${index},"Row ${index}, ""quoted"" — ünïcode",${index % 3 === 0 ? "yes" : "no"}`);
        const file = path.join(scratch, "big.csv");
        await writeFile(file, lines.join("\n"));
        // Record the loading indicator as each painted frame shows it (Playwright runs the predicate at every animation
        // frame) until the summary replaces it: intermediate counts prove the page rendered between batches.
        const [recorded] = await Promise.all([page.waitForFunction(() => {
            const seen = (window as unknown as {loadingSeen?: string[]}).loadingSeen ??= [];
            const text = document.querySelector("[data-testid=import-loading]")?.textContent;
            if (text && !seen.includes(text)) seen.push(text);
            return document.querySelector("[data-testid=import-summary]")?.textContent?.startsWith("big.csv") && seen;
        }, undefined, {timeout: 120_000}), page.getByTestId("scoring-file-input").setInputFiles(file)]);
        const seen = await recorded.jsonValue() as string[];
        assert.match(await page.getByTestId("import-summary").textContent() ?? "", /100,000 rows × 3 columns/);
        const partial = seen.filter((text) => !/: 0 rows$/.test(text) && !/: 100,000 rows$/.test(text));
        assert.ok(partial.length >= 2, `progress painted while loading: ${seen.join(" | ")}`);
        assert.ok(await page.getByTestId("grid-row").count() < 60, "only the visible rows are in the DOM");
        await page.getByTestId("results-grid").evaluate((grid) => grid.scrollTop = 30 * 99_990);
        await page.locator("[data-testid=grid-row][data-row='99999']").waitFor();
        await page.getByTestId("results-card").scrollIntoViewIfNeeded();
        await screenshot(page, "scoring-100k");
    });

    test("no page errors", () => {
        assert.deepEqual(pageErrors, []);
    });
});
