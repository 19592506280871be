// The Evaluation screen with no job open: it says what to do, naming the saved jobs when there are some.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {newAppPage} from "./utils/appPage.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {expectText} from "./utils/expect.ts";
import {gatewayApi} from "./utils/gatewayApi.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

describe("Evaluation with no job open", {skip: noChromium ?? false, timeout: 180_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    before(async () => {
        ensureRendererBuilt();
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
        page = await newAppPage(browser, pageErrors);
        await page.goto(gateway.url);
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
    });

    test("with no saved job it asks for a scored table; with one it points to the saved jobs", async () => {
        await page.getByTestId("nav-evaluation").click();
        await expectText(page.getByTestId("evaluation-empty"), /^Score a table first: Spreadsheet scoring\./);

        const createdAt = Date.now();
        await gatewayApi(page, "/app-data/scoring-jobs", {method: "POST", body: {
            record: {jobId: "saved-1", status: "paused", totalRows: 2, error: null, createdAt, updatedAt: createdAt,
                spec: {questionSet: {format: "decisions", name: "tone", questions: []}, input: {kind: "row"}, columns: ["text"], source: {name: "reviews.csv", sheet: null}}},
            table: {fileName: "reviews.csv", format: "csv", sheets: [], sheet: null, header: "auto", headerDetected: true, hasHeader: true, columns: ["text"], rows: [["good"], ["bad"]]}
        }});
        await page.reload();
        await page.locator("main[data-screen=evaluation]").waitFor();
        await expectText(page.getByTestId("evaluation-empty"), /^Open one of your 1 saved scoring job on Spreadsheet scoring, or score a table there\./);
        await page.getByTestId("evaluation-empty").getByRole("button", {name: "Spreadsheet scoring"}).click();
        await page.locator("main[data-screen=scoring]").waitFor();
        await expectText(page.getByTestId("saved-jobs"), /reviews\.csv/);
        assert.deepEqual(pageErrors, []);
    });
});
