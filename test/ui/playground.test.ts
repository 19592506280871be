// The renderer against the real gateway (`npm run web`) and the real local engine, driven in Chromium.
// The engine runs the project's tiny random-weight model, so replies are gibberish: the tests check the
// plumbing (streaming, stop, errors, code, history, presets), never the words.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {makePng} from "./utils/makePng.ts";
import {screenshot} from "./utils/screenshot.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {setMonacoText} from "./utils/setMonacoText.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";
import {gatewayApi} from "./utils/gatewayApi.ts";
import {readDocument} from "./utils/readAppData.ts";

// A tool whose only argument is an enum: forced calls finish in a few tokens even on a random model.
const unitTool = [{type: "function", function: {name: "get_weather", description: "Current weather", parameters: {
    type: "object", properties: {unit: {enum: ["celsius", "fahrenheit"]}}, required: ["unit"]
}}}];

describe("renderer playgrounds through the gateway", {skip: noChromium ?? false, timeout: 240_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    const status = () => page.getByTestId("run-status");
    const waitStatus = (text: string, timeout = 30_000) => status().filter({hasText: text}).waitFor({timeout});
    const setParam = (key: string, value: string) => page.getByTestId(`param-${key}`).fill(value);
    /** Runs started, to check that History holds every one of them. */
    let runsStarted = 0;
    const clickRun = async () => {
        await page.getByTestId("run-button").click();
        runsStarted++;
    };
    const run = async () => {
        await clickRun();
        await waitStatus("done");
    };

    /** The app's data folder, kept across the restart of the last tests. */
    let dataDir: string;
    let model: string;

    before(async () => {
        ensureRendererBuilt();
        model = await ensureTinyGguf();
        dataDir = await mkdtemp(path.join(os.tmpdir(), "svc-studio-playground-"));
        gateway = await startWebGateway({model, dataDir});
        browser = await launchChromium();
        const context = await browser.newContext({viewport: {width: 1440, height: 900}, colorScheme: "dark", acceptDownloads: true});
        await context.grantPermissions(["clipboard-read", "clipboard-write"], {origin: gateway.url});
        page = await context.newPage();
        page.on("pageerror", (error) => pageErrors.push(error.message));
        // Chromium logs every non-2xx fetch as a console error; those are the API errors the tests provoke.
        // Anything else (a CSP violation, a React warning, a Monaco failure) is a real problem.
        page.on("console", (message) => {
            if (message.type() === "error" && !/^Failed to load resource: the server responded with a status of (400|503)/.test(message.text()))
                pageErrors.push(message.text());
        });
        await page.goto(gateway.url);
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await rm(dataDir, {recursive: true, force: true});
    });

    test("a chat streams into the reply, then shows usage and Server-Timing", async () => {
        // Greedy decoding keeps the random model from ending early on its end-of-turn token.
        await setParam("temperature", "0");
        await setParam("max_tokens", "600");
        await clickRun();
        await waitStatus("streaming");
        // The reply must be seen growing, not only appear at the end. Playwright runs this predicate at every animation
        // frame, so it records the reply's length as each painted frame shows it, until the status says done.
        const recorded = await page.waitForFunction(() => {
            const seen = (window as unknown as {replyLengths?: number[]}).replyLengths ??= [];
            const length = document.querySelector("[data-testid=reply-text]")?.textContent?.length ?? 0;
            if (length > 0 && !seen.includes(length)) seen.push(length);
            return document.querySelector("[data-testid=run-status]")?.textContent?.includes("done") && seen;
        }, undefined, {timeout: 30_000});
        const lengths = await recorded.jsonValue() as number[];
        assert.ok(lengths.length >= 2, `the reply grew in steps while streaming (saw lengths ${lengths.join(", ")})`);
        assert.equal(await page.getByTestId("finish-reason").textContent(), "finish_reason: length");
        const usage = await page.getByTestId("usage").textContent() ?? "";
        assert.match(usage, /prompt_tokens\d+/);
        assert.match(usage, /completion_tokens\d+/);
        assert.match(await page.getByTestId("stat-server-timing").textContent() ?? "", /Server-Timing[\d.]+ ms/);
        // A plain stream's tokens arrive as they are generated: their rate is measured, and its definition is one hover away.
        assert.match(await page.getByTestId("stat-rate").textContent() ?? "", /^tokens\/s\d+$/);
        assert.match(await page.getByTestId("stat-rate").getAttribute("title") ?? "", /^Output tokens after the first/);
        await screenshot(page, "chat");
    });

    test("Stop aborts a running stream, keeps the partial reply, and frees the engine", async () => {
        await setParam("max_tokens", "3500");
        await clickRun();
        await waitStatus("streaming");
        await page.waitForFunction(() => (document.querySelector("[data-testid=reply-text]")?.textContent ?? "").length > 20);
        await page.getByTestId("stop-button").click();
        await waitStatus("stopped", 5000);
        await page.getByTestId("stopped-badge").waitFor();
        assert.ok((await page.getByTestId("reply-text").textContent() ?? "").length > 20, "the partial reply stays");
        assert.equal(await page.getByTestId("finish-reason").count(), 0, "a stopped stream has no finish reason");
        await screenshot(page, "chat-stopped");
        // The engine serves one sequence: the next run gets it once the aborted one gave it back. No bound on how long
        // that takes here (a machine under load makes any such bound flaky): that a client leaving stops the generation
        // and frees the sequence at once is checked where it can be seen, on the engine's scheduler (test/api/concurrency),
        // and that the gateway passes the hang-up on, in electron/gateway/Gateway.test.ts.
        await setParam("max_tokens", "16");
        await run();
        await setParam("temperature", "0.7");
    });

    test("a changed parameter shows in View code: curl, TypeScript and Python, with the engine URL and the key as an env var", async () => {
        await page.getByTestId("view-code-toggle").click();
        const code = page.getByTestId("code-block");
        await setParam("temperature", "1.3");
        await setParam("seed", "4242");
        await page.getByTestId("param-include_reasoning").getByRole("radio", {name: "false"}).click();
        // The local engine's own loopback URL (scripts have no gateway token), as the gateway reports it.
        const {engine} = await gatewayApi<{engine: {url?: string}}>(page, "/state");
        assert.match(engine.url ?? "", /^http:\/\/127\.0\.0\.1:\d+$/);
        assert.equal(await page.getByTestId("code-base-url").textContent(), `${engine.url}/svc-1/v1`);
        const curl = await code.textContent() ?? "";
        assert.match(curl, /curl -N http:\/\/127\.0\.0\.1:\d+\/svc-1\/v1\/chat\/completions/);
        assert.match(curl, /"temperature": 1\.3/);
        assert.match(curl, /"seed": 4242/);
        assert.match(curl, /Authorization: Bearer \$SVC_API_KEY/);
        await page.getByTestId("code-tab-typescript").click();
        const ts = await code.textContent() ?? "";
        assert.match(ts, /temperature: 1\.3/);
        assert.match(ts, /apiKey: process\.env\.SVC_API_KEY/);
        assert.match(ts, /include_reasoning: false/);
        await page.getByTestId("code-tab-python").click();
        const py = await code.textContent() ?? "";
        assert.match(py, /temperature=1\.3,/);
        assert.match(py, /api_key=os\.environ\["SVC_API_KEY"\]/);
        assert.match(py, /extra_body=\{"include_reasoning": False\}/);
        // Live: the code follows the next edit without reopening.
        await setParam("temperature", "0.25");
        assert.match(await code.textContent() ?? "", /temperature=0\.25,/);
        await screenshot(page, "chat-view-code");
        // Wrap lines: long lines wrap inside the panel; off again, they read as they would be pasted.
        assert.equal(await code.evaluate((element) => getComputedStyle(element).whiteSpace), "pre");
        await page.getByTestId("code-wrap").check();
        assert.equal(await code.evaluate((element) => getComputedStyle(element).whiteSpace), "pre-wrap");
        assert.ok(await code.evaluate((element) => element.scrollWidth <= element.clientWidth + 1), "nothing runs past the panel");
        await page.getByTestId("code-wrap").uncheck();
        await page.getByTestId("param-include_reasoning").getByRole("radio", {name: "—"}).click();
        await page.getByTestId("view-code-toggle").click();
    });

    test("attached images are previewed and removable; the engine's 400 is shown as it returned it", async () => {
        const input = page.getByTestId("attach-image-input").first();
        await input.setInputFiles([{name: "gradient.png", mimeType: "image/png", buffer: makePng(48, 32)}]);
        await input.setInputFiles([{name: "second.png", mimeType: "image/png", buffer: makePng(32, 32, [255, 140, 60])}]);
        const previews = page.getByTestId("image-preview");
        await previews.nth(1).waitFor();
        assert.equal(await previews.count(), 2);
        assert.ok(await previews.first().locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 48), "the preview shows the picked image");
        await page.getByRole("button", {name: "Remove second.png"}).click();
        assert.equal(await previews.count(), 1);
        await clickRun();
        await waitStatus("error");
        assert.equal(await page.getByTestId("api-error-status").textContent(), "HTTP 400");
        assert.equal(await page.getByTestId("api-error-code").textContent(), "code: invalid_request");
        assert.equal(await page.getByTestId("api-error-type").textContent(), "type: invalid_request_error");
        assert.match(await page.getByTestId("api-error-message").textContent() ?? "", /cannot read images/);
        await screenshot(page, "chat-image-error");
        await page.getByRole("button", {name: "Remove gradient.png"}).click();
        assert.equal(await previews.count(), 0);
    });

    test("the tools editor validates as you type; a forced tool call is answered as a tool message", async () => {
        await page.getByTestId("chat-settings-tab-tools").click();
        await page.getByText("Insert example").click();
        await page.getByTestId("tools-editor-ok").waitFor();
        await setMonacoText(page, "tools-editor", "[{\"type\": \"function\", \"function\": {");
        // The paste lands asynchronously: wait for each message rather than reading the previous one.
        await page.getByTestId("tools-editor-error").filter({hasText: /^Invalid JSON/}).waitFor();
        assert.ok(await page.getByTestId("run-button").isDisabled(), "Run waits for valid tools");
        await setMonacoText(page, "tools-editor", JSON.stringify([{type: "function", function: {description: "no name"}}]));
        await page.getByTestId("tools-editor-error").filter({hasText: "tools[0].function.name"}).waitFor();
        assert.equal(await page.getByTestId("tools-editor-error").textContent(), "tools[0].function.name: is required");
        await setMonacoText(page, "tools-editor", JSON.stringify(unitTool, null, 2));
        await page.getByTestId("tools-editor-ok").waitFor();
        await page.getByTestId("tool-choice").selectOption("function:get_weather");
        await screenshot(page, "chat-tools");

        // Forcing a tool applies to non-streaming requests (spec 2.5): with stream on the request is not sent, and the
        // reason is the server parser's own. Ctrl+Enter does not send it either.
        const reason = "tool_choice: forcing a tool call is not supported on streaming requests; use \"auto\" or send stream: false";
        assert.ok(await page.getByTestId("run-button").isDisabled(), "Run waits while stream is on");
        assert.equal(await page.getByTestId("run-button").getAttribute("title"), reason);
        await page.getByTestId("stream-conflict").waitFor();
        await page.keyboard.press("Control+Enter");
        await waitStatus("error", 5000);
        assert.equal(await page.getByTestId("api-error-message").textContent(), `Fix the request first: ${reason}`);
        await page.getByTestId("stream-off-button").click();
        assert.ok(await page.getByTestId("run-button").isEnabled(), "stream off lets the run go");
        await page.getByTestId("chat-settings-tab-params").click();
        await page.getByTestId("param-stream").getByRole("radio", {name: "false"}).waitFor();
        assert.equal(await page.getByTestId("param-stream").getByRole("radio", {name: "false"}).getAttribute("aria-checked"), "true");
        await setParam("max_tokens", "200");
        await run();
        const call = page.getByTestId("tool-call");
        await call.waitFor();
        assert.match(await call.textContent() ?? "", /get_weather/);
        assert.match(await page.getByTestId("finish-reason").textContent() ?? "", /tool_calls/);
        const before = await page.getByTestId("message-card").count();
        await call.getByRole("textbox").fill("{\"temperature\": 21}");
        await call.getByRole("button", {name: "Answer as tool message"}).click();
        const cards = page.getByTestId("message-card");
        assert.equal(await cards.count(), before + 2, "the assistant message with the calls and the tool result were added");
        assert.equal(await cards.nth(before).getByTestId("message-role").inputValue(), "assistant");
        assert.equal(await cards.nth(before + 1).getByTestId("message-role").inputValue(), "tool");
        const callId = await cards.nth(before + 1).getByLabel("tool_call_id").inputValue();
        assert.match(callId, /\S/);
        assert.match(await cards.nth(before).textContent() ?? "", new RegExp(callId));
        await screenshot(page, "chat-tool-call");
        // The conversation with the tool turn is a valid request: the engine answers it.
        await page.getByTestId("chat-settings-tab-tools").click();
        await page.getByTestId("tool-choice").selectOption("");
        await run();

        // Back to a plain streaming chat for the next tests.
        for (let count = await cards.count(); count > 1; count--) await cards.last().getByRole("button", {name: "Delete message"}).click();
        await page.getByText("Clear").click();
        await page.getByTestId("chat-settings-tab-params").click();
        await page.getByTestId("param-stream").getByRole("radio", {name: "true"}).click();
    });

    test("messages can be added, edited, reordered and deleted", async () => {
        const cards = page.getByTestId("message-card");
        await page.getByTestId("add-message").click();
        await cards.nth(1).getByTestId("message-content").fill("second");
        await page.getByTestId("add-message").click();
        await cards.nth(2).getByTestId("message-content").fill("third");
        await cards.nth(2).getByRole("button", {name: "Move up"}).click();
        const texts = async () => Promise.all((await cards.all()).map((card) => card.getByTestId("message-content").inputValue()));
        assert.deepEqual((await texts()).slice(1), ["third", "second"]);
        // A new message takes the role that alternates with the last one; moving keeps each message's role.
        assert.deepEqual(await Promise.all((await cards.all()).map((card) => card.getByTestId("message-role").inputValue())), ["user", "user", "assistant"]);
        await cards.nth(1).getByRole("button", {name: "Move down"}).click();
        assert.deepEqual((await texts()).slice(1), ["second", "third"]);
        await cards.nth(1).getByRole("button", {name: "Delete message"}).click();
        await cards.nth(1).getByRole("button", {name: "Delete message"}).click();
        assert.equal(await cards.count(), 1);
    });

    test("max_tokens and seed say what the local engine does: the loaded context bounds the budget, a seed fixes any temperature", async () => {
        const {engine} = await gatewayApi<{engine: {contextSize?: number}}>(page, "/state");
        const window = engine.contextSize!;
        assert.ok(Number.isInteger(window) && window > 0, `the engine reports its context (${window})`);
        const help = (key: string) => page.getByTestId(`param-${key}-help`);
        await expectText(help("max_tokens"), new RegExp(`^Output budget\\. Prompt \\+ budget ≤ ${window.toLocaleString("en-US")} \\(the loaded model's context\\)`));
        await expectText(help("seed"), /same output at any temperature on this engine/);
        const before = await page.getByTestId("param-max_tokens").inputValue();
        await setParam("max_tokens", String(window + 1));
        await expectText(page.getByTestId("param-max_tokens-warning"), `max_tokens must be at most ${window}; the server will reject it`);
        await setParam("max_tokens", before);
    });

    test("each playground's draft and the open screen survive a reload", async () => {
        await page.getByTestId("system-prompt").fill("Kept system prompt");
        await page.getByTestId("message-content").first().fill("Kept user message");
        await setParam("top_p", "0.42");
        await page.getByTestId("nav-responses").click();
        await page.getByTestId("instructions").fill("Kept instructions");
        await page.getByTestId("nav-completions").click();
        await page.getByTestId("completions-prompt").fill("Kept prompt");
        await page.getByTestId("nav-responses").click();
        // Each is a document in the app's data folder, written shortly after the edit.
        const saved = (key: string) => readDocument(dataDir, key) as Promise<{state: Record<string, unknown>} | undefined>;
        await eventually(async () => assert.equal((await saved("svc-studio-nav"))?.state.screen, "responses"));
        await eventually(async () => assert.equal(((await saved("svc-studio-chat"))?.state.draft as {systemPrompt?: string})?.systemPrompt, "Kept system prompt"));

        // The chat's last reply is kept too, as the Decision studio keeps its answers.
        await page.getByTestId("nav-chat").click();
        const reply = await page.getByTestId("reply-text").first().textContent() ?? "";
        assert.ok(reply.length > 0, "an earlier test ran the chat");
        await eventually(async () => assert.ok(((await saved("svc-studio-chat"))?.state.reply as {choices?: unknown[]})?.choices?.length, "the reply is saved"));
        await page.getByTestId("nav-responses").click();
        await eventually(async () => assert.equal((await saved("svc-studio-nav"))?.state.screen, "responses"));

        await page.reload();
        await page.getByTestId("responses-screen").waitFor();
        assert.equal(await page.getByTestId("nav-responses").getAttribute("aria-current"), "page");
        assert.equal(await page.getByTestId("instructions").inputValue(), "Kept instructions");
        await page.getByTestId("nav-completions").click();
        assert.equal(await page.getByTestId("completions-prompt").inputValue(), "Kept prompt");
        await page.getByTestId("nav-chat").click();
        assert.equal(await page.getByTestId("reply-text").first().textContent(), reply);
        assert.equal(await page.getByTestId("system-prompt").inputValue(), "Kept system prompt");
        assert.equal(await page.getByTestId("message-content").first().inputValue(), "Kept user message");
        assert.equal(await page.getByTestId("param-top_p").inputValue(), "0.42");
        await page.getByTestId("param-top_p").fill("");
    });

    test("the Responses playground streams events and ends with the output text", async () => {
        await page.getByTestId("nav-responses").click();
        await run();
        const events = await page.getByTestId("responses-events").textContent() ?? "";
        assert.match(events, /response\.created/);
        assert.match(events, /response\.output_text\.delta/);
        assert.match(events, /response\.completed/);
        assert.ok((await page.getByTestId("responses-output").textContent() ?? "").length > 0);
        assert.match(await page.getByTestId("usage").textContent() ?? "", /input_tokens\d+/);
        await screenshot(page, "responses");
    });

    test("the legacy Completions playground streams text", async () => {
        await page.getByTestId("nav-completions").click();
        // A made-up word, so the History search below finds this run and no sampled reply by chance.
        await page.getByTestId("completions-prompt").fill("Once upon a time, Zyxquv the zebra");
        await run();
        assert.ok((await page.getByTestId("completion-text").textContent() ?? "").length > 0);
        assert.match(await page.getByTestId("usage").textContent() ?? "", /completion_tokens\d+/);
        await screenshot(page, "completions");
    });

    test("every run is saved in History, searchable, and re-opens in its playground", async () => {
        await page.getByTestId("nav-history").click();
        const rows = page.getByTestId("history-row");
        // Every run so far is listed; the search filters as it is typed (errors are searchable too).
        await expectCount(rows, runsStarted);
        await page.getByTestId("history-search").fill("zyxquv");
        await expectCount(rows, 1);
        await page.getByTestId("history-search").fill("cannot read images");
        await expectCount(rows, 1);
        assert.match(await rows.first().textContent() ?? "", /error 400/, "the match is the failed run");
        await page.getByTestId("history-search").fill("no-such-text-anywhere");
        await expectCount(rows, 0);
        await page.getByTestId("history-search").fill("robot");
        await rows.first().click();
        await screenshot(page, "history");
        await page.getByTestId("history-open").click();
        await page.getByTestId("chat-screen").waitFor();
        assert.match(await page.getByTestId("message-content").first().inputValue(), /robot/);
        assert.ok((await page.getByTestId("reply-text").first().textContent() ?? "").length > 0, "the stored reply is shown again");
    });

    test("a preset keeps the whole request, exports to a JSON file, imports back, and loads in Chat and, where it can, in Responses", async () => {
        // The run History re-opened had a tool turn: back to one user message and no tools, a request Responses can send too.
        const cards = page.getByTestId("message-card");
        for (let count = await cards.count(); count > 1; count--) await cards.last().getByRole("button", {name: "Delete message"}).click();
        await page.getByTestId("chat-settings-tab-tools").click();
        if (await page.getByText("Clear").count() > 0) await page.getByText("Clear").click();
        await page.getByTestId("chat-settings-tab-params").click();
        await page.getByTestId("system-prompt").fill("Answer like a pirate.");
        await setParam("temperature", "0.2");
        await setParam("top_p", "0.9");
        await setParam("seed", "7");
        await page.getByTestId("preset-name").fill("Demo preset");
        await page.getByTestId("preset-save").click();
        await expectText(page.getByTestId("preset-message"), "Saved \"Demo preset\".");
        await page.getByTestId("nav-presets").click();
        assert.match(await page.getByTestId("presets-table").textContent() ?? "", /Demo presetChatsystem prompt · 1 message · \d+ parameters.*temperature=0\.2/);
        const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("presets-export").click()]);
        const file = JSON.parse(await readFile(await download.path(), "utf8"));
        assert.equal(file.format, "svc-studio-presets");
        assert.equal(file.version, 2);
        assert.deepEqual(file.presets.map((preset: {name: string, params: {temperature?: number}}) => [preset.name, preset.params.temperature]), [["Demo preset", 0.2]]);
        assert.deepEqual(file.presets[0].prompt.messages[0], {role: "system", content: "Answer like a pirate."});
        // A delete can be undone; the second one stays.
        await page.getByRole("button", {name: "Delete preset Demo preset"}).click();
        await expectCount(page.getByTestId("preset-row"), 0);
        await page.getByTestId("presets-undo").click();
        await expectCount(page.getByTestId("preset-row"), 1);
        await page.getByRole("button", {name: "Delete preset Demo preset"}).click();
        await page.getByTestId("presets-import").setInputFiles({name: "team-presets.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(file))});
        // The import reads the file asynchronously: wait for its message rather than reading it at once.
        await page.getByTestId("presets-message").filter({hasText: /Imported 1 preset/}).waitFor();
        await page.getByTestId("presets-import").setInputFiles({name: "wrong.json", mimeType: "application/json", buffer: Buffer.from("{\"presets\": 3}")});
        await page.getByTestId("presets-message").filter({hasText: /wrong\.json: Not a presets file/}).waitFor();
        await screenshot(page, "presets");

        // Loading it back into Chat sets the prompt and the parameters.
        await page.getByTestId("nav-chat").click();
        await page.getByTestId("system-prompt").fill("Something else");
        await setParam("temperature", "1.9");
        await page.getByTestId("preset-load").selectOption({label: "Demo preset"});
        assert.equal(await page.getByTestId("param-temperature").inputValue(), "0.2");
        assert.equal(await page.getByTestId("system-prompt").inputValue(), "Answer like a pirate.");
        const userMessage = await page.getByTestId("message-content").first().inputValue();

        // Responses offers it: the system prompt is the instructions, the user message the input; seed has no counterpart.
        await page.getByTestId("nav-responses").click();
        await page.getByTestId("preset-load").selectOption({label: "Demo preset · from Chat"});
        await expectText(page.getByTestId("preset-message"), /^Loaded "Demo preset" from Chat\..*\bseed\b.* no Responses parameter and (was|were) left out\.$/);
        assert.equal(await page.getByTestId("instructions").inputValue(), "Answer like a pirate.");
        assert.equal(await page.getByTestId("responses-text").first().inputValue(), userMessage);
        assert.equal(await page.getByTestId("param-temperature").inputValue(), "0.2");
        await screenshot(page, "presets-in-responses");

        // Completions lists it as one it cannot load, and says why.
        await page.getByTestId("nav-completions").click();
        const option = page.getByTestId("preset-load").locator("option", {hasText: "Demo preset"});
        assert.equal(await option.textContent(), "Demo preset · Chat: holds messages; Completions takes plain text");
        assert.equal(await option.isDisabled(), true);
        await page.getByTestId("nav-chat").click();
    });

    test("the engine screen shows the engine; stopped, a chat is the gateway's 503, or starts the engine with auto start on", async () => {
        await page.getByTestId("nav-engine").click();
        await page.getByTestId("engine-status").filter({hasText: "running"}).waitFor();
        assert.match(await page.getByTestId("engine-model").textContent() ?? "", /tiny-chatml-v\d+\.gguf$/);
        assert.equal(await page.getByTestId("engine-compute").textContent(), "CPU");
        assert.equal(await page.getByTestId("engine-threads").textContent(), "1");
        assert.match(await page.getByTestId("engine-context-size").textContent() ?? "", /^[\d,]+$/);
        await screenshot(page, "engine");
        await gatewayApi(page, "/models/settings", {method: "POST", body: {autoStart: false}});
        await page.getByTestId("engine-stop").click();
        await page.getByTestId("engine-status").filter({hasText: "stopped"}).waitFor({timeout: 15_000});
        await page.getByTestId("nav-chat").click();
        await clickRun();
        await waitStatus("error", 15_000);
        assert.equal(await page.getByTestId("api-error-status").textContent(), "HTTP 503");
        assert.equal(await page.getByTestId("api-error-code").textContent(), "code: service_unavailable");
        // With auto start on, the next request loads the engine itself instead of failing, and the reply says so meanwhile.
        await gatewayApi(page, "/models/settings", {method: "POST", body: {autoStart: true}});
        await setParam("max_tokens", "16");
        await clickRun();
        const starting = page.getByTestId("engine-starting");
        await starting.waitFor({timeout: 15_000});
        assert.match(await starting.textContent() ?? "", /^Starting the local engine \(tiny-chatml-v\d+\.gguf\); the request goes through once it runs\.$/);
        assert.equal(await status().textContent(), "starting engine…");
        await screenshot(page, "chat-engine-starting");
        await waitStatus("done", 60_000);
        await page.getByTestId("nav-engine").click();
        await page.getByTestId("engine-status").filter({hasText: "running"}).waitFor({timeout: 60_000});
        await page.getByTestId("nav-chat").click();
    });

    test("the open screen and the drafts survive a restart: a new gateway on another port, the same data folder", async () => {
        await page.getByTestId("nav-completions").click();
        await page.getByTestId("completions-prompt").fill("Kept across a restart");
        await eventually(async () => assert.equal(((await readDocument(dataDir, "svc-studio-completions") as {state: {draft: {prompt: string}}})?.state.draft.prompt), "Kept across a restart"));
        const before = gateway.url;
        await page.goto("about:blank");
        await gateway.stop();
        gateway = await startWebGateway({model, dataDir});
        assert.notEqual(gateway.url, before);
        await page.goto(gateway.url);
        await page.getByTestId("completions-screen").waitFor();
        assert.equal(await page.getByTestId("completions-prompt").inputValue(), "Kept across a restart");
        await page.getByTestId("nav-chat").click();
    });

    test("the light theme renders too, and no page error or console error happened", async () => {
        await page.getByTestId("theme-toggle").click();
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "light");
        await page.getByTestId("view-code-toggle").click();
        await screenshot(page, "chat-light");
        await page.getByTestId("view-code-toggle").click();
        await page.getByTestId("theme-toggle").click();
        assert.deepEqual(pageErrors, []);
    });
});
