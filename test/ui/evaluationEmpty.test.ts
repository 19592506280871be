// The Evaluation screen with no job open: it says what to do, naming the saved jobs when there are some.
import {describe, test} from "node:test";
import assert from "node:assert/strict";
import {expectText} from "./utils/expect.ts";
import {gatewayApi} from "./utils/gatewayApi.ts";
import {noChromium} from "./utils/launchChromium.ts";
import {appSession} from "./utils/appSession.ts";

describe("Evaluation with no job open", {skip: noChromium ?? false, timeout: 180_000}, () => {
    const session = appSession("evaluation-empty");

    test("with no saved job it asks for a scored table; with one it points to the saved jobs", async () => {
        const {page, pageErrors} = session;
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
