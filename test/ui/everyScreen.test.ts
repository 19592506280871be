// Every screen of the app, at 1024x768 and at 1440x900, in the light and the dark theme: no control is cut off by
// the window or by an ancestor that hides overflow, and axe-core finds no serious or critical WCAG 2 A/AA violation
// (colour contrast included). Screenshots of each go to test-artifacts/ui/screens/ for people to look at.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {accessibilityViolations, cutOffControls} from "./utils/layoutChecks.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const screens = ["chat", "responses", "completions", "decisions", "scoring", "evaluation", "experiments", "history", "presets", "datasets", "versions", "models", "engine", "workspace"];
/** What shows once a screen has read what it loads (the model library's headers take a moment). */
const loaded: Record<string, string> = {models: "[data-testid=models-library]"};
const sizes = [{width: 1024, height: 768}, {width: 1440, height: 900}];
const themes = ["light", "dark"] as const;

describe("every screen at two widths and in both themes", {skip: noChromium ?? false, timeout: 600_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let dataHome: string;

    before(async () => {
        ensureRendererBuilt();
        dataHome = await mkdtemp(path.join(os.tmpdir(), "svc-ui-screens-"));
        gateway = await startWebGateway({model: await ensureTinyGguf(), env: {XDG_DATA_HOME: dataHome}});
        browser = await launchChromium();
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await rm(dataHome, {recursive: true, force: true});
    });

    /** Opens a page at `size` in `theme`, the engine running. */
    async function openApp(size: {width: number, height: number}, theme: "light" | "dark"): Promise<Page> {
        const context = await browser.newContext({viewport: size, colorScheme: theme});
        const page = await context.newPage();
        await page.goto(gateway.url);
        await page.getByTestId("nav-chat").waitFor();
        if (await page.evaluate(() => document.documentElement.dataset.theme) !== theme) await page.getByTestId("theme-toggle").click();
        await page.waitForFunction((expected) => document.documentElement.dataset.theme === expected, theme);
        return page;
    }

    for (const size of sizes) {
        for (const theme of themes) {
            test(`${size.width}x${size.height}, ${theme}: no control cut off, no serious accessibility violation`, async () => {
                const page = await openApp(size, theme);
                const problems: string[] = [];
                try {
                    for (const screen of screens) {
                        await page.getByTestId(`nav-${screen}`).click();
                        await page.locator(`main[data-screen="${screen}"]`).waitFor();
                        // Data the screen loads (gateway state, models, workspace) is shown before it is checked.
                        await page.waitForLoadState("networkidle");
                        if (loaded[screen] != null) await page.locator(loaded[screen]).waitFor({timeout: 30_000});
                        await screenshot(page, `screens/${screen}-${size.width}-${theme}`);
                        for (const problem of [...await cutOffControls(page), ...await accessibilityViolations(page)])
                            problems.push(`${screen}: ${problem}`);
                    }
                } finally {
                    await page.context().close();
                }
                assert.deepEqual(problems, [], `${problems.length} problems at ${size.width}x${size.height} in the ${theme} theme`);
            });
        }
    }
});
