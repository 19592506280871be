// Every screen of the app, at 1024x768 and at 1440x900, in the light and the dark theme, empty and then with content open
// (a scoring job, its evaluation, the Decision studio's comparison, an experiment's setup and results, a Versions diff,
// History with a refused run): no control is cut off by the window or by an ancestor that hides overflow (nor a field's
// placeholder by its width), axe-core finds no serious or critical WCAG 2 A/AA violation (colour contrast included), the
// document itself never scrolls (only the app's panes do), and the nav fits the window, each item on one line.
// Screenshots of each go to test-artifacts/ui/screens/ for people to look at.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {accessibilityViolations, cutOffControls, documentOverflow} from "./utils/layoutChecks.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {openScreenContent} from "./utils/screenContent.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const screens = ["chat", "responses", "completions", "decisions", "scoring", "evaluation", "experiments", "history", "presets", "datasets", "versions", "models", "engine", "workspace"];
/** What shows once a screen has read what it loads (the model library's headers take a moment). */
const loaded: Record<string, string> = {models: "[data-testid=models-library]"};
const sizes = [{width: 1024, height: 768}, {width: 1440, height: 900}];
const themes = ["light", "dark"] as const;

/**
 * The screens that show what `openScreenContent` opened (`name` tells two views of one screen apart), each with what
 * brings it into view and, for some, what more must hold there.
 */
const contentScreens: Array<{screen: string, name?: string, show: (page: Page) => Promise<void>, check?: (page: Page) => Promise<string[]>}> = [
    {screen: "scoring", show: (page) => page.getByTestId("table-preview").scrollIntoViewIfNeeded()},
    {screen: "evaluation", show: (page) => page.getByTestId("confusion-matrix").scrollIntoViewIfNeeded()},
    {screen: "decisions", name: "decisions-compare", show: async (page) => {
        await page.getByTestId("studio-tab-compare").click();
        await page.getByTestId("compare-row").first().scrollIntoViewIfNeeded();
    }, check: compareSideBySide},
    {screen: "experiments", name: "experiments-setup", show: async (page) => {
        await page.getByTestId("exp-tabs-setup").click();
        await page.getByTestId("exp-variants").scrollIntoViewIfNeeded();
    }},
    {screen: "experiments", show: async (page) => {
        await page.getByTestId("exp-tabs-results").click();
        await page.getByTestId("exp-results").waitFor();
    }},
    {screen: "versions", show: async (page) => {
        await page.getByTestId("prompt-item").filter({hasText: "Review labels"}).getByRole("button", {name: "Review labels", exact: true}).click();
        await page.getByTestId("version-diff").scrollIntoViewIfNeeded();
    }},
    {screen: "history", show: (page) => page.getByTestId("api-error").waitFor()}
];

/** The Decision studio's comparison: side A's answer beside side B's for each question, never one above the other. */
async function compareSideBySide(page: Page): Promise<string[]> {
    const rows = await page.getByTestId("compare-row").evaluateAll((elements) => elements.map((row) => ({
        name: row.querySelector(".compare-row-head")?.textContent ?? "",
        tops: [...row.querySelectorAll("[data-testid=answer-card]")].map((card) => Math.round(card.getBoundingClientRect().top))
    })));
    return rows.filter(({tops}) => tops.length !== 2 || tops[0] !== tops[1])
        .map(({name, tops}) => `compare row "${name}": its answers are at ${tops.join(" and ")} px from the top, not side by side`);
}

/** The nav: all of it in the window (the engine's status at its foot included) with no scrolling, each item on one line. */
async function navProblems(page: Page): Promise<string[]> {
    return page.evaluate(() => {
        const problems: string[] = [];
        const nav = document.querySelector<HTMLElement>("nav.nav")!;
        if (nav.scrollHeight > nav.clientHeight) problems.push(`the nav needs ${nav.scrollHeight} px of a ${nav.clientHeight} px window: its foot is out of sight`);
        for (const item of nav.querySelectorAll("button")) {
            const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
            for (let text = walker.nextNode(); text != null; text = walker.nextNode()) {
                const range = document.createRange();
                range.selectNodeContents(text);
                if (range.getClientRects().length > 1) problems.push(`the nav's "${text.textContent}" wraps onto ${range.getClientRects().length} lines`);
            }
        }
        return problems;
    });
}

/** What is wrong with the page as shown: controls cut off, serious accessibility violations, a document that scrolls, the nav. */
async function pageProblems(page: Page): Promise<string[]> {
    return [...await cutOffControls(page), ...await accessibilityViolations(page), ...await documentOverflow(page), ...await navProblems(page)];
}

describe("every screen at two widths and in both themes", {skip: noChromium ?? false, timeout: 900_000}, () => {
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
        await showTheme(page, theme);
        return page;
    }

    async function showTheme(page: Page, theme: "light" | "dark") {
        if (await page.evaluate(() => document.documentElement.dataset.theme) !== theme) await page.getByTestId("theme-toggle").click();
        await page.waitForFunction((expected) => document.documentElement.dataset.theme === expected, theme);
    }

    /** Shows `screen` once it has loaded what it shows (gateway state, models, workspace). */
    async function showScreen(page: Page, screen: string) {
        await page.getByTestId(`nav-${screen}`).click();
        await page.locator(`main[data-screen="${screen}"]`).waitFor();
        await page.waitForLoadState("networkidle");
        if (loaded[screen] != null) await page.locator(loaded[screen]).waitFor({timeout: 30_000});
    }

    for (const size of sizes) {
        for (const theme of themes) {
            test(`${size.width}x${size.height}, ${theme}: no control cut off, no serious accessibility violation, no document scrolling, the nav fits`, async () => {
                const page = await openApp(size, theme);
                const problems: string[] = [];
                try {
                    for (const screen of screens) {
                        await showScreen(page, screen);
                        await screenshot(page, `screens/${screen}-${size.width}-${theme}`);
                        for (const problem of await pageProblems(page)) problems.push(`${screen}: ${problem}`);
                    }
                } finally {
                    await page.context().close();
                }
                assert.deepEqual(problems, [], `${problems.length} problems at ${size.width}x${size.height} in the ${theme} theme`);
            });
        }
    }

    test("with a scoring job, a comparison, an experiment, a Versions diff and a refused run in History open: the same checks at both sizes, in both themes", async () => {
        const scratch = await mkdtemp(path.join(os.tmpdir(), "svc-ui-screens-content-"));
        const page = await openApp(sizes[1], "dark");
        const problems: string[] = [];
        try {
            await openScreenContent(page, scratch);
            for (const size of sizes) {
                await page.setViewportSize(size);
                for (const theme of themes) {
                    await showTheme(page, theme);
                    for (const {screen, name = screen, show, check} of contentScreens) {
                        await showScreen(page, screen);
                        await show(page);
                        await screenshot(page, `screens/${name}-content-${size.width}-${theme}`);
                        for (const problem of [...await pageProblems(page), ...await check?.(page) ?? []]) problems.push(`${name} ${size.width} ${theme}: ${problem}`);
                    }
                }
            }
        } finally {
            await page.context().close();
            await rm(scratch, {recursive: true, force: true});
        }
        assert.deepEqual(problems, [], `${problems.length} problems with content open`);
    });
});
