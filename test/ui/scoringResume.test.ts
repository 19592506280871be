// Scoring jobs saved in the app's data folder by the real gateway, with the local engine, in Chromium: a job running when
// the page reloads is open again and goes on by itself without scoring a stored row again; a finished job stays open on
// Scoring and Evaluation across a reload; a deleted job is gone after a reload; a job another window deletes while it
// runs, or a database another program holds, goes on in memory and says so.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {existsSync} from "node:fs";
import {mkdtemp, readFile, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, BrowserContext, Page} from "playwright-core";
import {parseCsv} from "../support/csv.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {expectText} from "./utils/expect.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {readSavedJobs} from "./utils/readAppData.ts";
import {readPageStorage} from "./utils/readPageStorage.ts";
import {openSqlite} from "../../base/node/sqlite.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const questionSet = {
    format: "decisions",
    name: "Resume check",
    questions: [{type: "predicate", name: "positive", instructions: "Is the review positive?"}]
};
const rowCount = 60;
// Each row names its index, so the requests the page sends can be traced back to rows.
const csvText = ["text", ...Array.from({length: rowCount}, (_, index) => `row-${index} says the parcel came on day ${index % 7} and was fine`)].join("\n") + "\n";
const rowOfRequest = (body: string | null) => Number(/row-(\d+) says/.exec(body ?? "")?.[1] ?? Number.NaN);

/** Every document in the app's database as the app reads it now: key and value. */
async function readDocuments(dataDir: string): Promise<Array<{key: string, value: string}>> {
    const file = path.join(dataDir, "app.sqlite");
    if (!existsSync(file)) return [];
    const db = openSqlite(file);
    try {
        db.pragma("busy_timeout = 5000");
        return db.prepare("SELECT key, value FROM documents").all() as Array<{key: string, value: string}>;
    } catch (error) {
        if (/no such table/.test((error as Error).message)) return [];
        throw error;
    } finally {
        db.close();
    }
}

