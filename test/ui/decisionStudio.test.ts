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
import {readDocument, readHistory} from "./utils/readAppData.ts";
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
        // A run that does not end as expected says how it stands, with the error the screen shows.
        await status().filter({hasText: expected}).waitFor({timeout: 60_000}).catch(async (error: Error) => {
            const result = await page.getByTestId("decision-result").textContent({timeout: 1000}).catch(() => "(no result)");
            throw new Error(`${error.message}\nthe run is ${await status().textContent()}: ${result}`);
        });
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
        assert.equal(expected, "questions[1].choices[2].value: a question cannot hold both true and the string \"true\" (see choices[1])");
        // Shown as the builder numbers the set (card #2, choices from 1), with the server's own words in the title.
        const problem = choice.getByTestId("q-problem").filter({hasText: "#2 · choice 3: a question cannot hold both true and the string \"true\" (see choice 2)"});
        await problem.waitFor();
        assert.equal(await problem.getAttribute("title"), `The server reports: ${expected}`);
        assert.match(await page.getByTestId("qs-problem-count").textContent() ?? "", /^1 problem /);
        await choice.getByTestId("choice-value").nth(1).fill("neutral");
        await choice.getByTestId("q-problem").waitFor({state: "detached"});

        // A duplicate name, numbered as the cards are; then fixed.
        const score = cards().nth(2);
        await score.getByTestId("q-name").fill("category");
        await score.getByTestId("q-problem").filter({hasText: "#3 · name: duplicates the name of #2 (\"category\")"}).waitFor();
        assert.equal(await score.getByTestId("q-problem").getAttribute("title"), "The server reports: questions[2].name: duplicates the name of questions[1] (\"category\"); names must be unique");
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

    test("every problem is listed, numbered as the cards are, and each one takes you to its field", async () => {
        const choice = cards().nth(1);
        const score = cards().nth(2);
        await choice.getByTestId("choice-value").nth(1).fill("positive");
        await score.getByTestId("q-name").fill("category");
        await expectText(page.getByTestId("qs-problem-count"), "2 problems to fix before running.");
        assert.deepEqual(await page.getByTestId("qs-problem").allTextContents(), [
            "#2 · choice 3: duplicates the value of choice 1 (\"positive\"); values must be unique",
            "#3 · name: duplicates the name of #2 (\"category\"); names must be unique"
        ]);
        // Each problem marks its own field, and names the line that describes it.
        // (Choice 2 is the boolean true: the text fields are choices 1 and 3.)
        assert.equal(await choice.getByTestId("choice-value").nth(1).getAttribute("aria-invalid"), "true");
        assert.equal(await choice.getByTestId("choice-value").nth(0).getAttribute("aria-invalid"), null);
        assert.equal(await score.getByTestId("q-name").getAttribute("aria-invalid"), "true");
        const described = await score.getByTestId("q-name").getAttribute("aria-describedby");
        assert.match(await page.locator(`[id="${described}"]`).textContent() ?? "", /^#3 · name:/);
        await page.getByTestId("qs-problem").nth(0).click();
        await eventually(async () => assert.equal(await choice.getByTestId("choice-value").nth(1).evaluate((element) => element === document.activeElement), true));
        await page.getByTestId("qs-problem").nth(1).click();
        await eventually(async () => assert.equal(await score.getByTestId("q-name").evaluate((element) => element === document.activeElement), true));
        await screenshot(page, "decisions-problems");
        // A run is refused with the first problem, and says how many more there are.
        await run("error");
        assert.match(await page.getByTestId("api-error-message").textContent() ?? "", /^question set: #2 · choice 3: duplicates the value of choice 1 .* \(and 1 more problem, listed with the questions\)$/);
        await choice.getByTestId("choice-value").nth(1).fill("neutral");
        await score.getByTestId("q-name").fill("quality");
        await expectText(page.getByTestId("qs-problem-count"), /would accept/);
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
        await expectCount(page.getByTestId("decision-stale"), 0);
        await settleResults("decision-run-panel");
        await screenshot(page, "decisions-run");
        // Changing the input leaves these answers on screen, marked as belonging to the earlier request; changing it back clears the mark.
        const input = await page.getByTestId("input-text").inputValue();
        await page.getByTestId("input-text").fill(`${input} Still charging.`);
        await expectText(page.getByTestId("decision-stale"), /stale: the set or the input changed since this run/);
        await page.getByTestId("input-text").fill(input);
        await expectCount(page.getByTestId("decision-stale"), 0);
    });

    test("Ctrl+Enter runs from the input and from the JSON editor (which gets no new line); the request and response JSON are one click away", async () => {
        const runsBefore = (await readHistory(gateway.dataDir)).length;
        const text = await page.getByTestId("input-text").inputValue();
        await page.getByTestId("input-text").press("Control+Enter");
        await eventually(async () => assert.equal((await readHistory(gateway.dataDir)).length, runsBefore + 1), {timeoutMs: 60_000});
        assert.equal(await page.getByTestId("input-text").inputValue(), text, "the key did not type into the input");
        await status().filter({hasText: "done"}).waitFor();
        const json = await readEditorText(page, "qs-json");
        await page.locator("[data-testid=qs-json] .monaco-editor .view-lines").click();
        await page.keyboard.press("Control+Enter");
        await eventually(async () => assert.equal((await readHistory(gateway.dataDir)).length, runsBefore + 2), {timeoutMs: 60_000});
        assert.equal(await readEditorText(page, "qs-json"), json, "Monaco's own Ctrl+Enter (insert a line) did not run");

        await status().filter({hasText: "done"}).waitFor();
        const raw = page.getByTestId("decision-result-raw");
        await raw.locator("summary").click();
        const request = JSON.parse(await raw.getByTestId("decision-result-raw-request").locator("pre").textContent() ?? "");
        assert.equal(request.input, text);
        assert.deepEqual(request.questions.map((question: {name: string}) => question.name), ["is_relevant", "category", "quality"]);
        assert.deepEqual(request.x_svc, {explain: true, label_mass: true}, "the body as sent to the local engine");
        const response = JSON.parse(await raw.getByTestId("decision-result-raw-response").locator("pre").textContent() ?? "");
        assert.equal(response.answers.length, 3);
        assert.equal(typeof response.usage.input_tokens, "number");
        await raw.locator("summary").click();
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
        // The edits since the save would be lost: the app asks first.
        await page.getByTestId("replace-set-dialog").waitFor();
        await page.getByTestId("replace-set-discard").click();
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
        await page.getByTestId("variant-view-json").click();
        const variant = JSON.parse(await readFile(path.join(scratch, "shared.questions.json"), "utf8"));
        variant.questions[0].instructions = "Does the review mention the battery?";
        variant.questions = variant.questions.slice(0, 2);
        await setMonacoText(page, "variant-json", JSON.stringify(variant, null, 2));
        await page.locator("[data-testid=variant-json-ok]").waitFor();
        // The form holds the same set, edited with the builder's own controls; its edits go back into the JSON.
        await page.getByTestId("variant-view-form").click();
        const variantCards = page.getByTestId("variant-form").getByTestId("question-card");
        assert.equal(await variantCards.count(), 2);
        assert.equal(await variantCards.nth(0).getByTestId("q-instructions").inputValue(), "Does the review mention the battery?");
        assert.equal(await variantCards.nth(1).getByTestId("choice-row").count(), 3);
        await page.getByTestId("variant-name").fill("Battery variant");
        await page.getByTestId("variant-view-json").click();
        // Monaco renders the switched-to editor's lines in a frame of its own: read until they are there.
        await eventually(async () => assert.match(await readEditorText(page, "variant-json"), /"name": "Battery variant"/));
        await page.getByTestId("variant-view-form").click();
        // Ctrl+Enter on the compare tab runs both sides.
        await page.getByTestId("variant-name").press("Control+Enter");
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

    test("a run sent while a switch of connection is still on its way goes to the connection the screen shows", async () => {
        const switcher = page.getByTestId("connection-switcher");
        const settled = (id: string) => page.waitForFunction((wanted) => {
            const select = document.querySelector<HTMLSelectElement>("[data-testid=connection-switcher]");
            return select !== null && select.value === wanted && !select.disabled;
        }, id);
        const remoteId = await switcher.locator("option").filter({hasText: "remote (env)"}).getAttribute("value") ?? "";
        await switcher.selectOption(remoteId);
        await settled(remoteId);
        // The switch back to the local engine reaches the gateway, but its answer is held back: the screen still
        // shows the remote connection, and the gateway's active one is already the local engine.
        let reached!: () => void, release!: () => void;
        const atGateway = new Promise<void>((resolve) => reached = resolve), held = new Promise<void>((resolve) => release = resolve);
        await page.route("**/gateway/api/connections/local/activate", async (route) => {
            const response = await route.fetch();
            reached();
            await held;
            await route.fulfill({response});
        });
        await switcher.selectOption("local");
        await atGateway;
        const [response] = await Promise.all([
            page.waitForResponse((answer) => /\/v1\/(decisions|systemone)$/.test(new URL(answer.url()).pathname)),
            page.getByTestId("decision-run").click()
        ]);
        assert.equal(new URL(response.url()).pathname.startsWith("/remote/"), true, "sent where the screen said: the remote connection");
        assert.equal((await response.request().allHeaders())["x-svc-connection"], remoteId, "naming that connection's profile");
        assert.equal(response.status(), 200);
        await status().filter({hasText: "done"}).waitFor();
        assert.match(await page.getByTestId("decision-meta").textContent() ?? "", /viaremote \(env\)/);
        release();
        await settled("local");
        await page.unroute("**/gateway/api/connections/local/activate");
    });

    test("New asks before it drops unsaved edits, takes the old answers away, and can be undone", async () => {
        await run();
        const answers = page.getByTestId("answer-card");
        assert.equal(await answers.count(), 3);
        await page.getByTestId("qs-name").fill("Review triage v2");
        await page.getByTestId("qs-unsaved").waitFor();
        const dialog = page.getByTestId("replace-set-dialog");
        const ask = async () => {
            await page.getByTestId("qs-new").click();
            await dialog.waitFor();
        };
        const keptAsIs = async () => {
            await dialog.waitFor({state: "detached"});
            assert.equal(await page.getByTestId("qs-name").inputValue(), "Review triage v2");
            assert.equal(await cards().count(), 3);
            assert.equal(await answers.count(), 3);
        };
        await ask();
        assert.equal(await page.getByTestId("replace-set-cancel").evaluate((element) => element === document.activeElement), true, "the safe answer has the focus");
        await screenshot(page, "decisions-new-dialog");
        // Escape, Cancel and Ctrl+Enter keep everything.
        await page.keyboard.press("Control+Enter");
        await page.keyboard.press("Escape");
        await keptAsIs();
        await ask();
        await page.getByTestId("replace-set-cancel").click();
        await keptAsIs();

        // Discard: an empty new set, and no answers of the old one.
        await ask();
        await page.getByTestId("replace-set-discard").click();
        await expectCount(cards(), 0);
        assert.equal(await answers.count(), 0);
        assert.equal(await page.getByTestId("decision-result").count(), 0);
        assert.equal(await page.getByTestId("qs-name").inputValue(), "Untitled question set");
        assert.equal(await page.getByTestId("qs-unsaved").count(), 0, "a new set has nothing to lose");
        // Undo brings back the set with its unsaved edits, and its answers.
        await page.getByTestId("qs-undo").click();
        await expectCount(cards(), 3);
        assert.equal(await page.getByTestId("qs-name").inputValue(), "Review triage v2");
        assert.equal(await answers.count(), 3);
        await page.getByTestId("qs-unsaved").waitFor();

        // Save it first: the set is downloaded, then replaced.
        await ask();
        const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("replace-set-save").click()]);
        assert.equal(download.suggestedFilename(), "review-triage-v2.questions.json");
        assert.equal(JSON.parse(await readFile(await download.path(), "utf8")).name, "Review triage v2");
        await expectCount(cards(), 0);
        // A set with nothing unsaved is replaced at once (here: opened again from the recent list).
        await page.getByTestId("qs-recent").selectOption({label: "review-triage-v2.questions.json"});
        await expectCount(cards(), 3);
        assert.equal(await dialog.count(), 0);
        assert.equal(await page.getByTestId("qs-unsaved").count(), 0);
    });

    test("no page errors", () => {
        assert.deepEqual(pageErrors, []);
    });
});
