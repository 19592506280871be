// `npm run docs:screenshots [-- --renderer <dir>]`: the pictures of docs/app.md and README.md, taken from the real
// app. It starts `npm run web` on the built-in stories260K with an empty data folder, drives every screen in Chromium
// at 1440x900 in the light theme (a chat, a decision on the example question set, a scoring job over the example sheet
// and its evaluation), and writes docs/images/<screen>.png. Run it again whenever a screen changes, and look at them.
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {parseArgs} from "node:util";
import type {Page} from "playwright-core";
import {embeddedModelPath} from "../../native/library/embeddedModel.ts";
import {ensureRendererBuilt} from "../ui/utils/ensureRendererBuilt.ts";
import {launchChromium, noChromium} from "../ui/utils/launchChromium.ts";
import {screenshot} from "../ui/utils/screenshot.ts";
import {repoRoot, startProcess} from "../ui/utils/startProcess.ts";

const docsImagesDir = path.join(repoRoot, "docs/images");
const examples = path.join(repoRoot, "docs/examples");

/** Waits until the run status of a playground says done. */
async function runPlayground(page: Page) {
    await page.getByTestId("run-button").click();
    await page.getByTestId("run-status").filter({hasText: "done"}).waitFor({timeout: 60_000});
}

/** Each screen in the order of the navigation, with what is done on it before its picture is taken. */
const scenes: Array<[string, (page: Page) => Promise<void>]> = [
    ["chat", async (page) => {
        await page.getByTestId("message-content").first().fill("Tell me a story about a little cat.");
        await page.getByTestId("param-temperature").fill("0");
        await page.getByTestId("param-max_tokens").fill("120");
        await page.getByTestId("preset-name").fill("Greedy, 120 tokens");
        await page.getByTestId("preset-name").press("Enter");
        await runPlayground(page);
    }],
    ["responses", runPlayground],
    ["completions", async (page) => {
        await page.getByTestId("completions-prompt").fill("Once upon a time, there was a little dog named Max.");
        await page.getByTestId("score-text-button").click();
        await page.getByTestId("run-status").filter({hasText: "done"}).waitFor({timeout: 60_000});
    }],
    ["decisions", async (page) => {
        await page.getByTestId("qs-open-input").setInputFiles(path.join(examples, "story-questions.json"));
        await page.getByTestId("qs-file-message").filter({hasText: "Opened"}).waitFor();
        await page.getByTestId("input-mode-text").click();
        await page.getByTestId("input-text").fill("Lily found a little cat in the park. She gave it milk, and the cat purred and played with her all day.");
        await page.getByTestId("decision-run").click();
        await page.getByTestId("decision-status").filter({hasText: "done"}).waitFor({timeout: 60_000});
        // Every answer card has drawn its chart (bars wait for their container to be measured).
        await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=answer-card]")]
            .every((card) => card.querySelector(".recharts-bar-rectangle, .recharts-pie-sector") !== null));
    }],
    ["scoring", async (page) => {
        await page.getByTestId("scoring-file-input").setInputFiles(path.join(examples, "stories.csv"));
        await page.getByTestId("import-summary").filter({hasText: "stories.csv"}).waitFor();
        await page.getByTestId("mapping-template").fill("Story: {{story}}");
        await page.getByTestId("scoring-start").click();
        await page.getByTestId("scoring-rows").filter({hasText: "6 / 6 rows"}).waitFor({timeout: 120_000});
        await page.getByTestId("results-card").scrollIntoViewIfNeeded();
    }],
    ["evaluation", async (page) => {
        await page.getByTestId("eval-card").first().waitFor();
    }],
    ["history", async (page) => {
        await page.getByTestId("history-row").first().click();
    }],
    ["presets", async () => undefined],
    ["models", async (page) => {
        await page.getByTestId("models-screen").waitFor();
    }],
    ["engine", async () => undefined],
    // Last: from here on the engine answers workspace keys only.
    ["workspace", async (page) => {
        await page.getByTestId("organization-name").fill("Acme");
        await page.getByTestId("organization-create").click();
        await page.getByTestId("workspace-name").fill("Research");
        await page.getByTestId("workspace-create").click();
        await page.getByTestId("workspace-activate").click();
        await page.getByTestId("workspace-activated").waitFor();
        await page.getByTestId("credits-amount").fill("25");
        await page.getByTestId("credits-add").click();
        await page.getByTestId("balance").filter({hasText: "25.00"}).waitFor();
        await page.getByTestId("key-name").fill("app");
        await page.getByTestId("key-create").click();
        await page.getByTestId("use-for-app").click();
        await page.getByTestId("secret-close").click();
        await page.getByTestId("secret-dialog").waitFor({state: "detached"});
    }]
];

const {values} = parseArgs({options: {renderer: {type: "string"}}});
if (noChromium != null) throw new Error(noChromium);
// A renderer built elsewhere (e.g. from a clean checkout of the commit) may be given; else this checkout's, built if stale.
if (values.renderer == null) ensureRendererBuilt();

const scratch = await mkdtemp(path.join(os.tmpdir(), "svc-docs-screenshots-"));
const app = await startProcess("electron/web.ts", ["--port", "0", "--model", embeddedModelPath, "--threads", "1", "--gpu", "off",
    "--data-dir", path.join(scratch, "app-data"), ...values.renderer != null ? ["--renderer", path.resolve(values.renderer)] : []],
/engine: running [^\n]*\n/, {env: {XDG_DATA_HOME: scratch, SVC_STUDIO_MODELS_DIR: path.join(scratch, "models")}, timeoutMs: 120_000});
const browser = await launchChromium();
try {
    // The sign-in address it printed: opening it sets the session cookie and leads to the app.
    const signInUrl = /Svc Studio web: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})/.exec(app.output())?.[1];
    if (signInUrl == null) throw new Error(`the gateway printed no sign-in address:\n${app.output()}`);
    const context = await browser.newContext({viewport: {width: 1440, height: 900}, colorScheme: "light"});
    const page = await context.newPage();
    await page.goto(signInUrl);
    for (const [screen, prepare] of scenes) {
        await page.getByTestId(`nav-${screen}`).click();
        await page.locator(`main[data-screen="${screen}"]`).waitFor();
        await prepare(page);
        await page.waitForLoadState("networkidle");
        // What a screen reads from the gateway is on it ("Reading the model library…" gone).
        await page.waitForFunction(() => !/Reading the /.test(document.querySelector("main")?.textContent ?? ""));
        await screenshot(page, screen, docsImagesDir);
        console.log(`docs/images/${screen}.png`);
    }
} finally {
    await browser.close();
    await app.stop();
    await rm(scratch, {recursive: true, force: true});
}
