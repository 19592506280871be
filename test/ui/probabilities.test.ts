// The playgrounds' probabilities view against the real gateway and engine, driven in Chromium: in the
// completions, Responses and chat playgrounds the token view appears when logprobs are asked for, a token's alternatives show on hover and on Enter, and a
// logit_bias entry in the parameters panel changes the output; the token id readout fills logit_bias, and "Score this
// text" shades the prompt's own tokens. Screenshots go to test-artifacts/ui.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync} from "node:fs";
import {createRequire} from "node:module";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {screenshot} from "./utils/screenshot.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's colour-contrast violations inside `selector`, as it is shown now (popovers open included). */
async function contrastViolations(page: Page, selector: string): Promise<string[]> {
    // Evaluated, not added as a <script>: the app's Content-Security-Policy refuses inline scripts.
    if (!await page.evaluate(() => "axe" in window)) await page.evaluate(axeSource);
    return page.evaluate(async (context) => {
        type AxeResult = {violations: Array<{nodes: Array<{target: string[], failureSummary: string}>}>};
        const axe = (window as unknown as {axe: {run(context: string, options: object): Promise<AxeResult>}}).axe;
        const result = await axe.run(context, {runOnly: {type: "rule", values: ["color-contrast"]}, resultTypes: ["violations"]});
        return result.violations.flatMap((violation) => violation.nodes.map((node) => `${node.target.join(" ")}: ${node.failureSummary}`));
    }, selector);
}

