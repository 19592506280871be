// Scoring jobs saved in the browser (IndexedDB) against the real gateway and local engine, in Chromium: a job
// interrupted by a reload is listed, opened with its results and continued without scoring a stored row again;
// a deleted job is gone after a reload; and the IndexedDbResultStore contract, run inside the browser.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, BrowserContext, Page} from "playwright-core";
import {build} from "vite";
import type {JobRecord, RowResult} from "../../client/scoring/index.ts";
import {parseCsv} from "../support/csv.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {readPageStorage} from "./utils/readPageStorage.ts";
import {screenshot} from "./utils/screenshot.ts";
import {repoRoot} from "./utils/startProcess.ts";
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

type StoredResult = {jobId: string, rowIndex: number, ok: 0 | 1, result: RowResult};
type Storage = {jobs: JobRecord[], results: StoredResult[], tables: Array<{jobId: string}>};

async function readStorage(page: Page): Promise<Storage> {
    const dump = JSON.parse(await readPageStorage(page)) as Record<string, unknown>;
    return {
        jobs: (dump["svc-studio-jobs/jobs"] ?? []) as JobRecord[],
        results: (dump["svc-studio-jobs/results"] ?? []) as StoredResult[],
        tables: (dump["svc-studio-scoring-tables/tables"] ?? []) as Array<{jobId: string}>
    };
}

