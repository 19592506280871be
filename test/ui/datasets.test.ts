// The Datasets screen against the real gateway (`npm run web`) in Chromium: a CSV written here imported with its types,
// label and model-visible columns, samples and their counts, rows added and edited by hand, everything kept across a
// reload (in the app's data folder), export and import as files, an XLSX of two sheets, the 100,000-row limit, a
// virtualised grid, and a chat run added as a row.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import type {Browser, Page} from "playwright-core";
import type {Dataset} from "../../client/experiments/types.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {newAppPage} from "./utils/appPage.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {layoutProblemsAtSizes} from "./utils/layoutAtSizes.ts";
import {accessibilityViolations, cutOffControls} from "./utils/layoutChecks.ts";
import {readDatasets, readDocument} from "./utils/readAppData.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

// Row 5 repeats row 2 exactly: the screen says so.
const csvText = [
    "id,question,category,expected",
    "1,What is 2+2?,math,4",
    "2,Capital of France?,geo,Paris",
    "3,\"Say \"\"hi\"\", politely\",chat,Hello",
    "4,Largest ocean?,geo,Pacific",
    "2,Capital of France?,geo,Paris",
    "6,Square root of 81?,math,9"
].join("\r\n") + "\r\n";

describe("Datasets screen", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    let scratch: string;
    const pageErrors: string[] = [];

    const download = async (testId: string): Promise<string> => {
        const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
        const target = path.join(scratch, file.suggestedFilename());
        await file.saveAs(target);
        return target;
    };
    const role = (column: string, which: "label" | "input") => page.locator(`[data-testid=dataset-role][data-column="${column}"] [data-testid=role-${which}]`);
    const savedList = () => readDatasets(gateway.dataDir);

    before(async () => {
        ensureRendererBuilt();
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-studio-datasets-"));
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
        page = await newAppPage(browser, pageErrors);
        await page.goto(gateway.url);
        await page.getByTestId("nav-datasets").click();
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await rm(scratch, {recursive: true, force: true});
    });

    test("a CSV imports with its column types; the label column is guessed and hidden from the model; repeated rows are named", async () => {
        const file = path.join(scratch, "quiz.csv");
        await writeFile(file, csvText);
        await page.getByTestId("dataset-sheet-input").setInputFiles(file);
        await expectText(page.getByTestId("datasets-message"), "Imported 6 rows of 4 columns as \"quiz\".");
        await expectText(page.getByTestId("dataset-duplicates"), /1 row repeats an earlier row exactly \(row 5\)/);
        assert.equal(await page.getByTestId("dataset-name").inputValue(), "quiz");
        assert.equal(await role("expected", "label").isChecked(), true);
        assert.equal(await role("expected", "input").isChecked(), false);
        assert.equal(await role("question", "input").isChecked(), true);
        assert.equal(await page.locator("[data-testid=dataset-role][data-column=id] td").nth(1).textContent(), "number");
        assert.equal(await page.locator("[data-testid=dataset-role][data-column=question] td").nth(1).textContent(), "string");
        await expectCount(page.getByTestId("dataset-row"), 6);
        assert.equal(await page.locator("[data-testid=dataset-row][data-row='2'] [data-testid=dataset-cell]").nth(1).textContent(), "Say \"hi\", politely");
    });

    test("marking a label takes it from what the model sees; ticking it back says the model is told the answer", async () => {
        await role("category", "label").check();
        assert.equal(await role("category", "input").isChecked(), false);
        await role("category", "input").check();
        await expectText(page.getByTestId("roles-leak"), /The model sees the label column category/);
        await role("category", "input").uncheck();
        await expectCount(page.getByTestId("roles-leak"), 0);
        await role("id", "input").uncheck();
        await page.locator("[data-testid=dataset-column][data-column=category] .badge").filter({hasText: "label"}).waitFor();
    });

    test("samples: first N, N random from a seed (the same rows each time), a filter; each with its count", async () => {
        const count = page.getByTestId("sample-count");
        await page.getByTestId("sample-n").fill("3");
        await expectText(count, "3 of 6 rows: the first 3 rows");
        await page.getByTestId("sample-kind").selectOption("random");
        await page.getByTestId("sample-n").fill("2");
        await page.getByTestId("sample-seed").fill("7");
        await expectText(count, "2 of 6 rows: 2 random rows (seed 7)");
        await page.getByTestId("sample-kind").selectOption("filter");
        await page.getByTestId("sample-column").selectOption("category");
        await page.getByTestId("sample-value").fill("geo");
        await expectText(count, "3 of 6 rows: rows where category equals \"geo\"");
        await page.getByTestId("sample-op").selectOption("contains");
        await page.getByTestId("sample-value").fill("MA");
        await expectText(count, "2 of 6 rows: rows where category contains \"MA\"");
        await page.getByTestId("sample-kind").selectOption("first");
    });

    test("rows added and edited in the row form keep their column's type", async () => {
        const fields = page.getByTestId("dataset-add-value");
        await fields.nth(0).fill("7");
        await fields.nth(1).fill("Boiling point of water in °C?");
        await fields.nth(2).fill("science");
        await fields.nth(3).fill("100");
        await page.getByTestId("dataset-add-submit").click();
        await expectCount(page.getByTestId("dataset-row"), 7);
        await page.locator("[data-testid=dataset-row][data-row='0'] [data-testid=dataset-row-edit]").click();
        await expectText(page.getByTestId("dataset-row-form-title"), "Edit row 1");
        await eventually(async () => assert.equal(await fields.nth(3).inputValue(), "4"));
        await fields.nth(3).fill("four");
        await page.getByTestId("dataset-add-submit").click();
        await expectText(page.locator("[data-testid=dataset-row][data-row='0'] [data-testid=dataset-cell]").nth(3), "four");
        await expectText(page.getByTestId("dataset-row-form-title"), "Add a row");
        await page.getByTestId("dataset-detail").scrollIntoViewIfNeeded();
        await screenshot(page, "datasets-open");
    });

    test("with a dataset open, at 1024x768 and 1440x900 in both themes: nothing cut off, no serious accessibility violation", async () => {
        const problems = await layoutProblemsAtSizes(page, "datasets", async () => {
            await page.getByTestId("dataset-detail").scrollIntoViewIfNeeded();
        });
        assert.deepEqual(problems, []);
    });

    test("a reload finds the dataset as it was: rows, roles, types", async () => {
        await eventually(async () => {
            const list = await savedList();
            assert.equal(list[0]?.rowCount, 7);
            assert.deepEqual(list[0]?.labelColumns, ["category", "expected"]);
            assert.deepEqual(list[0]?.inputColumns, ["question"]);
            // Each row is a row of the datasets' table in the app's database.
            assert.equal(list[0].rows.length, 7);
            assert.deepEqual(list[0].rows[0], [1, "What is 2+2?", "math", "four"]);
        });
        // The sample panel is left on 2 random rows of seed 7: a reload finds it so.
        await page.getByTestId("sample-kind").selectOption("random");
        await page.getByTestId("sample-n").fill("2");
        await page.getByTestId("sample-seed").fill("7");
        await expectText(page.getByTestId("sample-count"), /^2 of 7 rows: 2 random rows \(seed 7\)/);
        await eventually(async () => assert.match(JSON.stringify(await readDocument(gateway.dataDir, "svc-studio-dataset-samples")), /"kind":"random","n":2,"seed":7/));
        await page.reload();
        await page.locator("main[data-screen=datasets]").waitFor();
        await expectCount(page.getByTestId("dataset-row"), 7);
        await expectText(page.getByTestId("sample-count"), /^2 of 7 rows: 2 random rows \(seed 7\)/);
        await page.getByTestId("sample-kind").selectOption("first");
        assert.equal(await role("category", "label").isChecked(), true);
        assert.equal(await role("id", "input").isChecked(), false);
        assert.equal(await page.locator("[data-testid=dataset-row][data-row='6'] [data-testid=dataset-cell]").nth(0).textContent(), "7");
        assert.equal(await page.locator("[data-testid=dataset-row][data-row='0'] [data-testid=dataset-cell]").nth(3).textContent(), "four");
    });

    test("export as JSON and CSV; delete (with Undo); the JSON imports back whole", async () => {
        const jsonFile = await download("dataset-export-json");
        const exported = JSON.parse(await readFile(jsonFile, "utf8")) as Dataset;
        assert.deepEqual(exported.columns, ["id", "question", "category", "expected"]);
        assert.deepEqual(exported.columnTypes, ["number", "string", "string", "string"]);
        assert.deepEqual(exported.rows[6], [7, "Boiling point of water in °C?", "science", "100"]);
        assert.deepEqual(exported.labelColumns, ["category", "expected"]);
        const csv = await readFile(await download("dataset-export-csv"), "utf8");
        assert.ok(csv.startsWith("\ufeffid,question,category,expected\r\n1,What is 2+2?,math,four\r\n"), csv.slice(0, 80));
        assert.ok(csv.includes("3,\"Say \"\"hi\"\", politely\",chat,Hello\r\n"));

        await page.getByRole("button", {name: "Delete dataset quiz"}).click();
        await expectCount(page.getByTestId("dataset-item"), 0);
        await page.getByTestId("datasets-message-undo").click();
        await expectCount(page.getByTestId("dataset-item"), 1);
        await page.getByRole("button", {name: "Delete dataset quiz"}).click();
        await expectCount(page.getByTestId("dataset-item"), 0);

        await page.getByTestId("dataset-file-input").setInputFiles(jsonFile);
        await expectText(page.getByTestId("datasets-message"), /Imported "quiz" \(7 rows\)/);
        await expectCount(page.getByTestId("dataset-row"), 7);
        assert.equal(await role("category", "label").isChecked(), true);

        const empty = path.join(scratch, "empty.csv");
        await writeFile(empty, "\r\n\r\n");
        await page.getByTestId("dataset-sheet-input").setInputFiles(empty);
        await expectText(page.getByTestId("datasets-message"), "empty.csv: the file holds no rows");

        const broken = path.join(scratch, "broken.dataset.json");
        await writeFile(broken, JSON.stringify({columns: ["a"], rows: [["x", "y"]]}));
        await page.getByTestId("dataset-file-input").setInputFiles(broken);
        await expectText(page.getByTestId("datasets-message"), "broken.dataset.json: rows[0]: must be an array of at most 1 cells (strings, numbers, booleans or null)");
    });

    test("an XLSX with two sheets asks which one to import", async () => {
        const workbook = new ExcelJS.Workbook();
        workbook.addWorksheet("Notes").addRows([["note"], ["read me"]]);
        workbook.addWorksheet("Cases").addRows([["text", "label"], ["good", "yes"], ["bad", "no"], ["fine", "yes"]]);
        const file = path.join(scratch, "cases.xlsx");
        await workbook.xlsx.writeFile(file);
        await page.getByTestId("dataset-sheet-input").setInputFiles(file);
        await page.getByTestId("dataset-sheet-choice").filter({hasText: "cases.xlsx has 2 sheets: which one holds the rows?"}).waitFor();
        await page.getByTestId("dataset-sheet").selectOption("Cases");
        await page.getByTestId("dataset-sheet-import").click();
        await expectText(page.getByTestId("datasets-message"), "Imported 3 rows of 2 columns as \"cases · Cases\".");
        assert.equal(await role("label", "label").isChecked(), true);
    });

    test("more than 100,000 rows is refused with a way out; the grid of 100,000 rows keeps only the rows in view", async () => {
        const lines = ["n,text"];
        for (let index = 1; index <= 100_001; index++) lines.push(`${index},row ${index}`);
        const file = path.join(scratch, "big.csv");
        await writeFile(file, lines.join("\n") + "\n");
        await page.getByTestId("dataset-sheet-input").setInputFiles(file);
        await expectText(page.getByTestId("datasets-message"), /big\.csv: 100,001 rows is more than the 100,000 a dataset holds/, {timeoutMs: 60_000});
        await page.getByTestId("datasets-message-action").click();
        await expectText(page.getByTestId("datasets-message"), "Imported 100,000 rows of 2 columns as \"big\".", {timeoutMs: 30_000});
        const grid = page.getByTestId("dataset-grid");
        await grid.evaluate((element) => element.scrollTop = element.scrollHeight);
        await page.locator("[data-testid=dataset-row][data-row='99999']").waitFor();
        assert.ok(await page.getByTestId("dataset-row").count() < 60, "only the rows in view are drawn");
        const started = Date.now();
        for (let step = 1; step <= 20; step++) await grid.evaluate((element, at) => element.scrollTop = at, step * 15_000);
        await page.locator("[data-testid=dataset-row][data-row='10000']").waitFor();
        assert.ok(Date.now() - started < 5_000, `20 long scrolls took ${Date.now() - started} ms`);
    });

    test("a chat run becomes a row of a new dataset", async () => {
        await page.getByTestId("nav-chat").click();
        await page.getByTestId("run-button").click();
        await page.getByTestId("add-run-button").click({timeout: 60_000});
        await expectText(page.getByTestId("add-run-message"), /Added as row 1 of the new dataset "Chat runs"\./);
        await page.getByTestId("add-run-button").click();
        await expectText(page.getByTestId("add-run-message"), /Added as row 2 of "Chat runs"\./);
        await page.setViewportSize({width: 1024, height: 768});
        await page.getByTestId("add-run-row").scrollIntoViewIfNeeded();
        await screenshot(page, "chat-add-run-1024");
        assert.deepEqual([...await cutOffControls(page), ...await accessibilityViolations(page)], []);
        await page.setViewportSize({width: 1440, height: 900});
        // Into a dataset of other columns: the run's fields go where the person picks, none is added unasked, and Undo takes it back.
        const quiz = (await savedList()).find((item) => item.name === "quiz")!;
        await page.getByTestId("add-run-dataset").selectOption({label: "quiz"});
        const column = (field: string) => page.locator(`[data-testid=add-run-field][data-field=${field}] [data-testid=add-run-column]`);
        assert.equal(await column("user").inputValue(), "question", "the user message goes to the text the model sees");
        assert.equal(await column("reply").inputValue(), "\u0000leave-out");
        await column("reply").selectOption({label: "expected (label)"});
        await expectText(page.getByTestId("add-run-preview"), /^Adds: question = "Write a one-line story about a robot\." · expected = /);
        await page.getByTestId("add-run").scrollIntoViewIfNeeded();
        await screenshot(page, "chat-add-run-mapping-1440");
        assert.deepEqual([...await cutOffControls(page), ...await accessibilityViolations(page)], []);
        await page.getByTestId("add-run-button").click();
        await expectText(page.getByTestId("add-run-message"), new RegExp(`^Added as row ${quiz.rowCount + 1} of "quiz"\\. Undo`));
        await eventually(async () => {
            const saved = (await savedList()).find((item) => item.name === "quiz")!;
            assert.equal(saved.rowCount, quiz.rowCount + 1);
            assert.deepEqual(saved.columns, quiz.columns, "no column added");
        });
        await page.getByTestId("add-run-undo").click();
        await expectText(page.getByTestId("add-run-message"), "Undone: \"quiz\" is as it was.");
        await eventually(async () => assert.equal((await savedList()).find((item) => item.name === "quiz")!.rowCount, quiz.rowCount));
        await page.getByTestId("add-run-dataset").selectOption({label: "Chat runs"});
        await page.getByTestId("add-run-button").click();
        await expectText(page.getByTestId("add-run-message"), /Added as row 3 of "Chat runs"\./);
        await page.getByTestId("add-run-message").getByRole("button", {name: "Open"}).click();
        await page.locator("main[data-screen=datasets]").waitFor();
        assert.equal(await page.getByTestId("dataset-name").inputValue(), "Chat runs");
        assert.deepEqual(await page.getByTestId("dataset-column").evaluateAll((heads) => heads.map((head) => head.getAttribute("data-column"))), ["system", "user", "messages", "reply"]);
        await expectCount(page.getByTestId("dataset-row"), 3);
        assert.equal(await page.locator("[data-testid=dataset-row][data-row='0'] [data-testid=dataset-cell]").nth(1).textContent(), "Write a one-line story about a robot.");
        assert.deepEqual(pageErrors, []);
    });
});
