// The playgrounds' probabilities view (issue 15) against the real gateway and engine, driven in Chromium: in the
// completions, Responses and chat playgrounds the token view appears when logprobs are asked for, a token's alternatives show on hover and on focus, and a
// logit_bias entry in the parameters panel changes the output; the token id readout fills logit_bias, and "Score this
// text" shades the prompt's own tokens. Screenshots go to test-artifacts/ui.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {screenshot} from "./utils/screenshot.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

describe("probabilities view in the playgrounds", {skip: noChromium ?? false, timeout: 180_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    const setParam = (key: string, value: string) => page.getByTestId(`param-${key}`).fill(value);
    const run = async () => {
        await page.getByTestId("run-button").click();
        await page.getByTestId("run-status").filter({hasText: "done"}).waitFor({timeout: 30_000});
    };
    const chipTexts = () => page.getByTestId("token-chip").evaluateAll((chips) => chips.map((chip) => chip.firstChild?.textContent ?? ""));

    before(async () => {
        ensureRendererBuilt();
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
        page = await (await browser.newContext({viewport: {width: 1440, height: 900}, colorScheme: "dark"})).newPage();
        page.on("pageerror", (error) => pageErrors.push(error.message));
        await page.goto(gateway.url);
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
    });

    test("completions: scored tokens are shaded, hover and focus show alternatives, the summary has perplexity", async () => {
        await page.getByTestId("nav-completions").click();
        await page.getByTestId("completions-prompt").fill("Once upon a time");
        await setParam("temperature", "0");
        await setParam("max_tokens", "12");
        await run();
        await expectCount(page.getByTestId("token-probabilities"), 0);

        await setParam("logprobs", "3");
        await run();
        await expectCount(page.getByTestId("token-chip"), 12);
        assert.match(await page.getByTestId("token-summary").textContent() ?? "", /12 tokens · total log-prob -?\d+\.\d+ · perplexity \d+\.\d+/);
        const first = page.getByTestId("token-chip").first();
        await first.hover();
        const popover = first.getByTestId("token-popover");
        await popover.waitFor({state: "visible"});
        assert.match(await popover.textContent() ?? "", /\d+\.\d%/);
        await screenshot(page, "probabilities-completions");
        await page.mouse.move(0, 0);
        await page.getByTestId("token-chip").nth(1).focus();
        await page.getByTestId("token-chip").nth(1).getByTestId("token-popover").waitFor({state: "visible"});
    });

    test("a logit_bias edit in the parameters panel changes the output", async () => {
        const before = await chipTexts();
        await setParam("logit_bias", "7: 100");
        await run();
        const forced = await chipTexts();
        assert.notDeepEqual(forced, before);
        assert.equal(new Set(forced).size, 1, `+100 forces one token throughout, got ${JSON.stringify(forced)}`);
        await screenshot(page, "probabilities-logit-bias");
        await setParam("logit_bias", "7: x");
        await page.getByTestId("param-logit_bias-warning").waitFor();
        await setParam("logit_bias", "");
    });

    test("the token id readout shows each alternative's id, and its ban button fills logit_bias", async () => {
        await run();
        const first = page.getByTestId("token-chip").first();
        const firstText = (await chipTexts())[0];
        await first.hover();
        const chosen = first.getByTestId("token-alternative").first();
        await chosen.waitFor({state: "visible"});
        // Greedy decoding: the first alternative is the token chosen, so banning it must change the first token.
        const id = /^#(\d+)$/.exec(await chosen.getByTestId("token-id").textContent() ?? "")?.[1];
        assert.ok(id != null, "the alternative shows its token id");
        await expectText(first.getByTestId("token-popover").getByTestId("token-id").first(), `#${id}`);
        await screenshot(page, "probabilities-token-ids");
        await chosen.getByTestId("token-bias-ban").click();
        await eventually(async () => assert.equal(await page.getByTestId("param-logit_bias").inputValue(), `${id}: -100`));
        await run();
        await eventually(async () => assert.notEqual((await chipTexts())[0], firstText, "the banned token is no longer chosen first"));
        await setParam("logit_bias", "");
    });

    test("completions: Score this text shades the prompt's own tokens and generates nothing", async () => {
        const prompt = "Once upon a time there was";
        await page.getByTestId("completions-prompt").fill(prompt);
        await page.getByTestId("score-text-button").click();
        await page.getByTestId("run-status").filter({hasText: "done"}).waitFor({timeout: 30_000});
        await expectText(page.getByTestId("completions-reply").locator("h3"), "Prompt scores");
        await expectText(page.getByTestId("completion-text"), prompt);
        // The chips spell the prompt (spaces shown as ·); only the first, with nothing before it, is unshaded.
        await eventually(async () => assert.equal((await chipTexts()).join("").replace(/·/g, " ").trim(), prompt));
        const shades = await page.getByTestId("token-chip").evaluateAll((chips) => chips.map((chip) => (chip as HTMLElement).style.backgroundColor));
        assert.equal(shades[0], "");
        assert.ok(shades.slice(1).every((shade) => shade.startsWith("rgba(80, 160, 255")), JSON.stringify(shades));
        await page.getByTestId("token-chip").nth(1).hover();
        await screenshot(page, "probabilities-score-text");
        await page.mouse.move(0, 0);
    });

    test("Responses: the include logprobs switch shows the output text's tokens", async () => {
        await page.getByTestId("nav-responses").click();
        await setParam("temperature", "0");
        await setParam("max_output_tokens", "6");
        await run();
        await expectCount(page.getByTestId("token-probabilities"), 0);
        await page.getByTestId("param-logprobs").getByRole("radio", {name: "true"}).click();
        await setParam("top_logprobs", "3");
        await run();
        await expectCount(page.getByTestId("token-chip"), 6);
        await page.getByTestId("token-chip").last().focus();
        assert.match(await page.getByTestId("token-chip").last().getByTestId("token-popover").textContent() ?? "", /%/);
        // Responses scores carry no token ids (the extension is chat's and legacy completions'), so no readout shows.
        await expectCount(page.getByTestId("token-id"), 0);
        await screenshot(page, "probabilities-responses");
    });

    test("chat: logprobs with top_logprobs show the token view under the reply", async () => {
        await page.getByTestId("nav-chat").click();
        await setParam("temperature", "0");
        await setParam("max_tokens", "8");
        await page.getByTestId("param-logprobs").getByRole("radio", {name: "true"}).click();
        await setParam("top_logprobs", "5");
        await run();
        await expectCount(page.getByTestId("token-chip"), 8);
        await page.getByTestId("token-chip").first().hover();
        assert.match(await page.getByTestId("token-chip").first().getByTestId("token-popover").textContent() ?? "", /%/);
        await screenshot(page, "probabilities-chat");
        assert.deepEqual(pageErrors, []);
    });
});