describe("Scoring jobs survive a reload and can be continued", {skip: noChromium ?? false, timeout: 240_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let scratch: string;
    const pageErrors: string[] = [];
    /** Every decisions request the page sent: the row it scores, and whether it went before the reload. */
    const requests: Array<{row: number, afterReload: boolean}> = [];
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
            if (message.type() === "error") pageErrors.push(message.text());
        });
        page.on("request", (request) => {
            if (request.method() === "POST" && /^\/local\/.+\/v1\/decisions$/.test(new URL(request.url()).pathname)) requests.push({row: rowOfRequest(request.postData()), afterReload: reloaded});
        });
        await page.goto(gateway.url);
        await openQuestionSet(page);
        await openScoring();
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
    });

    test("a job interrupted by a reload is listed, opened with its results, and continued: every row scored exactly once", async () => {
        await importCsv();
        assert.equal(await page.getByTestId("saved-jobs").count(), 0, "nothing saved yet");
        await page.getByTestId("scoring-concurrency").fill("1");
        await page.getByTestId("scoring-start").click();
        await waitStatus("running", 10_000);
        // The job is listed as soon as it starts (its table and record are saved first).
        await page.getByTestId("saved-job").first().waitFor();
        await page.waitForFunction(() => Number(/^(\d+)/.exec(document.querySelector("[data-testid=scoring-rows]")?.textContent ?? "")?.[1] ?? 0) >= 12);

        // The page dies mid-run: whatever was stored before this point must come back, and nothing else.
        // Only requests of the reloaded page count as "after": the old one may still send one while it unloads.
        await page.reload();
        reloaded = true;
        const reloadedAt = Date.now();
        // A result whose write was under way as the page went commits or is aborted before this first read: IndexedDB
        // starts a read only once every write transaction created before it on the same store has finished, and the
        // old page created its last one before it was unloaded. So there is nothing to wait for: this is what stays.
        const stored = await readStorage(page);
        assert.equal(stored.jobs.length, 1);
        const [record] = stored.jobs;
        assert.equal(record.status, "running", "stored as running: the page closed mid-run");
        assert.deepEqual(stored.tables.map((table) => table.jobId), [record.jobId]);
        const storedRows = new Set(stored.results.map((entry) => entry.rowIndex));
        assert.ok(storedRows.size >= 12 && storedRows.size < rowCount, `${storedRows.size} of ${rowCount} stored before the reload`);
        assert.ok(stored.results.every((entry) => entry.jobId === record.jobId && entry.result.rowIndex === entry.rowIndex && entry.ok === 1));
        assert.ok(stored.results.every((entry) => entry.result.completedAt <= reloadedAt), "stored before the reload");

        await openScoring();
        const saved = page.getByTestId("saved-job");
        await saved.first().waitFor();
        assert.equal(await saved.count(), 1);
        assert.equal(await saved.getByTestId("saved-job-name").textContent(), "resume.csv");
        assert.equal(await saved.getByTestId("saved-job-rows").textContent(), `${storedRows.size} / ${rowCount} rows`);
        assert.equal(await saved.getByTestId("saved-job-status").textContent(), "interrupted");
        await screenshot(page, "scoring-resume-list");

        await saved.getByTestId("saved-job-open").click();
        await page.getByTestId("import-summary").filter({hasText: `resume.csv · ${rowCount} rows × 1 columns`}).waitFor();
        await waitStatus("interrupted", 10_000);
        assert.equal(await rowsText(), `${storedRows.size} / ${rowCount} rows`);
        assert.equal(await page.getByTestId("mapping-template").inputValue(), "{{text}}", "the job's input mapping comes back");
        assert.ok(await page.getByTestId("header-mode").isDisabled(), "a saved table has no file to read again");
        assert.equal(await page.getByTestId("histogram").count(), 1);
        // The grid shows an answer exactly on the stored rows (those in the DOM: it is virtualized).
        const gridRows = await page.getByTestId("grid-row").evaluateAll((rows) => rows.map((row) => [Number(row.getAttribute("data-row")), row.children[2]?.textContent ?? ""] as const));
        assert.ok(gridRows.length >= 15, `${gridRows.length} grid rows drawn`);
        for (const [rowIndex, probability] of gridRows) assert.equal(probability !== "", storedRows.has(rowIndex), `grid row ${rowIndex}: "${probability}"`);
        await page.getByTestId("scoring-run-card").scrollIntoViewIfNeeded();
        await screenshot(page, "scoring-resume-opened");
        await page.getByTestId("results-grid").scrollIntoViewIfNeeded();
        await screenshot(page, "scoring-resume-opened-grid");

        // The export of the restored job: the stored rows answered, the others empty.
        const before = await exportCsv();
        assert.equal(before.length, rowCount);
        before.forEach((row, rowIndex) => assert.equal(row[1] !== "", storedRows.has(rowIndex), `export row ${rowIndex}`));

        await page.getByTestId("scoring-concurrency").fill("4");
        await page.getByTestId("scoring-continue").click();
        await waitStatus("completed");
        assert.equal(await rowsText(), `${rowCount} / ${rowCount} rows`);
        assert.equal(await page.getByTestId("scoring-errors").textContent(), "0");
        assert.equal(await saved.getByTestId("saved-job-status").textContent(), "completed");
        assert.equal(await saved.getByTestId("saved-job-rows").textContent(), `${rowCount} / ${rowCount} rows`);

        // No stored row was sent again; every other row was, after the reload.
        const resent = requests.filter((request) => request.afterReload && storedRows.has(request.row)).map((request) => request.row);
        assert.deepEqual(resent, [], "rows stored before the reload are not scored again");
        const sentAfter = new Set(requests.filter((request) => request.afterReload).map((request) => request.row));
        for (let rowIndex = 0; rowIndex < rowCount; rowIndex++) if (!storedRows.has(rowIndex)) assert.ok(sentAfter.has(rowIndex), `row ${rowIndex} scored after the reload`);
        assert.ok(requests.length >= rowCount && requests.every((request) => Number.isInteger(request.row)), "every request traced to its row");

        // Every row has exactly one result, and the rows scored before the reload kept theirs.
        const final = await exportCsv();
        assert.deepEqual(final.map((row) => row[0]), csvText.trim().split("\n").slice(1));
        for (const row of final) {
            assert.ok(Number(row[1]) >= 0 && Number(row[1]) <= 1 && row[1] !== "", row.join(" | "));
            assert.equal(row[2], "");
        }
        for (const rowIndex of storedRows) assert.equal(final[rowIndex][1], before[rowIndex][1], `row ${rowIndex} kept its first answer`);
        const after = await readStorage(page);
        assert.equal(after.jobs[0].status, "completed");
        assert.equal(after.jobs[0].totalRows, rowCount);
        assert.deepEqual(after.results.map((entry) => entry.rowIndex), Array.from({length: rowCount}, (_, index) => index), "one stored result per row");
        for (const entry of stored.results)
            assert.deepEqual(after.results[entry.rowIndex].result, entry.result, `row ${entry.rowIndex}: the result stored before the reload is untouched`);
        await page.getByTestId("scoring-run-card").scrollIntoViewIfNeeded();
        await screenshot(page, "scoring-resume-completed");
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
        const storage = await readStorage(page);
        assert.deepEqual(storage, {jobs: [], results: [], tables: []});
        assert.ok(jobId !== null && !(await readPageStorage(page)).includes(jobId));
        // The list shows nothing while it is empty, as while it loads: so rather than watching it stay empty for a
        // while, start a job (of one row) and wait for the list that shows it. savedJobs.ts runs one operation at a
        // time, so that listing comes after the one the screen made as it opened: the new job must be alone in it.
        const file = path.join(scratch, "one.csv");
        await writeFile(file, "text\nrow-0 says the parcel came\n");
        await page.getByTestId("scoring-file-input").setInputFiles(file);
        await page.getByTestId("import-summary").filter({hasText: "one.csv · 1 rows"}).waitFor();
        await page.getByTestId("scoring-start").click();
        await page.locator(`[data-testid=saved-job]:not([data-job-id="${jobId}"])`).waitFor();
        assert.deepEqual(await page.getByTestId("saved-job-name").allTextContents(), ["one.csv"], "the deleted job is not listed after the reload");
        await waitStatus("completed");
        page.once("dialog", (dialog) => void dialog.accept());
        await page.getByTestId("saved-job-delete").click();
        await page.getByTestId("saved-jobs").waitFor({state: "detached"});
    });

    test("the job database deleted mid-job (as clearing the site's data does): scoring goes on in memory and says so; the next job is saved again", async () => {
        await importCsv();
        await page.getByTestId("scoring-concurrency").fill("1");
        await page.getByTestId("scoring-start").click();
        await page.getByTestId("saved-job").first().waitFor();
        await page.waitForFunction(() => Number(/^(\d+)/.exec(document.querySelector("[data-testid=scoring-rows]")?.textContent ?? "")?.[1] ?? 0) >= 5);
        assert.equal(await page.getByTestId("scoring-save-note").count(), 0, "saving so far");
        await page.evaluate(() => new Promise((resolve, reject) => {
            const request = indexedDB.deleteDatabase("svc-studio-jobs");
            request.onsuccess = resolve;
            request.onerror = () => reject(request.error);
        }));
        await page.getByTestId("scoring-save-note").filter({hasText: "Results are not being saved in this browser (its storage for this app was closed"}).waitFor({timeout: 10_000});
        await waitStatus("completed");
        assert.equal(await rowsText(), `${rowCount} / ${rowCount} rows`);
        const rows = await exportCsv();
        assert.equal(rows.filter((row) => row[1] !== "" && row[2] === "").length, rowCount, "every row answered, in memory");
        await page.getByTestId("scoring-run-card").scrollIntoViewIfNeeded();
        await screenshot(page, "scoring-resume-not-saved");
        // The database is opened afresh for the next job, which is saved again.
        await page.getByTestId("saved-jobs").waitFor({state: "detached"});
        await page.getByTestId("scoring-concurrency").fill("4");
        await page.getByTestId("scoring-start").click();
        // The list was empty: the job it shows now is the new one (the run card still shows the last job's end).
        await page.getByTestId("saved-job-status").filter({hasText: "completed"}).waitFor({timeout: 60_000});
        await waitStatus("completed");
        assert.equal(await page.getByTestId("scoring-save-note").count(), 0);
        const storage = await readStorage(page);
        assert.equal(storage.jobs.length, 1);
        assert.equal(storage.results.length, rowCount);
    });

    test("without IndexedDB, scoring works in memory and the page says its results are not saved", async () => {
        const bare = await browser.newContext({viewport: {width: 1440, height: 900}, colorScheme: "dark"});
        // As in a browser whose settings turn IndexedDB off.
        await bare.addInitScript(() => Object.defineProperty(window, "indexedDB", {value: undefined, configurable: true}));
        const other = await bare.newPage();
        const errors: string[] = [];
        other.on("pageerror", (error) => errors.push(error.message));
        await other.goto(gateway.url);
        await openQuestionSet(other);
        await openScoring(other);
        await importCsv(other);
        await other.getByTestId("scoring-start").click();
        await other.getByTestId("scoring-save-note").filter({hasText: "IndexedDB is not available in this browser"}).waitFor({timeout: 10_000});
        await other.getByTestId("scoring-status").filter({hasText: "completed"}).waitFor({timeout: 60_000});
        assert.equal(await other.getByTestId("scoring-rows").textContent(), `${rowCount} / ${rowCount} rows`);
        assert.equal(await other.getByTestId("saved-jobs").count(), 0);
        assert.ok(await other.getByTestId("grid-row").count() >= 15);
        assert.deepEqual(errors, []);
        await bare.close();
    });

    test("IndexedDbResultStore keeps its contract in Chromium, and its data through a reload", async () => {
        // The store is bundled for this test only and put into a page of its own context: the app ships no hook.
        const bundle = await build({configFile: false, logLevel: "silent", root: repoRoot, build: {write: false, minify: false,
            lib: {entry: path.join(repoRoot, "client/scoring/browser/IndexedDbResultStore.ts"), formats: ["iife"], name: "SvcStores", fileName: "stores"}}});
        const code = (Array.isArray(bundle) ? bundle[0] : bundle as {output: Array<{code: string}>}).output[0].code;
        const storeContext = await browser.newContext();
        // tsx (esbuild keepNames) wraps the named helpers of the evaluated functions in __name(), absent in a page.
        await storeContext.addInitScript({content: `${code}\nglobalThis.SvcStores = SvcStores;\nglobalThis.__name = (target) => target;`});
        const storePage = await storeContext.newPage();
        const errors: string[] = [];
        storePage.on("pageerror", (error) => errors.push(error.message));
        await storePage.goto(gateway.url);

        const first = await storePage.evaluate(async () => {
            const {IndexedDbResultStore} = (window as unknown as {SvcStores: typeof import("../../client/scoring/browser/IndexedDbResultStore.ts")}).SvcStores;
            // Every write transaction the store opens, as the browser reports its durability.
            const durabilities: string[] = [];
            const open = IDBDatabase.prototype.transaction;
            IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<typeof open>) {
                const transaction = open.apply(this, args);
                if (transaction.mode === "readwrite") durabilities.push(transaction.durability);
                return transaction;
            };
            const store = await IndexedDbResultStore.open({name: "contract"});
            const job = (jobId: string, createdAt: number): JobRecord => ({jobId, status: "running", totalRows: null, error: null, createdAt, updatedAt: createdAt,
                spec: {questionSet: {format: "systemone", questions: {a: {type: "noul"}}}, input: {kind: "row"}, columns: ["x"], source: {name: "t.csv", sheet: null}}});
            const ok = (rowIndex: number, attempts = 1): RowResult => ({rowIndex, ok: true, response: {answers: {a: {type: "noul", noul: rowIndex / 10}}}, attempts, durationMs: 5, completedAt: 100 + rowIndex});
            const bad = (rowIndex: number): RowResult => ({rowIndex, ok: false, error: {status: 400, code: "request_rejected", message: "too long"}, attempts: 1, durationMs: 5, completedAt: 100 + rowIndex});
            const rejection = (promise: Promise<unknown>) => promise.then(() => "resolved", (error: Error) => error.message);
            await store.createJob(job("j1", 1));
            await store.createJob(job("j2", 2));
            const out: Record<string, unknown> = {};
            out.createTwice = await rejection(store.createJob(job("j1", 3)));
            out.puts = [await store.putResult("j1", ok(5)), await store.putResult("j1", bad(2)), await store.putResult("j1", ok(0)), await store.putResult("j1", ok(11)),
                await store.putResult("j1", ok(5, 9)), await store.putResult("j2", ok(5))];
            out.noJob = await rejection(store.putResult("nope", ok(0)));
            // Twenty writers race for one row: exactly one wins, and its result is the one stored.
            const race = await Promise.all(Array.from({length: 20}, (_, index) => store.putResult("j1", ok(7, index + 1))));
            out.raceWinners = race.filter(Boolean).length;
            out.raceStored = (await store.readResults("j1", 7, 1))[0].attempts === race.indexOf(true) + 1;
            out.counts = await store.countResults("j1");
            out.order = (await store.readResults("j1")).map((result) => [result.rowIndex, result.attempts]);
            out.page = (await store.readResults("j1", 3, 2)).map((result) => result.rowIndex);
            out.limitZero = (await store.readResults("j1", 0, 0)).length;
            out.pastEnd = (await store.readResults("j1", 12)).length;
            out.firstResult = (await store.readResults("j1", 0, 1))[0];
            out.done = [...await store.doneRowIndexes("j1")].sort((a, b) => a - b);
            await store.updateJob("j1", {status: "completed", totalRows: 12});
            out.updateMissing = await rejection(store.updateJob("nope", {status: "failed"}));
            out.list = (await store.listJobs()).map((record) => [record.jobId, record.status, record.totalRows]);
            // Throughput of durable (strict) single-row commits, for the record.
            await store.createJob(job("speed", 4));
            const started = performance.now();
            for (let rowIndex = 0; rowIndex < 200; rowIndex++) await store.putResult("speed", ok(rowIndex));
            out.putsPerSecond = Math.round(200 / ((performance.now() - started) / 1000));
            await store.deleteJob("speed");
            await store.close();
            out.durabilities = [...new Set(durabilities)];
            out.writes = durabilities.length;
            return out;
        });
        assert.equal(first.createTwice, "job j1 exists");
        assert.deepEqual(first.puts, [true, true, true, true, false, true], "a second result for row 5 is refused; j2 is separate");
        assert.equal(first.noJob, "no job nope");
        assert.equal(first.raceWinners, 1);
        assert.equal(first.raceStored, true);
        assert.deepEqual(first.counts, {ok: 4, errors: 1});
        assert.deepEqual(first.order, [[0, 1], [2, 1], [5, 1], [7, (first.order as number[][])[3][1]], [11, 1]], "row order, the first result of row 5 kept");
        assert.deepEqual(first.page, [5, 7]);
        assert.equal(first.limitZero, 0);
        assert.equal(first.pastEnd, 0);
        assert.deepEqual(first.firstResult, {rowIndex: 0, ok: true, response: {answers: {a: {type: "noul", noul: 0}}}, attempts: 1, durationMs: 5, completedAt: 100});
        assert.deepEqual(first.done, [0, 2, 5, 7, 11]);
        assert.equal(first.updateMissing, "no job nope");
        assert.deepEqual(first.list, [["j2", "running", null], ["j1", "completed", 12]], "newest first");
        assert.deepEqual(first.durabilities, ["strict"], `all ${first.writes} write transactions are strict`);
        assert.ok(Number(first.writes) > 230);

        // A new page load, a new connection: everything is still there; then the deletions.
        await storePage.reload();
        const second = await storePage.evaluate(async () => {
            const {IndexedDbResultStore} = (window as unknown as {SvcStores: typeof import("../../client/scoring/browser/IndexedDbResultStore.ts")}).SvcStores;
            const store = await IndexedDbResultStore.open({name: "contract"});
            const out: Record<string, unknown> = {};
            const record = await store.getJob("j1");
            out.record = record && [record.status, record.totalRows, record.spec.source?.name, record.updatedAt > record.createdAt];
            out.done = [...await store.doneRowIndexes("j1")].sort((a, b) => a - b);
            out.deletedErrors = await store.deleteErrors("j1");
            out.afterDeleteErrors = [...await store.doneRowIndexes("j1")].sort((a, b) => a - b);
            out.counts = await store.countResults("j1");
            await store.deleteJob("j2");
            out.j2 = [await store.getJob("j2"), await store.countResults("j2"), (await store.readResults("j2")).length];
            out.j1Untouched = (await store.readResults("j1")).length;
            out.list = (await store.listJobs()).map((record) => record.jobId);
            await store.close();
            return out;
        });
        assert.deepEqual(second.record, ["completed", 12, "t.csv", true]);
        assert.deepEqual(second.done, [0, 2, 5, 7, 11]);
        assert.equal(second.deletedErrors, 1);
        assert.deepEqual(second.afterDeleteErrors, [0, 5, 7, 11]);
        assert.deepEqual(second.counts, {ok: 4, errors: 0});
        assert.deepEqual(second.j2, [null, {ok: 0, errors: 0}, 0]);
        assert.equal(second.j1Untouched, 4);
        assert.deepEqual(second.list, ["j1"]);
        assert.deepEqual(errors, []);
        console.log(`# IndexedDbResultStore: ${first.putsPerSecond} durable single-row puts/s in Chromium`);
        await storeContext.close();
    });

    test("no page errors", () => {
        assert.deepEqual(pageErrors, []);
    });
});