describe("Scoring jobs survive a reload and can be continued", {skip: noChromium ?? false, timeout: 240_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let scratch: string;
    const pageErrors: string[] = [];
    /** While true, the console lines of failed gateway calls are expected (the tests that make saving fail). */
    let savingFails = false;
    const readStorage = () => readSavedJobs(gateway.dataDir);
    /** Every decisions request the page sent: the row it scores, whether it went before the reload, and when. */
    const requests: Array<{row: number, afterReload: boolean, at: number}> = [];
    let reloaded = false;

    const rowsText = () => page.getByTestId("scoring-rows").textContent();
    const waitStatus = (status: string, timeout = 60_000) => page.getByTestId("scoring-status").filter({hasText: status}).waitFor({timeout});
    const exportCsv = async (): Promise<string[][]> => {
        const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
        const target = path.join(scratch, `export-${Date.now()}.csv`);
        await file.saveAs(target);
        const [header, ...rows] = parseCsv((await readFile(target, "utf8")).replace(/^\ufeff/, "")).filter((row) => row.length > 1);
        assert.deepEqual(header, ["text", "positive.probability", "error"]);
        return rows;
    };
    const openScoring = async (on = page) => {
        await on.getByTestId("nav-scoring").click();
        await on.getByTestId("scoring-screen").waitFor();
    };
    /** The question set from a file, opened in the Decision studio as a person would. */
    const openQuestionSet = async (on: Page) => {
        const setFile = path.join(scratch, "resume.questions.json");
        await writeFile(setFile, JSON.stringify(questionSet, null, 2));
        await on.getByTestId("nav-decisions").click();
        await on.getByTestId("qs-open-input").setInputFiles(setFile);
        await on.getByTestId("qs-file-message").filter({hasText: "Opened"}).waitFor();
    };
    const importCsv = async (on = page) => {
        const file = path.join(scratch, "resume.csv");
        await writeFile(file, csvText);
        await on.getByTestId("scoring-file-input").setInputFiles(file);
        await on.getByTestId("import-summary").filter({hasText: `resume.csv · ${rowCount} rows × 1 columns`}).waitFor();
    };

    before(async () => {
        ensureRendererBuilt();
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-studio-resume-"));
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
        context = await browser.newContext({viewport: {width: 1440, height: 900}, colorScheme: "dark", acceptDownloads: true});
        page = await context.newPage();
        page.on("pageerror", (error) => pageErrors.push(error.message));
        page.on("console", (message) => {
            if (message.type() === "error" && !(savingFails && message.text().startsWith("Failed to load resource"))) pageErrors.push(message.text());
        });
        page.on("request", (request) => {
            if (request.method() === "POST" && /^\/local\/.+\/v1\/decisions$/.test(new URL(request.url()).pathname)) requests.push({row: rowOfRequest(request.postData()), afterReload: reloaded, at: Date.now()});
        });
        await page.goto(gateway.url);
        await openQuestionSet(page);
        await openScoring();
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
    });

    test("a job running when the page reloads is open again and goes on by itself: every row scored exactly once", async () => {
        await importCsv();
        assert.equal(await page.getByTestId("saved-jobs").count(), 0, "nothing saved yet");
        await page.getByTestId("scoring-concurrency").fill("1");
        // Each row takes at least 60 ms (the tiny model alone can score 40 rows in under a second), so the elapsed
        // time shown, in whole seconds, tells the whole job from the run after the reload.
        await page.route(/\/local\/.+\/v1\/decisions$/, async (route) => {
            await new Promise((resolve) => setTimeout(resolve, 60));
            await route.continue();
        });
        const startedAt = Date.now();
        await page.getByTestId("scoring-start").click();
        await waitStatus("running", 10_000);
        // The job is listed as soon as it starts (its table and record are saved first).
        await page.getByTestId("saved-job").first().waitFor();
        // Most rows before the reload, so that run takes longer than the one after it (the elapsed time must cover both).
        await page.waitForFunction(() => Number(/^(\d+)/.exec(document.querySelector("[data-testid=scoring-rows]")?.textContent ?? "")?.[1] ?? 0) >= 40);

        // The page dies mid-run: whatever was stored before this point must come back, and nothing else.
        // Only requests of the reloaded page count as "after": the old one may still send one while it unloads.
        const firstRunMs = Date.now() - startedAt;
        await page.reload();
        reloaded = true;
        const reloadedAt = Date.now();
        await openScoring();
        // Nothing to click: the job is open again, with its table and input mapping, and scores the rows it lacks.
        await page.getByTestId("import-summary").filter({hasText: `resume.csv · ${rowCount} rows × 1 columns`}).waitFor();
        assert.equal(await page.getByTestId("mapping-template").inputValue(), "{{text}}", "the job's input mapping comes back");
        assert.ok(await page.getByTestId("header-mode").isDisabled(), "a saved table has no file to read again");
        const saved = page.getByTestId("saved-job");
        assert.equal(await saved.count(), 1);
        assert.equal(await saved.getByTestId("saved-job-file").textContent(), "resume.csv");
        await page.getByTestId("scoring-concurrency").fill("4");
        await waitStatus("completed");
        const secondRunMs = Date.now() - reloadedAt;
        assert.equal(await rowsText(), `${rowCount} / ${rowCount} rows`);
        assert.equal(await page.getByTestId("scoring-errors").textContent(), "0");
        assert.equal(await saved.getByTestId("saved-job-status").textContent(), "completed");
        assert.equal(await saved.getByTestId("saved-job-rows").textContent(), `${rowCount} / ${rowCount} rows`);
        assert.ok(requests.some((request) => request.afterReload), "the reloaded page scored rows");
        // The elapsed time and rate are the whole job's, the run before the reload included, not only the run after it.
        const elapsed = await page.getByTestId("scoring-elapsed").textContent() ?? "";
        const seconds = /^< 1 s$/.test(elapsed) ? 0.5 : Number(/^(\d+) s$/.exec(elapsed)?.[1]);
        const rate = Number(await page.getByTestId("scoring-rate").textContent());
        // At least the time the job was surely running before the reload (from its first request to its last one, which
        // the test's own clock would overstate by the job's start on a busy machine), at most both runs on that clock.
        const sentBefore = requests.filter((request) => !request.afterReload);
        const runningBeforeMs = sentBefore[sentBefore.length - 1].at - sentBefore[0].at;
        assert.ok(seconds >= runningBeforeMs / 1000 - 1 && seconds <= (firstRunMs + secondRunMs) / 1000 + 1,
            `elapsed ${elapsed}: before the reload the job sent requests for ${(runningBeforeMs / 1000).toFixed(1)} s (${(firstRunMs / 1000).toFixed(1)} s since Start), ` +
            `the run after it took ${(secondRunMs / 1000).toFixed(1)} s`);
        assert.ok(Math.abs(rate - rowCount / seconds) <= rowCount / seconds * 0.25 + 0.1, `rows/s ${rate}: ${rowCount} rows over ${elapsed}`);

        // Rows stored before the reloaded page sent its first request were not sent again; every other row was, after it.
        const after = await readStorage();
        const firstAfter = Math.min(...requests.filter((request) => request.afterReload).map((request) => request.at));
        const storedRows = new Set(after.results.filter((entry) => entry.result.completedAt < firstAfter).map((entry) => entry.rowIndex));
        assert.ok(storedRows.size >= 40 && storedRows.size < rowCount, `${storedRows.size} of ${rowCount} stored before the reload`);
        // The one row (concurrency 1) whose result the closing page was still saving may reach the data folder only
        // after the reloaded page read the job: that row, the last stored before the reload, may be sent again (it is
        // stored once). No other stored row is.
        const lastStored = after.results.filter((entry) => storedRows.has(entry.rowIndex)).sort((a, b) => b.result.completedAt - a.result.completedAt)[0].rowIndex;
        const resent = requests.filter((request) => request.afterReload && storedRows.has(request.row) && request.row !== lastStored).map((request) => request.row);
        assert.deepEqual(resent, [], "rows stored before the reload are not scored again");
        const sentAfter = new Set(requests.filter((request) => request.afterReload).map((request) => request.row));
        for (let rowIndex = 0; rowIndex < rowCount; rowIndex++) if (!storedRows.has(rowIndex)) assert.ok(sentAfter.has(rowIndex), `row ${rowIndex} scored after the reload`);
        assert.ok(requests.length >= rowCount && requests.every((request) => Number.isInteger(request.row)), "every request traced to its row");

        // Every row has exactly one result.
        const final = await exportCsv();
        assert.deepEqual(final.map((row) => row[0]), csvText.trim().split("\n").slice(1));
        for (const row of final) {
            assert.ok(Number(row[1]) >= 0 && Number(row[1]) <= 1 && row[1] !== "", row.join(" | "));
            assert.equal(row[2], "");
        }
        assert.equal(after.jobs[0].status, "completed");
        assert.equal(after.jobs[0].totalRows, rowCount);
        assert.deepEqual(after.results.map((entry) => entry.rowIndex), Array.from({length: rowCount}, (_, index) => index), "one stored result per row");
        await page.getByTestId("scoring-run-card").scrollIntoViewIfNeeded();
        await screenshot(page, "scoring-resume-completed");
        await page.unroute(/\/local\/.+\/v1\/decisions$/);
    });

    test("a finished job stays open across a reload, on Spreadsheet scoring and on Evaluation", async () => {
        await page.reload();
        await openScoring();
        await page.getByTestId("import-summary").filter({hasText: `resume.csv · ${rowCount} rows × 1 columns`}).waitFor();
        await waitStatus("completed", 10_000);
        assert.equal(await rowsText(), `${rowCount} / ${rowCount} rows`);
        assert.ok(await page.getByTestId("grid-row").count() >= 15, "the results grid is back");
        await page.getByTestId("nav-evaluation").click();
        await page.getByTestId("evaluation-job").filter({hasText: `resume.csv · Resume check · ${rowCount} answered rows`}).waitFor({timeout: 10_000});
        assert.equal(await page.getByTestId("eval-card").count(), 1);
        // The Evaluation screen after a reload of its own.
        await page.reload();
        await page.getByTestId("evaluation-job").filter({hasText: `resume.csv · Resume check · ${rowCount} answered rows`}).waitFor({timeout: 10_000});
        await openScoring();
    });

    test("a saved job has a name, file · set · start time until it is given one in place, kept across a reload", async () => {
        const job = page.getByTestId("saved-job");
        const time = await job.getByTestId("saved-job-time").textContent();
        await expectText(job.getByTestId("saved-job-name"), `resume.csv · Resume check · ${time}`);
        await job.getByTestId("saved-job-rename").click();
        await job.getByTestId("saved-job-rename-input").fill("Parcel reviews, first pass");
        await job.getByTestId("saved-job-rename-input").press("Enter");
        await expectText(job.getByTestId("saved-job-name"), "Parcel reviews, first pass");
        // Escape leaves the name as it was.
        await job.getByTestId("saved-job-rename").click();
        await job.getByTestId("saved-job-rename-input").fill("something else");
        await job.getByTestId("saved-job-rename-input").press("Escape");
        await expectText(job.getByTestId("saved-job-name"), "Parcel reviews, first pass");
        await page.reload();
        await openScoring();
        await expectText(page.getByTestId("saved-job").getByTestId("saved-job-name"), "Parcel reviews, first pass");
        assert.equal(await page.getByTestId("saved-job").getByTestId("saved-job-file").textContent(), "resume.csv");
        // A blank name gives the job its default back.
        await page.getByTestId("saved-job-rename").click();
        await page.getByTestId("saved-job-rename-input").fill("");
        await page.getByTestId("saved-job-rename-input").press("Enter");
        await expectText(page.getByTestId("saved-job-name"), `resume.csv · Resume check · ${time}`);
    });

    test("a deleted job is gone, also after a reload", async () => {
        const jobId = await page.getByTestId("saved-job").getAttribute("data-job-id");
        page.once("dialog", (dialog) => void dialog.accept());
        await page.getByTestId("saved-job-delete").click();
        await page.getByTestId("saved-jobs").waitFor({state: "detached"});
        assert.equal(await page.getByTestId("scoring-progress").count(), 0, "the screen forgets the deleted job");
        assert.equal(await page.getByTestId("export-csv").count(), 0);
        await page.reload();
        await openScoring();
        const storage = await readStorage();
        assert.deepEqual(storage, {jobs: [], results: [], tables: []});
        // Nowhere in the page's storage, the data folder's files, or the app's saved documents as they now read. The
        // database file itself is left out of the byte search: its freed pages and write-ahead log may still hold an
        // earlier revision of a document (the open job's, which named this job) until SQLite reuses them.
        const kept = JSON.stringify([await readPageStorage(page, gateway.dataDir, {except: /^app\.sqlite/}), await readDocuments(gateway.dataDir)]);
        assert.ok(jobId !== null && !kept.includes(jobId), `found in: ${jobId === null ? "" : kept.slice(Math.max(0, kept.indexOf(jobId) - 200), kept.indexOf(jobId) + 100)}`);
        // The list shows nothing while it is empty, as while it loads: so rather than watching it stay empty for a
        // while, start a job (of one row) and wait for the list that shows it. savedJobs.ts runs one operation at a
        // time, so that listing comes after the one the screen made as it opened: the new job must be alone in it.
        const file = path.join(scratch, "one.csv");
        await writeFile(file, "text\nrow-0 says the parcel came\n");
        await page.getByTestId("scoring-file-input").setInputFiles(file);
        await page.getByTestId("import-summary").filter({hasText: "one.csv · 1 rows"}).waitFor();
        await page.getByTestId("scoring-start").click();
        await page.locator(`[data-testid=saved-job]:not([data-job-id="${jobId}"])`).waitFor();
        assert.deepEqual(await page.getByTestId("saved-job-file").allTextContents(), ["one.csv"], "the deleted job is not listed after the reload");
        await waitStatus("completed");
        page.once("dialog", (dialog) => void dialog.accept());
        await page.getByTestId("saved-job-delete").click();
        await page.getByTestId("saved-jobs").waitFor({state: "detached"});
    });

    test("the job deleted mid-job by another window: scoring goes on in memory and says so; the next job is saved again", async () => {
        await importCsv();
        await page.getByTestId("scoring-concurrency").fill("1");
        await page.getByTestId("scoring-start").click();
        await page.getByTestId("saved-job").first().waitFor();
        const jobId = await page.getByTestId("saved-job").first().getAttribute("data-job-id");
        await page.waitForFunction(() => Number(/^(\d+)/.exec(document.querySelector("[data-testid=scoring-rows]")?.textContent ?? "")?.[1] ?? 0) >= 5);
        assert.equal(await page.getByTestId("scoring-save-note").count(), 0, "saving so far");
        savingFails = true;
        const deleted = await fetch(`${gateway.url.replace(/\/$/, "")}/gateway/api/app-data/scoring-jobs/${jobId}`, {method: "DELETE", headers: {"X-Gateway-Token": gateway.token}});
        assert.deepEqual(await deleted.json(), {deleted: true});
        await page.getByTestId("scoring-save-note").filter({hasText: `Results are not being saved in the app's data folder (no job ${jobId})`}).waitFor({timeout: 10_000});
        await waitStatus("completed");
        savingFails = false;
        assert.equal(await rowsText(), `${rowCount} / ${rowCount} rows`);
        const rows = await exportCsv();
        assert.equal(rows.filter((row) => row[1] !== "" && row[2] === "").length, rowCount, "every row answered, in memory");
        await page.getByTestId("scoring-run-card").scrollIntoViewIfNeeded();
        await screenshot(page, "scoring-resume-not-saved");
        // The next job is saved again.
        await page.getByTestId("saved-jobs").waitFor({state: "detached"});
        await page.getByTestId("scoring-concurrency").fill("4");
        await page.getByTestId("scoring-start").click();
        // The list was empty: the job it shows now is the new one (the run card still shows the last job's end).
        await page.getByTestId("saved-job-status").filter({hasText: "completed"}).waitFor({timeout: 60_000});
        await waitStatus("completed");
        assert.equal(await page.getByTestId("scoring-save-note").count(), 0);
        const storage = await readStorage();
        assert.equal(storage.jobs.length, 1);
        assert.equal(storage.results.length, rowCount);
    });

    test("a database that cannot be written (another program holds it): scoring works in memory and the page says its results are not saved", async () => {
        await page.reload();
        await openScoring();
        // Another program's write transaction: the gateway reads on (WAL), and its writes give up after its busy timeout.
        const holder = openSqlite(path.join(gateway.dataDir, "app.sqlite"));
        holder.exec("BEGIN IMMEDIATE");
        savingFails = true;
        try {
            await importCsv();
            await page.getByTestId("scoring-start").click();
            await page.getByTestId("scoring-save-note").filter({hasText: /Results are not being saved in the app's data folder \(the app's database in .* is held by another program/})
                .waitFor({timeout: 20_000});
            await waitStatus("completed");
            assert.equal(await rowsText(), `${rowCount} / ${rowCount} rows`);
            assert.ok(await page.getByTestId("grid-row").count() >= 15);
        } finally {
            holder.exec("ROLLBACK");
            holder.close();
            savingFails = false;
        }
        // Nothing of the job scored in memory reached the database: the one job saved is the earlier test's.
        const storage = await readStorage();
        assert.deepEqual([storage.jobs.length, storage.results.length], [1, rowCount]);
        assert.ok(await page.locator("[data-testid=saved-job]").count() <= 1, "the saved jobs list shows no job that was not saved");
    });

    test("no page errors", () => {
        assert.deepEqual(pageErrors, []);
    });
});
