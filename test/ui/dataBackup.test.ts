// "Export all data" and "Import a backup…" on the Engine screen, in Chromium against two real gateways: a dataset made
// in one app is in the other after its backup is imported there (the page asks first, and reloads on the data).
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {newAppPage} from "./utils/appPage.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {expectCount, expectText} from "./utils/expect.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {readDatasets} from "./utils/readAppData.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

describe("backing up the app's data and restoring it elsewhere", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let source: WebGateway;
    let target: WebGateway;
    let browser: Browser;
    let page: Page;
    let scratch: string;
    const pageErrors: string[] = [];

    before(async () => {
        ensureRendererBuilt();
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-studio-backup-"));
        const model = await ensureTinyGguf();
        source = await startWebGateway({model});
        target = await startWebGateway({model});
        browser = await launchChromium();
        page = await newAppPage(browser, pageErrors);
    });

    after(async () => {
        await browser?.close();
        await source?.stop();
        await target?.stop();
        await rm(scratch, {recursive: true, force: true});
    });

    test("a dataset made in one app is in the other once its backup is imported there, after asking", async () => {
        await page.goto(source.url);
        await page.getByTestId("nav-datasets").click();
        await page.getByTestId("dataset-new-columns").fill("text, label");
        await page.getByTestId("dataset-new").click();
        await page.getByTestId("dataset-add-value").first().fill("kept across machines");
        await page.getByTestId("dataset-add-submit").click();
        await expectCount(page.getByTestId("dataset-row"), 1);

        await page.getByTestId("nav-engine-status").click();
        const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("data-export").click()]);
        assert.match(download.suggestedFilename(), /^svc-studio-data-.+\.sqlite$/);
        const backup = path.join(scratch, download.suggestedFilename());
        await download.saveAs(backup);

        await page.goto(target.url);
        await page.getByTestId("nav-engine-status").click();
        let asked = "";
        page.once("dialog", (dialog) => {
            asked = dialog.message();
            void dialog.accept();
        });
        // The page reloads on the restored data once it has said what it did.
        const reloaded = page.waitForEvent("load", {timeout: 30_000});
        await page.getByTestId("data-import-input").setInputFiles(backup);
        await expectText(page.getByTestId("data-backup-message"), /^Restored svc-studio-data-.+\.sqlite\. The data before it is kept as app\.sqlite\.replaced-/);
        assert.match(asked, /^Replace all of the app's data .* The data it holds now is kept aside/);
        await reloaded;
        const saved = await readDatasets(target.dataDir);
        assert.deepEqual(saved.map((dataset) => [dataset.name, dataset.rows]), [["New dataset", [["kept across machines", null]]]]);
        await page.getByTestId("nav-datasets").click();
        await expectText(page.getByTestId("dataset-cell").first(), "kept across machines");
        assert.deepEqual(pageErrors, []);
    });
});
