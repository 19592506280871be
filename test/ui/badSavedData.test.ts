// Saved data of an unexpected shape never blanks the app: History lists the runs it can read, says how many it cannot,
// reads a run saved without timing as one without figures, and a run that still fails to draw is shown as a failed
// screen with a way out, while the nav and the other screens go on working. Against the real gateway in Chromium, with
// the run files written into its data folder as an older or damaged version would leave them.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdir, mkdtemp, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {expectCount, expectText} from "./utils/expect.ts";
import {newAppPage} from "./utils/appPage.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const run = (id: string, createdAt: number, extra: Record<string, unknown> = {}) => ({
    id, kind: "chat", createdAt, connectionName: "Local engine", connectionKind: "local", status: "done",
    request: {model: "svc-1", messages: [{role: "user", content: `question ${id}`}]},
    reply: {choices: [{index: 0, content: `answer ${id}`, reasoning: "", toolCalls: [], finishReason: "stop", tokens: []}], chunks: 0},
    timing: {totalMs: 20}, ...extra
});

describe("saved data of an unexpected shape", {skip: noChromium ?? false, timeout: 180_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    let dataDir: string;
    const pageErrors: string[] = [];

    before(async () => {
        ensureRendererBuilt();
        dataDir = await mkdtemp(path.join(os.tmpdir(), "svc-studio-bad-data-"));
        const history = path.join(dataDir, "history");
        await mkdir(history, {recursive: true});
        const {timing: _timing, ...untimed} = run("untimed", 1_000);
        await writeFile(path.join(history, "1000-untimed.json"), JSON.stringify(untimed));
        await writeFile(path.join(history, "2000-good.json"), JSON.stringify(run("good", 2_000)));
        await writeFile(path.join(history, "3000-garbled.json"), JSON.stringify({id: "garbled", note: "not a run"}));
        // The newest: a run's shape, but a reply no chat reply has. It opens first.
        await writeFile(path.join(history, "4000-odd.json"), JSON.stringify(run("odd", 4_000, {reply: {choices: [{index: 0, content: {text: "parts, not text"}}], chunks: 0}})));
        gateway = await startWebGateway({model: await ensureTinyGguf(), dataDir});
        browser = await launchChromium();
        page = await newAppPage(browser, pageErrors, {viewport: {width: 1024, height: 768}, colorScheme: "light"});
        await page.goto(gateway.url);
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await rm(dataDir, {recursive: true, force: true});
    });

    test("History lists the runs it can read and says what it cannot; a run that fails to draw says so, and the others draw", async () => {
        await page.getByTestId("nav-history").click();
        await page.getByTestId("history-screen").waitFor();
        // Three runs listed, the garbled one left out and named in the app's note.
        await expectCount(page.getByTestId("history-row"), 3);
        await expectText(page.getByTestId("app-data-note"), /1 saved run could not be read/);
        // The newest has a run's shape but a reply no chat reply has: its detail says it failed, the list stays.
        await expectText(page.getByTestId("history-detail-error"), /This run could not be shown/);
        await screenshot(page, "history-failed-run-1024");
        await page.getByTestId("history-row").filter({hasText: "question good"}).click();
        await expectCount(page.getByTestId("history-detail-error"), 0);
        await expectText(page.locator(".history-detail-pane"), /answer good/);
        // Saved without timing: listed and drawn, with no figure.
        await page.getByTestId("history-row").filter({hasText: "question untimed"}).click();
        await expectText(page.locator(".history-detail-pane"), /answer untimed/);
        await expectCount(page.getByTestId("screen-error"), 0);
        // The rest of the app works.
        await page.getByTestId("nav-chat").click();
        await page.locator("main[data-screen=chat]").waitFor();
        // The failed run is logged (React error 31: an object where text goes), and nothing else failed.
        assert.deepEqual(pageErrors.filter((error) => !/could not be shown|React error #31/.test(error)), []);
    });
});
