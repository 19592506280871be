// The Decision studio against the real gateway (`npm run web`) and the real local engine, driven in Chromium.
// The engine runs the project's tiny random-weight model: answers are near-uniform and explanations gibberish,
// so the tests check the plumbing (requests, charts, sums, formats, files), never what the model believes.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import {parseQuestionSet} from "../../client/scoring/index.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {parseDecisionsRequest} from "../../protocol/decisions/parseDecisionsRequest.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {makePng} from "./utils/makePng.ts";
import {readDocument} from "./utils/readAppData.ts";
import {readEditorText} from "./utils/readEditorText.ts";
import {screenshot} from "./utils/screenshot.ts";
import {setMonacoText} from "./utils/setMonacoText.ts";
import {startEngine, type Engine} from "./utils/startEngine.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

describe("Decision studio through the gateway", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let gateway: WebGateway;
    /** A second engine behind a key, standing in for a remote service (the gateway's env profile). */
    let remote: Engine;
    let browser: Browser;
    let page: Page;
    let scratch: string;
    const pageErrors: string[] = [];

    const cards = () => page.getByTestId("question-card");
    const status = () => page.getByTestId("decision-status");
    const run = async (expected = "done") => {
        await page.getByTestId("decision-run").click();
        await status().filter({hasText: expected}).waitFor({timeout: 60_000});
    };
    const questionNames = async () => Promise.all((await cards().all()).map((card) => card.getByTestId("q-name").inputValue()));
    /**
     * Before a screenshot: every answer card has drawn its chart (bars wait for their container to be measured) and
     * `testId` is scrolled to the top at once, where the page's own smooth scroll to new results ends.
     */
    const settleResults = async (testId: string) => {
        await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=answer-card]")]
            .every((card) => card.querySelector(".recharts-bar-rectangle, .recharts-pie-sector") !== null));
        await page.getByTestId(testId).evaluate((element) => element.scrollIntoView({block: "start"}));
    };
    const saveSet = async (): Promise<string> => {
        const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("qs-save").click()]);
        const file = path.join(scratch, download.suggestedFilename());
        await download.saveAs(file);
        return readFile(file, "utf8");
    };

    before(async () => {
        ensureRendererBuilt();
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-studio-decisions-"));
        const model = await ensureTinyGguf();
        const key = "ck_compare_5e1";
        remote = await startEngine({model, apiKey: key});
        gateway = await startWebGateway({model, env: {SVC_REMOTE_BASE_URL: remote.url, SVC_REMOTE_API_KEY: key}});
        browser = await launchChromium();
        const context = await browser.newContext({viewport: {width: 1440, height: 900}, colorScheme: "dark", acceptDownloads: true});
        await context.grantPermissions(["clipboard-read", "clipboard-write"], {origin: gateway.url});
        page = await context.newPage();
        page.on("pageerror", (error) => pageErrors.push(`${error.message}\n${error.stack}`));
        // Chromium logs every non-2xx fetch as a console error: the 400 the image test provokes is expected.
        page.on("console", (message) => {
            if (message.type() === "error" && !/^Failed to load resource: the server responded with a status of 400/.test(message.text())) pageErrors.push(message.text());
        });
        await page.goto(gateway.url);
        await page.getByTestId("nav-decisions").click();
        await page.getByTestId("decision-studio").waitFor();
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await remote?.stop();
    });

    test("build a set with one question of each type; the spec 8 rules show as you type, in the server's words", async () => {
        await page.getByTestId("qs-new").click();
        assert.equal(await cards().count(), 0);
        // The rules run on a deferred copy of the set (typing never waits for them): their messages follow a render later.
        await expectText(page.getByTestId("qs-problems"), /questions: must hold at least one question/);
        await page.getByTestId("qs-name").fill("Review triage");
        for (const type of ["predicate", "choice", "score"]) await page.getByTestId(`add-${type}`).click();
        assert.equal(await cards().count(), 3);
        assert.deepEqual(await questionNames(), ["is_relevant", "category", "quality"]);
        assert.equal(await page.getByTestId("qs-count").textContent(), "3 / 512 questions");

        // Choice: a text value, a boolean true, then the string "true" next to it: the server's own message.
        const choice = cards().nth(1);
        await choice.getByTestId("choice-value").first().fill("positive");
        await choice.getByTestId("choice-kind").nth(1).selectOption("true");
        await choice.getByTestId("choice-add").click();
        await choice.getByTestId("choice-value").nth(1).fill("true");
        const expected = (() => {
            try {
                parseDecisionsRequest({model: "svc-1-decision", input: "-", questions: [
                    {type: "predicate", name: "is_relevant", instructions: "x"},
                    {type: "choice", name: "category", instructions: "x", choices: [{value: "positive"}, {value: true}, {value: "true"}]}
                ]});
            } catch (error) {
                return (error as Error).message;
            }
            return "";
        })();
        assert.match(expected, /cannot hold both true and the string "true"/);
        await choice.getByTestId("q-problem").filter({hasText: expected}).waitFor();
        assert.match(await page.getByTestId("qs-problem-count").textContent() ?? "", /1 problem/);
        await choice.getByTestId("choice-value").nth(1).fill("neutral");
        await choice.getByTestId("q-problem").waitFor({state: "detached"});

        // A duplicate name, as the server reports it; then fixed.
        const score = cards().nth(2);
        await score.getByTestId("q-name").fill("category");
        await score.getByTestId("q-problem").filter({hasText: "questions[2].name: duplicates the name of questions[1]"}).waitFor();
        await score.getByTestId("q-name").fill("quality");
        await score.getByTestId("level-add").click();
        await score.getByTestId("level-label").nth(3).fill("excellent");
        await score.getByTestId("level-description").nth(3).fill("no mistakes at all");
        assert.equal(await score.getByTestId("level-count").textContent(), "4 / 64");

        // Reorder and duplicate.
        await score.getByTestId("q-up").click();
        assert.deepEqual(await questionNames(), ["is_relevant", "quality", "category"]);
        await cards().nth(1).getByTestId("q-down").click();
        assert.deepEqual(await questionNames(), ["is_relevant", "category", "quality"]);
        await cards().nth(0).getByTestId("q-duplicate").click();
        assert.deepEqual(await questionNames(), ["is_relevant", "is_relevant_copy", "category", "quality"]);
        await cards().nth(1).getByTestId("q-remove").click();
        assert.deepEqual(await questionNames(), ["is_relevant", "category", "quality"]);

        await page.getByTestId("qs-explain").check();
        assert.equal(await page.getByTestId("qs-count").textContent(), "3 / 64 questions", "the limit drops to 64 with explanations");
        await expectText(page.getByTestId("qs-problem-count"), /would accept/);
        assert.match(await readEditorText(page, "qs-json"), /"name": "Review triage"/, "the JSON beside the builder follows");
        await screenshot(page, "decisions-builder");
    });

    test("run it: a card per question with its chart, probabilities summing to 1.00, explanations, usage and Server-Timing", async () => {
        await page.getByTestId("input-text").fill("Le téléphone est « génial », but the battery died after 2 hours.");
        await run();
        const answers = page.getByTestId("answer-card");
        assert.equal(await answers.count(), 3);
        assert.deepEqual(await Promise.all((await answers.all()).map((card) => card.getAttribute("data-kind"))), ["yesno", "choice", "score"]);
        // Bars rendered (once their container is measured): one per choice value, one per level; the gauge for the predicate.
        await expectCount(answers.nth(1).locator(".recharts-bar-rectangle"), 3);
        await expectCount(answers.nth(2).locator(".recharts-bar-rectangle"), 4);
        assert.ok(await answers.nth(0).locator("[data-testid=gauge] .recharts-pie-sector").count() >= 1);
        assert.match(await answers.nth(0).getByTestId("gauge-value").textContent() ?? "", /^(0|1)\.\d\d$/);
        assert.deepEqual(await page.getByTestId("prob-sum").allTextContents(), ["1.00", "1.00", "1.00"]);
        assert.equal(await answers.nth(2).locator(".recharts-reference-line").count(), 1, "the expected score is marked");
        assert.equal(await page.getByTestId("answer-explanation").count(), 3);
        assert.match(await page.getByTestId("decision-usage").textContent() ?? "", /input_tokens\d+/);
        assert.match(await page.getByTestId("decision-server-timing").textContent() ?? "", /Server-Timing[\d.]+ ms/);
        await settleResults("decision-run-panel");
        await screenshot(page, "decisions-run");
    });

    test("switch to /v1/systemone and back: converted both ways, the JSON editable both ways", async () => {
        await page.getByTestId("qs-format-systemone").click();
        const json = await readEditorText(page, "qs-json");
        assert.match(json, /"format": "systemone"/);
        assert.match(json, /"is_relevant": \{\s*"type": "noul"/);
        assert.equal(await cards().nth(0).getByTestId("q-type").locator("option:checked").textContent(), "noul");
        assert.match(await page.getByTestId("qs-conversion-notes").textContent() ?? "", /boolean values are sent as the keys "true" \/ "false"/);
        await run();
        assert.equal(await page.getByTestId("answer-card").count(), 3);
        assert.deepEqual(await page.getByTestId("prob-sum").allTextContents(), ["1.00", "1.00", "1.00"]);
        await screenshot(page, "decisions-systemone");

        // An edit in the JSON reaches the builder.
        const edited = JSON.parse(await saveSet());
        edited.questions.is_relevant.instructions = "Is the review about battery life?";
        await setMonacoText(page, "qs-json", JSON.stringify(edited, null, 2));
        await page.waitForFunction(() => (document.querySelector("[data-testid=question-card] [data-testid=q-instructions]") as HTMLTextAreaElement | null)?.value === "Is the review about battery life?");

        await page.getByTestId("qs-format-decisions").click();
        const back = JSON.parse(await saveSet());
        assert.equal(back.format, "decisions");
        assert.deepEqual(back.questions.map((question: {type: string}) => question.type), ["predicate", "choice", "score"]);
        assert.deepEqual(back.questions[1].choices.map((choice: {value: unknown}) => choice.value), ["positive", true, "neutral"], "the boolean came back as a boolean");
        assert.deepEqual(back.questions[2].levels[3], {label: "excellent", description: "no mistakes at all"});
        assert.equal(back.questions[0].instructions, "Is the review about battery life?");
    });

    test("saved files are stable JSON; open one back from disk; the recent list remembers it", async () => {
        const text = await saveSet();
        assert.ok(text.endsWith("}\n"));
        assert.match(text, /^\{\n {2}"format": "decisions",\n {2}"name": "Review triage",\n {2}"x_svc": \{\n {4}"explain": true\n {2}\},\n {2}"questions": \[/);
        assert.doesNotThrow(() => parseQuestionSet(JSON.parse(text)));
        assert.equal(await saveSet(), text, "saving twice writes the same bytes");

        await page.getByTestId("qs-name").fill("Scratch");
        await page.getByTestId("add-predicate").click();
        const file = path.join(scratch, "shared.questions.json");
        await writeFile(file, text);
        await page.getByTestId("qs-open-input").setInputFiles(file);
        await page.getByTestId("qs-file-message").filter({hasText: "Opened shared.questions.json"}).waitFor();
        assert.equal(await page.getByTestId("qs-name").inputValue(), "Review triage");
        assert.equal(await cards().count(), 3);
        // The same text saved as review-triage.questions.json and opened as shared.questions.json: listed once.
        assert.deepEqual(await page.getByTestId("qs-recent").locator("option").allTextContents(), ["Recent…", "shared.questions.json"]);
        // Kept in the app's data folder (its saves are gathered for a moment after each change).
        await eventually(async () => assert.match(JSON.stringify(await readDocument(gateway.dataDir, "svc-studio-question-set")), /shared\.questions\.json/));
    });

    test("input: a JSON state runs; images are named image_1, image_2 and reach the server", async () => {
        await page.getByTestId("input-mode-json").click();
        await setMonacoText(page, "input-json", "{\"review\": \"Ça marche très bien\", \"stars\": 5}");
        await page.locator("[data-testid=input-json-ok]").waitFor();
        await run();
        assert.equal(await page.getByTestId("answer-card").count(), 3);

        const first = path.join(scratch, "front.png"), second = path.join(scratch, "back.png");
        await writeFile(first, makePng(24, 16));
        await writeFile(second, makePng(16, 24, [240, 120, 60]));
        await page.getByTestId("input-images").setInputFiles([first, second]);
        const previews = page.getByTestId("input-image-preview");
        await previews.nth(1).waitFor();
        assert.deepEqual((await previews.locator("figcaption").allTextContents()).map((caption) => caption.trim()), ["image_1 · front.png", "image_2 · back.png"]);
        await screenshot(page, "decisions-images");
        // The tiny model reads no images: the server's refusal shows as sent, and it counted both images.
        await run("error");
        assert.equal(await page.getByTestId("api-error-status").textContent(), "HTTP 400");
        assert.equal(await page.getByTestId("api-error-code").textContent(), "code: request_rejected");
        assert.match(await page.getByTestId("api-error-message").textContent() ?? "", /2 image/);
        for (let index = 0; index < 2; index++) await previews.first().getByRole("button").click();
        await page.getByTestId("input-mode-text").click();
    });

    test("compare: two variants of the set side by side on the same input", async () => {
        await page.getByTestId("studio-tab-compare").click();
        await page.getByTestId("variant-copy").click();
        const variant = JSON.parse(await readFile(path.join(scratch, "shared.questions.json"), "utf8"));
        variant.questions[0].instructions = "Does the review mention the battery?";
        variant.questions = variant.questions.slice(0, 2);
        await setMonacoText(page, "variant-json", JSON.stringify(variant, null, 2));
        await page.locator("[data-testid=variant-json-ok]").waitFor();
        await page.getByTestId("compare-run").click();
        await page.getByTestId("compare-results").waitFor({timeout: 60_000});
        assert.equal(await page.getByTestId("compare-result-a").getAttribute("data-status"), "done");
        assert.equal(await page.getByTestId("compare-result-b").getAttribute("data-status"), "done");
        const rows = page.getByTestId("compare-row");
        assert.equal(await rows.count(), 3);
        assert.equal(await rows.nth(0).getByTestId("answer-card").count(), 2);
        assert.equal(await rows.nth(2).getByTestId("answer-card").count(), 1, "quality is only in A");
        assert.match(await rows.nth(1).getByTestId("compare-max-diff").textContent() ?? "", /max \|Δp\| \d\.\d\d/);
        await settleResults("compare-results");
        await screenshot(page, "decisions-compare");
        await page.getByTestId("studio-tab-build").click();
    });

    test("compare: the local engine and the remote connection side by side", async () => {
        await page.getByTestId("studio-tab-compare").click();
        const remoteOption = page.getByTestId("connection-switcher").locator("option").filter({hasText: "remote (env)"});
        await page.getByTestId("connection-switcher").selectOption(await remoteOption.getAttribute("value") ?? "");
        await page.getByTestId("compare-connection-b").locator("option[value=remote]:not([disabled])").waitFor({state: "attached"});
        await page.getByTestId("compare-set-b").selectOption("current");
        await page.getByTestId("compare-connection-a").selectOption("local");
        await page.getByTestId("compare-connection-b").selectOption("remote");
        await page.getByTestId("compare-run").click();
        await page.getByTestId("compare-results").waitFor({timeout: 60_000});
        assert.equal(await page.getByTestId("compare-result-a").getAttribute("data-status"), "done");
        assert.equal(await page.getByTestId("compare-result-b").getAttribute("data-status"), "done");
        assert.match(await page.getByTestId("compare-result-a").textContent() ?? "", /viaLocal engine/);
        assert.match(await page.getByTestId("compare-result-b").textContent() ?? "", /viaremote \(env\)/);
        assert.equal(await page.getByTestId("compare-row").count(), 3);
        assert.equal(await page.getByTestId("compare-row").nth(2).getByTestId("answer-card").count(), 2);
        await settleResults("compare-results");
        await screenshot(page, "decisions-compare-connections");
        await page.getByTestId("connection-switcher").selectOption("local");
        await page.getByTestId("studio-tab-build").click();
    });

    test("no page errors", () => {
        assert.deepEqual(pageErrors, []);
    });
});
