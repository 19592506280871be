// What the Decision studio keeps and shows beyond one run, against the real gateway (`npm run web`) and engine in
// Chromium: its runs in History (and opened back in the studio), View code for the decision endpoints, its whole state
// across a reload, and its layout at 1024x768 and 1440x900 in both themes. The engine runs the project's tiny
// random-weight model: the tests check the plumbing, never what the model believes.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {gatewayApi} from "./utils/gatewayApi.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {readDocument} from "./utils/readAppData.ts";
import {readEditorText} from "./utils/readEditorText.ts";
import {screenshot} from "./utils/screenshot.ts";
import {setMonacoText} from "./utils/setMonacoText.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const input = "The Zorblax blender is loud but fast.";

describe("Decision studio: History, View code, reloads and layout", {skip: noChromium ?? false, timeout: 400_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    const cards = () => page.getByTestId("question-card");
    const run = async (expected = "done") => {
        await page.getByTestId("decision-run").click();
        await page.getByTestId("decision-status").filter({hasText: expected}).waitFor({timeout: 60_000});
    };
    const codeText = () => page.getByTestId("code-block").textContent().then((text) => text ?? "");

    before(async () => {
        ensureRendererBuilt();
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
        const context = await browser.newContext({viewport: {width: 1440, height: 900}, colorScheme: "dark", acceptDownloads: true});
        await context.grantPermissions(["clipboard-read", "clipboard-write"], {origin: gateway.url});
        page = await context.newPage();
        page.on("pageerror", (error) => pageErrors.push(`${error.message}\n${error.stack}`));
        page.on("console", (message) => {
            if (message.type() === "error") pageErrors.push(message.text());
        });
        await page.goto(gateway.url);
        await page.getByTestId("nav-decisions").click();
        await page.getByTestId("decision-studio").waitFor();
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
    });

    test("runs on both endpoints go to History with their answers and JSON, and open back in the studio, asking before unsaved edits go", async () => {
        await page.getByTestId("input-text").fill(input);
        await run();
        await page.getByTestId("qs-format-systemone").click();
        await run();
        await page.getByTestId("qs-name").fill("Edited here");

        await page.getByTestId("nav-history").click();
        const rows = page.getByTestId("history-row");
        await expectCount(rows, 2);
        assert.match(await rows.nth(0).textContent() ?? "", /^systemone.*1 question · The Zorblax blender/);
        assert.match(await rows.nth(1).textContent() ?? "", /^decisions.*1 question · The Zorblax blender/);
        await page.getByTestId("history-search").fill("zorblax systemone");
        await expectCount(rows, 1);
        await page.getByTestId("history-search").fill("");
        await rows.nth(1).click();
        const detail = page.getByTestId("history-detail");
        await expectCount(detail.getByTestId("history-answers").getByTestId("answer-card"), 1);
        assert.equal(await detail.getByTestId("prob-sum").textContent(), "1.00");
        // The run's figures as the studio shows them: a decision generates no text, so no tokens/s.
        assert.match(await detail.getByTestId("decision-server-timing").textContent() ?? "", /^Server-Timing[\d.]+ ms$/);
        assert.equal(await detail.getByTestId("stat-rate").count(), 0);
        const request = JSON.parse(await detail.getByTestId("history-request").locator("pre").textContent() ?? "");
        assert.equal(request.input, input);
        assert.equal(request.x_svc.label_mass, true, "the body as it was sent to the local engine");
        const response = JSON.parse(await detail.getByTestId("history-response").locator("pre").textContent() ?? "");
        assert.equal(response.answers.length, 1);
        await screenshot(page, "decisions-history");

        // The studio's set has unsaved edits: opening the run asks first; Cancel keeps them.
        await detail.getByTestId("history-open").click();
        await page.getByTestId("replace-set-dialog").waitFor();
        assert.match(await page.getByTestId("replace-set-dialog").textContent() ?? "", /“Edited here” has edits that no saved file has\. Opening the run from History replaces it/);
        await page.getByTestId("replace-set-cancel").click();
        assert.equal(await page.getByTestId("qs-name").inputValue(), "Edited here");
        assert.equal(await page.getByTestId("qs-format-systemone").getAttribute("aria-checked"), "true");

        await page.getByTestId("nav-history").click();
        await rows.nth(1).click();
        await detail.getByTestId("history-open").click();
        await page.getByTestId("replace-set-discard").click();
        await expectText(page.getByTestId("qs-file-message"), /Opened a run from History\./);
        assert.equal(await page.getByTestId("qs-name").inputValue(), "From History");
        assert.equal(await page.getByTestId("qs-format-decisions").getAttribute("aria-checked"), "true");
        assert.equal(await page.getByTestId("input-text").inputValue(), input);
        assert.equal(await page.getByTestId("decision-result").getByTestId("answer-card").count(), 1, "the run's answers come with it");
        await page.getByTestId("qs-undo").click();
        assert.equal(await page.getByTestId("qs-name").inputValue(), "Edited here");
    });

    test("View code shows the request Run sends any server: the decision endpoint and base URL, the input as typed, the problem when there is one", async () => {
        await page.getByTestId("qs-format-decisions").click();
        await page.getByTestId("view-code-toggle").click();
        await page.getByTestId("view-code-panel").waitFor();
        assert.equal(await page.getByTestId("qs-json-panel").count(), 0, "View code takes the JSON panel's place");
        const {engine} = await gatewayApi<{engine: {url?: string}}>(page, "/state");
        assert.equal(await page.getByTestId("code-base-url").textContent(), `${engine.url}/svc-1-decision/v1`);
        const curl = await codeText();
        assert.match(curl, /^curl http:\/\/127\.0\.0\.1:\d+\/svc-1-decision\/v1\/decisions \\/);
        assert.match(curl, /"input": "The Zorblax blender is loud but fast\."/);
        assert.doesNotMatch(curl, /label_mass/, "the local engine's own field is not in code meant for any server");
        await page.getByTestId("code-tab-typescript").click();
        assert.match(await codeText(), /const result = await client\.post\("\/decisions", \{/);
        await page.getByTestId("code-tab-curl").click();

        // It follows the set and the input as they are edited.
        await page.getByTestId("qs-format-systemone").click();
        await expectText(page.getByTestId("code-block"), /\/svc-1-decision\/v1\/systemone[\s\S]*"state": "The Zorblax/);
        await page.getByTestId("qs-format-decisions").click();
        await page.getByTestId("input-text").fill("Changed while the code is open");
        await expectText(page.getByTestId("code-block"), /"input": "Changed while the code is open"/);
        // A set the server would refuse is still shown, with the reason above it.
        await page.getByTestId("add-choice").click();
        await cards().nth(1).getByTestId("choice-value").nth(1).fill("option_a");
        await expectText(page.getByTestId("code-problem"), /^Not sendable yet: question set: #2 · choice 2: duplicates the value of choice 1/);
        await screenshot(page, "decisions-view-code");
        await cards().nth(1).getByTestId("q-remove").click();
        await page.getByTestId("code-problem").waitFor({state: "detached"});
        await page.getByTestId("view-code-toggle").click();
        await page.getByTestId("qs-json-panel").waitFor();
        await page.getByTestId("input-text").fill(input);
    });

    test("a reload finds the studio as it was left: tab, set, input, answers, compare sides, variant B (an unreadable edit included) and its results", async () => {
        await page.getByTestId("qs-name").fill("Kept set");
        await page.getByTestId("add-score").click();
        await run();
        await page.getByTestId("studio-tab-compare").click();
        await page.getByTestId("variant-copy").click();
        await page.getByTestId("variant-name").fill("Kept variant");
        await page.getByTestId("variant-form").getByTestId("question-card").nth(1).getByTestId("level-add").click();
        await page.getByTestId("compare-set-a").selectOption("variant");
        await page.getByTestId("compare-set-b").selectOption("current");
        await page.keyboard.press("Control+Enter");
        await page.getByTestId("compare-results").waitFor({timeout: 60_000});
        await expectCount(page.getByTestId("compare-row"), 2);
        // Every document is in the app's data folder (saves are gathered for a moment after each change).
        await eventually(async () => {
            assert.match(JSON.stringify(await readDocument(gateway.dataDir, "svc-studio-decision-compare")), /Kept variant[\s\S]*"results":\{"a"/);
            assert.match(JSON.stringify(await readDocument(gateway.dataDir, "svc-studio-decision-run")), /"tab":"compare","result":\{"sent":true,.*"status":"done"/);
            assert.match(JSON.stringify(await readDocument(gateway.dataDir, "svc-studio-decision-input")), /The Zorblax blender/);
        });

        await page.reload();
        await page.getByTestId("decision-studio").waitFor();
        assert.equal(await page.getByTestId("studio-tab-compare").getAttribute("aria-selected"), "true");
        assert.equal(await page.getByTestId("compare-set-a").inputValue(), "variant");
        assert.equal(await page.getByTestId("compare-set-b").inputValue(), "current");
        assert.equal(await page.getByTestId("variant-name").inputValue(), "Kept variant");
        assert.equal(await page.getByTestId("variant-form").getByTestId("level-row").count(), 4);
        await expectCount(page.getByTestId("compare-row"), 2);
        assert.equal(await page.getByTestId("compare-result-a").getAttribute("data-status"), "done");
        await page.getByTestId("studio-tab-build").click();
        assert.equal(await page.getByTestId("qs-name").inputValue(), "Kept set");
        assert.equal(await cards().count(), 2);
        assert.equal(await page.getByTestId("input-text").inputValue(), input);
        assert.equal(await page.getByTestId("decision-result").getByTestId("answer-card").count(), 2, "the last run's answers are back");
        await page.getByTestId("qs-unsaved").waitFor();

        // Variant B's JSON while it cannot be read is kept as typed, with its error.
        await page.getByTestId("studio-tab-compare").click();
        await page.getByTestId("variant-view-json").click();
        await setMonacoText(page, "variant-json", "{\"format\": \"decisions\", \"questions\": [");
        await page.getByTestId("variant-json-error").waitFor();
        await eventually(async () => assert.match(JSON.stringify(await readDocument(gateway.dataDir, "svc-studio-decision-compare")), /"jsonText":"\{\\"format\\": \\"decisions\\", \\"questions\\": \["/));
        await page.reload();
        await page.getByTestId("variant-json-error").waitFor();
        assert.match(await readEditorText(page, "variant-json"), /^\{"format": "decisions", "questions": \[/);
        await page.getByTestId("variant-view-form").click();
        assert.equal(await page.getByTestId("variant-name").inputValue(), "Kept variant", "the form shows the set before the unreadable edit");
        await page.getByTestId("studio-tab-build").click();
    });

    test("layout: at 1024x768 and 1440x900, light and dark, no control of the studio is cut off and no menu shows its label cut short", async () => {
        // A set with problems, so the problem list and the marked fields are on screen too.
        await page.getByTestId("add-choice").click();
        await cards().nth(2).getByTestId("choice-value").nth(1).fill("option_a");
        await cards().nth(1).getByTestId("q-name").fill("is_relevant");
        await expectText(page.getByTestId("qs-problem-count"), "2 problems to fix before running.");
        const views: Array<[string, () => Promise<void>]> = [
            ["build", async () => {
                await page.getByTestId("studio-tab-build").click();
                await cards().nth(2).scrollIntoViewIfNeeded();
            }],
            ["compare", async () => {
                await page.getByTestId("studio-tab-compare").click();
                await page.getByTestId("variant-view-form").click();
                await page.getByTestId("compare-panel").scrollIntoViewIfNeeded();
            }],
            ["variant", async () => page.getByTestId("variant-form").getByTestId("question-card").first().scrollIntoViewIfNeeded()],
            ["code", async () => {
                await page.getByTestId("studio-tab-build").click();
                await page.getByTestId("view-code-toggle").click();
                await page.getByTestId("view-code-panel").waitFor();
            }],
            ["dialog", async () => {
                await page.getByTestId("view-code-toggle").click();
                await page.getByTestId("qs-new").click();
                await page.getByTestId("replace-set-dialog").waitFor();
            }]
        ];
        const problems: string[] = [];
        for (const [width, height] of [[1024, 768], [1440, 900]])
            for (const theme of ["light", "dark"]) {
                await page.setViewportSize({width, height});
                if (await page.evaluate(() => document.documentElement.dataset.theme) !== theme) await page.getByTestId("theme-toggle").click();
                for (const [name, show] of views) {
                    await show();
                    await screenshot(page, `decisions-layout-${width}-${theme}-${name}`);
                    problems.push(...(await cutOff(page)).map((problem) => `${width}x${height} ${theme} ${name}: ${problem}`));
                }
                await page.getByTestId("replace-set-cancel").click();
            }
        assert.deepEqual(problems, []);
        await page.setViewportSize({width: 1440, height: 900});
    });

    test("no page errors", () => {
        assert.deepEqual(pageErrors, []);
    });
});

/**
 * Controls of the studio (and of its dialog) that the window or their question card cuts off, and menus (<select>) too
 * narrow for the label of their chosen option, as Chromium draws it beside its arrow.
 */
async function cutOff(page: Page): Promise<string[]> {
    // tsx compiles this file keeping function names, through a `__name` helper the page does not have.
    await page.evaluate("globalThis.__name ??= (target) => target");
    return page.evaluate(() => {
        const problems: string[] = [];
        const name = (element: Element) => element.getAttribute("aria-label") ?? element.getAttribute("data-testid") ?? (element.textContent ?? "").trim().slice(0, 40);
        const measure = document.createElement("canvas").getContext("2d")!;
        const scope = document.querySelector("dialog[open]") ?? document.querySelector("[data-testid=decision-studio]")!;
        for (const control of scope.querySelectorAll<HTMLElement>("button, input:not([type=hidden]), select, textarea, summary")) {
            const box = control.getBoundingClientRect();
            if (box.width === 0 || box.height === 0) continue;
            if (box.left < -1 || box.right > innerWidth + 1) problems.push(`${name(control)} is cut off by the window (x ${Math.round(box.left)}-${Math.round(box.right)})`);
            const card = control.closest("[data-testid=question-card]")?.getBoundingClientRect();
            if (card && (box.left < card.left - 1 || box.right > card.right + 1)) problems.push(`${name(control)} sticks out of its question card`);
            if (control instanceof HTMLSelectElement && control.selectedOptions[0]) {
                const style = getComputedStyle(control);
                measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
                const needed = measure.measureText(control.selectedOptions[0].text).width + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + 16;
                if (needed > control.clientWidth + 1) problems.push(`${name(control)} shows "${control.selectedOptions[0].text}" cut short (${Math.round(control.clientWidth)} px of ${Math.round(needed)})`);
            }
        }
        return problems;
    });
}
