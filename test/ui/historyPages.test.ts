// History reads the run history a page at a time, against the real gateway and its database in Chromium: a visit asks
// for the newest page only, Show older runs reads the next, the search looks through the runs shown, and Delete, Open
// and Clear all work on runs of any page. The runs are an earlier version's history folder, moved into the database at
// the first start.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readdir, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {writeOldRun} from "../support/appData/oldItemFolders.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {expectCount, expectText} from "./utils/expect.ts";
import {newAppPage} from "./utils/appPage.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {readHistory} from "./utils/readAppData.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const runs = 60;
const label = (index: number) => String(index).padStart(2, "0");
const run = (index: number) => ({
    id: `run-${label(index)}`, kind: "chat", createdAt: 1_700_000_000_000 + index * 1_000, connectionName: "Local engine", connectionKind: "local", status: "done",
    request: {model: "svc-1", messages: [{role: "user", content: `question ${label(index)} about zebu`}]},
    reply: {choices: [{index: 0, content: `answer ${label(index)}`, reasoning: "", toolCalls: [], finishReason: "stop", tokens: []}], chunks: 0},
    timing: {totalMs: 20}
});

describe("History a page at a time", {skip: noChromium ?? false, timeout: 180_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    let dataDir: string;
    const pageErrors: string[] = [];
    /** The history pages the page asked for: their query. */
    const asked: string[] = [];

    before(async () => {
        ensureRendererBuilt();
        dataDir = await mkdtemp(path.join(os.tmpdir(), "svc-studio-history-pages-"));
        for (let index = 0; index < runs; index++) await writeOldRun(dataDir, run(index));
        gateway = await startWebGateway({model: await ensureTinyGguf(), dataDir});
        browser = await launchChromium();
        page = await newAppPage(browser, pageErrors, {viewport: {width: 1024, height: 768}, colorScheme: "light"});
        page.on("request", (request) => {
            const url = new URL(request.url());
            if (request.method() === "GET" && url.pathname.endsWith("/gateway/api/app-data/history")) asked.push(url.search);
        });
        await page.goto(gateway.url);
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await rm(dataDir, {recursive: true, force: true});
    });

    test("a visit reads the newest page; Show older runs reads the next; search, Delete, Open and Clear all work on any page", async () => {
        await page.getByTestId("nav-history").click();
        const rows = page.getByTestId("history-row");
        await expectCount(rows, 25);
        await expectText(page.getByTestId("history-count"), /^25 of 60 runs shown/);
        assert.deepEqual(asked, ["?limit=25"], "one page asked for, not the whole history");
        await expectText(rows.first(), /question 59/);
        // Moved in from the old folder, which was renamed aside.
        const folders = (await readdir(dataDir)).filter((name) => name.startsWith("history"));
        assert.equal(folders.length, 1);
        assert.match(folders[0], /^history\.migrated-/);

        // The search looks through the runs shown; the button reads older ones to search too.
        await page.getByTestId("history-search").fill("question 05");
        await expectCount(rows, 0);
        await expectText(page.getByTestId("history-more"), "Search older runs too");
        await page.getByTestId("history-more").click();
        await page.getByTestId("history-more").click();
        await expectCount(rows, 1);
        await expectText(page.getByTestId("history-count"), /^1 of the 60 runs shown match/);
        await expectCount(page.getByTestId("history-more"), 0);
        assert.equal(asked.length, 3);
        assert.match(asked[1], /^\?limit=25&after=1700000035000-run-35$/);

        // Delete a run of the last page: it goes, the others stay loaded.
        await rows.first().click();
        await expectText(page.getByTestId("history-detail"), /answer 05/);
        await page.getByTestId("history-detail").getByRole("button", {name: "Delete"}).click();
        await page.getByTestId("history-search").fill("");
        await expectCount(rows, 59);
        await expectText(page.getByTestId("history-count"), /^59 of 59 runs shown/);
        assert.ok(!(await readHistory(dataDir)).some((saved) => saved.id === "run-05"));

        // Open an older run in its playground.
        await rows.filter({hasText: "question 10 about zebu"}).click();
        await page.getByTestId("history-open").click();
        await page.locator("main[data-screen=chat]").waitFor();
        await expectText(page.locator("main[data-screen=chat]"), /answer 10/);

        // Clear all empties the history, every page of it.
        await page.getByTestId("nav-history").click();
        page.once("dialog", (dialog) => void dialog.accept());
        await page.getByRole("button", {name: "Clear all"}).click();
        await expectCount(rows, 0);
        await expectText(page.getByTestId("history-count"), /^0 of 0 runs shown/);
        await page.locator(".history-list-pane .empty-state", {hasText: "No runs yet"}).waitFor();
        assert.deepEqual(await readHistory(dataDir), []);
        assert.deepEqual(pageErrors, []);
    });
});
