// What the app saves outlives the launch: two launches of `npm run web` on one data folder, each on its own port (so the
// page's origin, and the origin's storage, differ), seen by one persistent Chromium profile as a person's browser (or
// Electron's window) keeps it. The theme, the question set, a playground run and a scoring job saved in the first launch
// are there in the second. And a first launch on an empty folder brings what an earlier version kept in localStorage.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm, writeFile} from "node:fs/promises";
import {createServer, type Server} from "node:net";
import os from "node:os";
import path from "node:path";
import type {BrowserContext, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {launchChromium, launchPersistentChromium, noChromium} from "./utils/launchChromium.ts";
import {readDocument, readHistory, readSavedJobs} from "./utils/readAppData.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const questionSet = {
    format: "decisions",
    name: "From a file",
    questions: [{type: "predicate", name: "positive", instructions: "Is the review positive?"}]
};
const csvText = "text\nthe parcel came on time\nthe box was crushed\nit was fine I guess\n";
const setName = "Kept across launches";
const prompt = "Across launches, Qwertzuiop the parrot";

describe("saved data across launches: a new port, a new origin, the same data folder", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let scratch: string;
    let model: string;
    const pageErrors: string[] = [];

    /** A page of `context` that records its errors. */
    const pageOf = async (context: BrowserContext): Promise<Page> => {
        const page = context.pages()[0] ?? await context.newPage();
        page.on("pageerror", (error) => pageErrors.push(error.message));
        page.on("console", (message) => {
            if (message.type() === "error") pageErrors.push(message.text());
        });
        return page;
    };
    const themeOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);

    before(async () => {
        ensureRendererBuilt();
        model = await ensureTinyGguf();
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-studio-launches-"));
    });

    after(async () => {
        await rm(scratch, {recursive: true, force: true});
    });

    test("the theme, the question set, a playground run and a scoring job saved in one launch are there in the next", async () => {
        const dataDir = path.join(scratch, "app-data");
        const profileDir = path.join(scratch, "chromium-profile");

        // The first launch.
        const first = await startWebGateway({model, dataDir});
        let context = await launchPersistentChromium(profileDir);
        let page = await pageOf(context);
        try {
            await page.goto(first.url);
            await eventually(async () => assert.equal(await themeOf(page), "dark", "the default with a dark colour scheme"));

            // A question set, opened from a file and renamed.
            const setFile = path.join(scratch, "launch.questions.json");
            await writeFile(setFile, JSON.stringify(questionSet, null, 2));
            await page.getByTestId("nav-decisions").click();
            await page.getByTestId("qs-open-input").setInputFiles(setFile);
            await page.getByTestId("qs-file-message").filter({hasText: "Opened"}).waitFor();
            await page.getByTestId("qs-name").fill(setName);

            // A playground run, which goes to History.
            await page.getByTestId("nav-chat").click();
            await page.getByTestId("message-content").first().fill(prompt);
            await page.getByTestId("param-max_tokens").fill("8");
            await page.getByTestId("run-button").click();
            await page.getByTestId("run-status").filter({hasText: "done"}).waitFor({timeout: 30_000});
            await page.getByTestId("nav-history").click();
            await expectCount(page.getByTestId("history-row"), 1);

            // A scoring job of that question set, scored to the end.
            await page.getByTestId("nav-scoring").click();
            const csvFile = path.join(scratch, "launch.csv");
            await writeFile(csvFile, csvText);
            await page.getByTestId("scoring-file-input").setInputFiles(csvFile);
            await page.getByTestId("import-summary").filter({hasText: "launch.csv · 3 rows × 1 columns"}).waitFor();
            await page.getByTestId("scoring-start").click();
            await page.getByTestId("scoring-status").filter({hasText: "completed"}).waitFor({timeout: 60_000});
            await expectText(page.getByTestId("saved-job-status"), "completed");

            // The theme last, and the page left at once: its save is still waiting to be sent, and goes as the page hides.
            await page.getByTestId("theme-toggle").click();
            await eventually(async () => assert.equal(await themeOf(page), "light"));
            await page.goto("about:blank");
            await eventually(async () => assert.deepEqual(await readDocument(dataDir, "svc-studio-theme"), {state: {theme: "light"}, version: 0}));
        } finally {
            await context.close();
            await first.stop();
        }
        const saved = await readSavedJobs(dataDir);
        assert.deepEqual([saved.jobs.length, saved.jobs[0]?.status, saved.results.length, saved.tables.length], [1, "completed", 3, 1], "the job is on disk");
        assert.match(JSON.stringify(await readHistory(dataDir)), /Qwertzuiop/, "the run is on disk");
        assert.match(JSON.stringify(await readDocument(dataDir, "svc-studio-question-set")), new RegExp(setName));

        // The second launch, on another port: the first one's is held, as another program may take it meanwhile.
        const firstPort = Number(new URL(first.url).port);
        const holder = await hold(firstPort);
        let second: WebGateway;
        try {
            second = await startWebGateway({model, dataDir});
        } finally {
            await new Promise((resolve) => holder.close(resolve));
        }
        assert.notEqual(new URL(second.url).origin, new URL(first.url).origin);
        context = await launchPersistentChromium(profileDir);
        page = await pageOf(context);
        try {
            await page.goto(second.url);
            await eventually(async () => assert.equal(await themeOf(page), "light", "the theme chosen in the first launch"));
            assert.deepEqual(await page.evaluate(() => Object.keys(localStorage)), [], "nothing comes from (or goes to) the origin's own storage");

            await page.getByTestId("nav-decisions").click();
            assert.equal(await page.getByTestId("qs-name").inputValue(), setName);
            assert.deepEqual(await page.getByTestId("qs-recent").locator("option").allTextContents(), ["Recent…", "launch.questions.json"]);

            await page.getByTestId("nav-history").click();
            await expectCount(page.getByTestId("history-row"), 1);
            await expectText(page.getByTestId("history-row").first(), new RegExp(prompt));

            await page.getByTestId("nav-scoring").click();
            const job = page.getByTestId("saved-job");
            await expectCount(job, 1);
            assert.equal(await job.getByTestId("saved-job-file").textContent(), "launch.csv");
            assert.equal(await job.getByTestId("saved-job-rows").textContent(), "3 / 3 rows");
            assert.equal(await job.getByTestId("saved-job-status").textContent(), "completed");
            // The job open at the end of the first launch is open again, with its table.
            await page.getByTestId("import-summary").filter({hasText: "launch.csv · 3 rows × 1 columns"}).waitFor();
            await expectText(page.getByTestId("scoring-rows"), "3 / 3 rows");
            await screenshot(page, "saved-data-second-launch");
        } finally {
            await context.close();
            await second.stop();
        }
        assert.deepEqual(pageErrors, []);
    });

    test("a first launch on an empty data folder takes what an earlier version kept in this origin's localStorage, once", async () => {
        const gateway = await startWebGateway({model});
        const browser = await launchChromium();
        try {
            const context = await browser.newContext({viewport: {width: 1440, height: 900}, colorScheme: "dark"});
            // What an earlier version left in this origin's storage, there before the page's first script runs.
            await context.addInitScript(() => {
                if (sessionStorage.getItem("seeded") !== null) return;
                sessionStorage.setItem("seeded", "yes");
                localStorage.setItem("svc-studio-theme", JSON.stringify({state: {theme: "light"}, version: 0}));
                localStorage.setItem("svc-studio-presets", JSON.stringify({state: {presets: [{id: "p1", name: "Cold", kind: "chat", params: {temperature: 0}, createdAt: 1}]}, version: 0}));
            });
            const page = await pageOf(context);
            await page.goto(gateway.url);
            await eventually(async () => assert.equal(await themeOf(page), "light"));
            await eventually(async () => assert.deepEqual(await readDocument(gateway.dataDir, "svc-studio-theme"), {state: {theme: "light"}, version: 0}));
            assert.equal((await readDocument(gateway.dataDir, "svc-studio-presets") as {state: {presets: Array<{name: string}>}}).state.presets[0].name, "Cold");
            assert.deepEqual(await page.evaluate(() => Object.keys(localStorage)), [], "taken over: gone from localStorage");

            // Once: with the folder no longer empty, what localStorage holds is not taken again.
            await page.evaluate(() => localStorage.setItem("svc-studio-theme", JSON.stringify({state: {theme: "dark"}, version: 0})));
            await page.reload();
            await page.getByTestId("nav-presets").click();
            await page.getByText("Cold").first().waitFor();
            assert.equal(await themeOf(page), "light");
            assert.deepEqual(await readDocument(gateway.dataDir, "svc-studio-theme"), {state: {theme: "light"}, version: 0});
            await context.close();
        } finally {
            await browser.close();
            await gateway.stop();
        }
        assert.deepEqual(pageErrors, []);
    });
});

/** Listens on `port` of 127.0.0.1, so no gateway started meanwhile gets it. */
function hold(port: number): Promise<Server> {
    return new Promise((resolve, reject) => {
        const server = createServer();
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => resolve(server));
    });
}
