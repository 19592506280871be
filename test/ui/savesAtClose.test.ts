// Edits are saved as they are made, not in a burst as the page closes: three documents of about 40 KB each, changed
// one after the other, the last just before the page closes, are all in the app's database afterwards. (A page may have only 64 KB of
// requests that outlive it in flight, so saving them at close would lose two of them.)
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import type {Browser} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {newAppPage} from "./utils/appPage.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually} from "./utils/expect.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {readDocument} from "./utils/readAppData.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

describe("edits made just before the page closes", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    const pageErrors: string[] = [];

    before(async () => {
        ensureRendererBuilt();
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
    });

    test("three documents of 40 KB changed, then the page closed at once: all three are saved", async () => {
        const page = await newAppPage(browser, pageErrors);
        await page.goto(gateway.url);
        await page.getByTestId("nav-decisions").click();
        const text = (mark: string) => `${mark} ${"x".repeat(40 * 1024)}`;
        // The question set's name, the studio's input text and the experiment setup's name: three documents, each
        // changed through the page's own inputs, the last one just before the page closes.
        // Typed as one insertion each, so the three land well within a moment.
        const type = async (testId: string, value: string) => {
            await page.getByTestId(testId).focus();
            await page.keyboard.insertText(value);
        };
        await page.getByTestId("nav-experiments").click();
        await page.getByTestId("exp-name").waitFor();
        await page.getByTestId("nav-decisions").click();
        await type("qs-name", text("name"));
        await type("input-text", text("input"));
        await page.getByTestId("nav-experiments").click();
        await type("exp-name", text("experiment"));
        await page.close({runBeforeUnload: true});

        await eventually(async () => {
            assert.match(JSON.stringify(await readDocument(gateway.dataDir, "svc-studio-question-set")), /name x{10}/);
            assert.match(JSON.stringify(await readDocument(gateway.dataDir, "svc-studio-decision-input")), /input x{10}/);
            assert.match(JSON.stringify(await readDocument(gateway.dataDir, "svc-studio-experiment-draft")), /experiment x{10}/);
        });
        assert.deepEqual(pageErrors, []);
    });
});