/** Each text of `element` with its contrast ratio (WCAG 2) against the element's own background, from computed styles. */
const textContrasts = (element: Element): Array<[string, number]> => {
    const luminance = (color: string) => {
        const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((value) => {
            const channel = Number(value) / 255;
            return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const background = luminance(getComputedStyle(element).backgroundColor);
    const texts = [element, ...element.querySelectorAll("*")].filter((node) => [...node.childNodes].some((child) => child.nodeType === 3 && child.textContent!.trim() !== ""));
    return texts.map((node) => {
        const text = luminance(getComputedStyle(node).color);
        return [node.textContent!.trim().slice(0, 20), (Math.max(text, background) + 0.05) / (Math.min(text, background) + 0.05)];
    });
};

describe("probabilities view in the playgrounds", {skip: noChromium ?? false, timeout: 240_000}, () => {
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

    test("completions: scored tokens are shaded, hover and Enter show alternatives, the summary has perplexity", async () => {
        await page.getByTestId("nav-completions").click();
        await page.getByTestId("completions-prompt").fill("Once upon a time");
        await setParam("temperature", "0");
        await setParam("max_tokens", "12");
        await run();
        await expectCount(page.getByTestId("token-probabilities"), 0);

        await setParam("logprobs", "3");
        await run();
        await expectCount(page.getByTestId("token-chip"), 12);
        assert.match(await page.getByTestId("token-summary").textContent() ?? "", /12 tokens scored · total log-prob -?\d+\.\d+ · perplexity \d+\.\d+/);
        const first = page.getByTestId("token-chip").first();
        await first.hover();
        const popover = first.getByTestId("token-popover");
        await popover.waitFor({state: "visible"});
        assert.match(await popover.textContent() ?? "", /\d+\.\d%/);
        await screenshot(page, "probabilities-completions");
        await page.mouse.move(0, 0);
        // The keyboard opens a token's alternatives with Enter (focus alone does not: keyboard.test.ts).
        await page.getByTestId("token-chip").nth(1).getByRole("button").first().focus();
        await page.keyboard.press("Enter");
        await page.getByTestId("token-chip").nth(1).getByTestId("token-popover").waitFor({state: "visible"});
        await page.keyboard.press("Escape");
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
        // Nothing was generated: no finish_reason (the request's "length" is its budget of 0), and the screen says what the scores are.
        await expectCount(page.getByTestId("completion-finish-reason"), 0);
        await expectText(page.getByTestId("score-note"), /nothing is generated/);
        // Its counts are said on screen, not only on hover: the prompt's chips, how many are scored, and prompt_tokens.
        await expectText(page.getByTestId("token-usage-note"), /^\d+ tokens of the prompt, \d+ scored \(the first has nothing before it to score against\)/);
        await expectText(page.getByTestId("completion-text"), prompt);
        // The chips spell the prompt (spaces shown as ·); only the first, with nothing before it, is unshaded.
        await eventually(async () => assert.equal((await chipTexts()).join("").replace(/·/g, " ").trim(), prompt));
        const shades = await page.getByTestId("token-chip").evaluateAll((chips) => chips.map((chip) => [chip.classList.contains("scored"), getComputedStyle(chip).backgroundColor]));
        assert.deepEqual(shades[0], [false, "rgba(0, 0, 0, 0)"]);
        assert.ok(shades.slice(1).every(([scored, shade]) => scored && /^rgba\(56, 110, 220, 0\.\d+\)$/.test(shade as string)), JSON.stringify(shades));
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
        // Usage and the view agree here: every output token is in the scored text.
        await expectCount(page.getByTestId("token-usage-note"), 0);
        // A scored stream arrives at once, when every token is scored: its arrival times no generation, and it says so.
        await expectText(page.getByTestId("stat-rate"), "tokens/snot measurable");
        assert.match(await page.getByTestId("stat-rate").getAttribute("title") ?? "", /^Token scores were asked for/);
        await screenshot(page, "probabilities-chat");
    });

    test("chat: the view names the output tokens usage counts beyond the scored text (a stop sequence)", async () => {
        // The tokens of the greedy reply, as text; a stop sequence of two of them ends the next reply before them.
        const tokens = (await chipTexts()).map((text) => text.replace(/·/g, " ").replace(/↵/g, "\n"));
        const text = tokens.join("");
        const at = tokens.findIndex((_, index) => index >= 2 && index + 1 < tokens.length
            && text.indexOf(tokens[index] + tokens[index + 1]) === tokens.slice(0, index).join("").length);
        assert.ok(at > 0, `two tokens that first occur where they stand: ${JSON.stringify(tokens)}`);
        await page.getByTestId("param-stop").fill((tokens[at] + tokens[at + 1]).replace(/\n/g, "\\n"));
        await page.getByTestId("param-stop").press("Enter");
        await run();
        await expectText(page.getByTestId("finish-reason"), "finish_reason: stop");
        const scored = await page.getByTestId("token-chip").count();
        const usage = Number(/completion_tokens(\d+)/.exec(await page.getByTestId("usage").textContent() ?? "")?.[1]);
        assert.equal(scored, at, "the tokens before the stop sequence are scored");
        assert.ok(usage > scored, `completion_tokens ${usage} counts the stop sequence's tokens too`);
        await expectText(page.getByTestId("token-count"), `${scored} tokens scored`);
        await expectText(page.getByTestId("token-usage-note"), `completion_tokens is ${usage}: it also counts ${usage - scored} output token${usage - scored === 1 ? "" : "s"} ` +
            "not in the scored text (a stop sequence, the end-of-turn token, reasoning or a regenerated attempt)");
        await screenshot(page, "probabilities-chat-stop");
        await page.getByRole("button", {name: /^Remove stop/}).click();
        await run();
    });

    test("the token popover reads at WCAG AA contrast in both themes, stays in view, and the top bar keeps the endpoint on one line", async () => {
        const themeNow = () => page.evaluate(() => document.documentElement.dataset.theme);
        for (const [width, height] of [[1024, 768], [1440, 900]]) for (const theme of ["light", "dark"]) {
            await page.setViewportSize({width, height});
            if (await themeNow() !== theme) await page.getByTestId("theme-toggle").click();
            await eventually(async () => assert.equal(await themeNow(), theme));
            const where = `${width}x${height} ${theme}`;
            // The last chip: its popover has the least room to the right and below.
            const chip = page.getByTestId("token-chip").last();
            await chip.scrollIntoViewIfNeeded();
            await chip.hover();
            const popover = chip.getByTestId("token-popover");
            await popover.waitFor({state: "visible"});
            assert.deepEqual(await contrastViolations(page, "[data-testid=token-probabilities]"), [], `axe colour contrast, ${where}`);
            // tsx keeps function names through a `__name` helper, which the page needs too.
            await page.evaluate("globalThis.__name ??= (target) => target");
            const ratios = await popover.evaluate(textContrasts);
            assert.ok(ratios.length > 0 && ratios.every(([, ratio]) => ratio >= 4.5), `${where}: ${JSON.stringify(ratios)}`);
            const inView = await popover.evaluate((element) => {
                const box = element.getBoundingClientRect();
                const column = element.closest(".workspace")!.getBoundingClientRect();
                return box.left >= column.left && box.right <= column.right && box.top >= column.top && box.bottom <= column.bottom;
            });
            assert.ok(inView, `the popover stays inside the reply column, ${where}`);
            const endpoint = page.locator(".topbar-endpoint");
            assert.equal(await endpoint.textContent(), "POST /svc-1/v1/chat/completions");
            assert.ok(await endpoint.evaluate((element) => element.getClientRects().length === 1 && element.scrollWidth <= element.clientWidth + 1),
                `the endpoint is one line, not cut, ${where}`);
            await screenshot(page, `probabilities-popover-${width}x${height}-${theme}`);
            await page.mouse.move(0, 0);
        }
        assert.deepEqual(pageErrors, []);
    });
});
