// The app with the keyboard alone, against the real gateway and engine in Chromium: tabs as the ARIA tabs pattern has
// them (one tab stop; Left, Right, Home and End move and select; each tab controls the panel it labels), the token view
// as one tab stop with arrow keys inside and popovers opened by Enter or Space, and the focus landing somewhere sensible
// when what had it goes away (a removed question or choice, an answered dialog, a revoked key) or an action makes a
// field to type in (a new question, a new choice).
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Locator, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {newAppPage} from "./utils/appPage.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {openQuestionSetFile} from "./utils/scoringPage.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

describe("the keyboard: tabs, the token view and where the focus goes", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    let scratch: string;
    let dataHome: string;
    const pageErrors: string[] = [];

    /** Whether `locator` has the keyboard focus. */
    const hasFocus = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
    const assertFocus = async (locator: Locator, what: string) =>
        eventually(async () => assert.ok(await hasFocus(locator), `${what} has the focus, not ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 160))}`));
    /** The tabindex of each tab of the tab list `testId`. */
    const tabIndexes = (testId: string) => page.getByTestId(testId).getByRole("tab").evaluateAll((tabs) => tabs.map((tab) => (tab as HTMLElement).tabIndex));

    before(async () => {
        ensureRendererBuilt();
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-ui-keyboard-"));
        // The workspace test at the end switches the engine into workspace mode: a data folder of its own keeps that here.
        dataHome = await mkdtemp(path.join(os.tmpdir(), "svc-ui-keyboard-home-"));
        gateway = await startWebGateway({model: await ensureTinyGguf(), env: {XDG_DATA_HOME: dataHome}});
        browser = await launchChromium();
        page = await newAppPage(browser, pageErrors);
        await page.goto(gateway.url);
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await rm(scratch, {recursive: true, force: true});
        await rm(dataHome, {recursive: true, force: true});
    });

    test("tabs: one tab stop; Left, Right, Home and End move and select; every tab controls the panel, which the active one labels", async () => {
        await page.getByTestId("nav-decisions").click();
        await page.getByTestId("studio-tab-build").click();
        const build = page.getByTestId("studio-tab-build");
        const compare = page.getByTestId("studio-tab-compare");
        await assertFocus(build, "the clicked tab");
        assert.deepEqual(await tabIndexes("studio-tab"), [0, -1], "only the active tab is in the tab order");
        const panelId = await build.getAttribute("aria-controls");
        assert.ok(panelId, "the tab names the panel it controls");
        assert.equal(await compare.getAttribute("aria-controls"), panelId, "both tabs control the one panel");
        const panel = page.locator(`[id="${panelId}"]`);
        assert.equal(await panel.getAttribute("role"), "tabpanel");
        assert.equal(await panel.getAttribute("aria-labelledby"), await build.getAttribute("id"));

        await page.keyboard.press("ArrowRight");
        await assertFocus(compare, "Compare, after Right");
        assert.equal(await compare.getAttribute("aria-selected"), "true");
        assert.deepEqual(await tabIndexes("studio-tab"), [-1, 0]);
        await panel.getByTestId("compare-panel").waitFor();
        assert.equal(await panel.getAttribute("aria-labelledby"), await compare.getAttribute("id"));
        await page.keyboard.press("ArrowRight");
        await assertFocus(build, "Build & run, after Right from the last tab (it wraps)");
        assert.equal(await build.getAttribute("aria-selected"), "true");
        await page.keyboard.press("ArrowLeft");
        await assertFocus(compare, "Compare, after Left from the first tab (it wraps)");
        await page.keyboard.press("Home");
        await assertFocus(build, "Build & run, after Home");
        await page.keyboard.press("End");
        await assertFocus(compare, "Compare, after End");
        assert.equal(await compare.getAttribute("aria-selected"), "true");
        // Tab leaves the tab list for the panel: the other tab is no stop on the way.
        await page.keyboard.press("Tab");
        assert.equal(await page.evaluate((id) => document.activeElement?.closest("[role=tabpanel]")?.id === id && document.activeElement.getAttribute("role") !== "tab", panelId), true,
            "Tab goes from the active tab into its panel");
        await page.keyboard.press("Shift+Tab");
        await assertFocus(compare, "the active tab, after Shift+Tab from the panel");
        await page.keyboard.press("Home");

        await page.getByTestId("nav-experiments").click();
        await page.getByTestId("exp-tabs-setup").click();
        assert.deepEqual(await tabIndexes("exp-tabs"), [0, -1, -1]);
        await page.keyboard.press("End");
        await assertFocus(page.getByTestId("exp-tabs-history"), "History, after End");
        assert.equal(await page.getByTestId("exp-tabs-history").getAttribute("aria-selected"), "true");
        assert.deepEqual(await tabIndexes("exp-tabs"), [-1, -1, 0]);
        await page.keyboard.press("ArrowLeft");
        await assertFocus(page.getByTestId("exp-tabs-results"), "Results, after Left");
        assert.equal(await page.getByTestId("exp-tabs-results").getAttribute("aria-selected"), "true");
        await page.keyboard.press("Home");
        await assertFocus(page.getByTestId("exp-tabs-setup"), "Setup, after Home");
        await page.getByTestId("exp-dataset").waitFor();
    });

    test("the token view is one tab stop: arrow keys move along it, Enter or Space opens a token's alternatives, its buttons are named after their token", async () => {
        await page.getByTestId("nav-completions").click();
        // Greedy decoding of this prompt runs to max_tokens (no end of text before it).
        await page.getByTestId("completions-prompt").fill("Once upon a time there was");
        await page.getByTestId("param-temperature").fill("0");
        await page.getByTestId("param-max_tokens").fill("26");
        await page.getByTestId("param-logprobs").fill("5");
        await page.getByTestId("run-button").click();
        await page.getByTestId("run-status").filter({hasText: "done"}).waitFor({timeout: 30_000});
        const chips = page.getByTestId("token-chip");
        await expectCount(chips, 26);

        // From Run, Tab through the page: the strip takes one press to get past, however many tokens it has.
        await page.getByTestId("run-button").focus();
        let inside = 0;
        let past = false;
        for (let presses = 0; presses < 600 && !past; presses++) {
            await page.keyboard.press("Tab");
            const where = await page.evaluate(() => {
                const strip = document.querySelector("[data-testid=token-probabilities]")!;
                const focused = document.activeElement!;
                if (strip.contains(focused)) return "inside";
                return strip.compareDocumentPosition(focused) & Node.DOCUMENT_POSITION_FOLLOWING ? "after" : "before";
            });
            if (where === "inside") {
                inside++;
                // Focus alone opens nothing.
                if (inside === 1) assert.equal(await chips.first().getByTestId("token-popover").isVisible(), false, "a focused token's popover stays closed");
            }
            past = where === "after" || (where === "before" && inside > 0);
        }
        assert.equal(inside, 1, "one Tab press gets past the 26 tokens");

        const chipText = (index: number) => chips.nth(index).getByRole("button").first();
        await chipText(0).focus();
        await page.keyboard.press("ArrowRight");
        await assertFocus(chipText(1), "the second token, after Right");
        const tabStops = await chips.evaluateAll((elements) => elements.filter((chip) => chip.querySelector<HTMLElement>("[role=button]")!.tabIndex === 0).length);
        assert.equal(tabStops, 1, "one token is in the tab order");
        await page.keyboard.press("End");
        await assertFocus(chipText(25), "the last token, after End");
        await page.keyboard.press("ArrowLeft");
        await assertFocus(chipText(24), "the one before, after Left");
        await page.keyboard.press("Home");
        await assertFocus(chipText(0), "the first token, after Home");
        const popover = chips.first().getByTestId("token-popover");
        assert.equal(await popover.isVisible(), false);
        assert.equal(await chipText(0).getAttribute("aria-expanded"), "false");

        await page.keyboard.press("Enter");
        await popover.waitFor({state: "visible"});
        assert.equal(await chipText(0).getAttribute("aria-expanded"), "true");
        // The ban and favour buttons are named after the alternative they are for.
        const alternatives = await popover.getByTestId("token-alternative").evaluateAll((rows) => rows.map((row) => (row.firstElementChild!.textContent ?? "")
            .replace(/·/g, " ").replace(/↵/g, "\n").replace(/⇥/g, "\t")));
        const names = await popover.getByRole("button").evaluateAll((buttons) => buttons.map((button) => button.getAttribute("aria-label")));
        assert.deepEqual(names, alternatives.flatMap((token) => [`Ban “${JSON.stringify(token).slice(1, -1)}”`, `Favour “${JSON.stringify(token).slice(1, -1)}”`]));
        assert.equal(alternatives.length, 5);
        await page.keyboard.press("Tab");
        await assertFocus(popover.getByRole("button").first(), "the first alternative's Ban, after Tab in the open popover");
        await screenshot(page, "keyboard-token-popover");
        await page.keyboard.press("Escape");
        await popover.waitFor({state: "hidden"});
        await assertFocus(chipText(0), "the token, after Escape");
        await page.keyboard.press(" ");
        await popover.waitFor({state: "visible"});
        await page.keyboard.press("ArrowRight");
        await popover.waitFor({state: "hidden"});
        assert.equal(await chips.nth(1).getByTestId("token-popover").isVisible(), false, "moving on opens nothing");
    });

    test("the focus lands on something to use after a question or choice is removed, a question or choice is added, or the unsaved-changes question is answered", async () => {
        await openQuestionSetFile(page, scratch, "focus.questions.json", {
            format: "decisions", name: "Focus", questions: [
                {type: "predicate", name: "first", instructions: "Is it the first?"},
                {type: "predicate", name: "second", instructions: "Is it the second?"},
                {type: "predicate", name: "third", instructions: "Is it the third?"}
            ]
        });
        await page.getByTestId("studio-tab-build").click();
        const cards = page.getByTestId("question-card");
        await expectCount(cards, 3);

        // Removing a card gives the focus to the Remove of the card that takes its place, or of the one before at the end.
        await cards.nth(1).getByTestId("q-remove").focus();
        await page.keyboard.press("Enter");
        await expectCount(cards, 2);
        await assertFocus(cards.nth(1).getByTestId("q-remove"), "the Remove of the card after the removed one");
        assert.equal(await cards.nth(1).getByTestId("q-name").inputValue(), "third");
        await page.keyboard.press("Enter");
        await expectCount(cards, 1);
        await assertFocus(cards.nth(0).getByTestId("q-remove"), "the Remove of the card before, the last one removed");

        // A new question's name field has the focus, its default selected: typing names it.
        await page.getByTestId("add-choice").focus();
        await page.keyboard.press("Enter");
        await expectCount(cards, 2);
        await assertFocus(cards.nth(1).getByTestId("q-name"), "the new question's name");
        await page.keyboard.type("topic");
        assert.equal(await cards.nth(1).getByTestId("q-name").inputValue(), "topic");

        // "+ Add choice" gives the focus to the new choice's value: typing goes there.
        const choices = cards.nth(1).getByTestId("choice-row");
        const before = await choices.count();
        await cards.nth(1).getByTestId("choice-add").focus();
        await page.keyboard.press("Enter");
        await expectCount(choices, before + 1);
        await assertFocus(choices.last().getByTestId("choice-value"), "the new choice's value");
        await page.keyboard.type("delivery");
        assert.equal(await choices.last().getByTestId("choice-value").inputValue(), "delivery");
        // Removing a choice: the focus goes to the Remove of the choice that takes its place.
        await choices.nth(0).getByTestId("choice-remove").focus();
        await page.keyboard.press("Enter");
        await expectCount(choices, before);
        await assertFocus(choices.nth(0).getByTestId("choice-remove"), "the Remove of the choice after the removed one");

        // The set has unsaved edits: New asks first, and Escape gives the focus back to New.
        await page.getByTestId("qs-new").focus();
        await page.keyboard.press("Enter");
        const dialog = page.getByTestId("replace-set-dialog");
        await dialog.waitFor();
        await assertFocus(page.getByTestId("replace-set-cancel"), "the dialog's safe answer");
        await page.keyboard.press("Escape");
        await dialog.waitFor({state: "detached"});
        await assertFocus(page.getByTestId("qs-new"), "New, after Escape on the dialog");
        await expectCount(cards, 2);
        // So does Cancel.
        await page.keyboard.press("Enter");
        await dialog.waitFor();
        await page.keyboard.press("Enter");
        await dialog.waitFor({state: "detached"});
        await assertFocus(page.getByTestId("qs-new"), "New, after Cancel");
    });

    test("Revoke's confirmation takes the focus; Escape gives it back to Revoke; once revoked, the line that says so has it", async () => {
        await page.getByTestId("nav-workspace").click();
        // The two forms' Add buttons say what each adds.
        await page.getByTestId("organization-name").fill("Acme");
        await page.getByRole("button", {name: "Add organization", exact: true}).click();
        await page.getByTestId("workspace-name").fill("Research");
        await page.getByRole("button", {name: "Add workspace", exact: true}).click();
        await page.getByTestId("key-name").fill("ci");
        await page.getByTestId("key-create").click();
        await page.getByTestId("secret-close").click();
        await expectCount(page.getByTestId("secret-dialog"), 0);
        const row = page.locator("[data-testid=key-row][data-key-name=ci]");
        const confirmation = page.locator("[data-testid=key-confirm][data-key-name=ci]");

        await row.getByTestId("key-revoke").focus();
        await page.keyboard.press("Enter");
        await confirmation.waitFor();
        await assertFocus(confirmation.getByTestId("key-confirm-cancel"), "the confirmation's answer that keeps the key");
        await page.keyboard.press("Escape");
        await confirmation.waitFor({state: "detached"});
        await assertFocus(row.getByTestId("key-revoke"), "Revoke, after Escape");

        await page.keyboard.press("Enter");
        await confirmation.waitFor();
        await page.keyboard.press("Shift+Tab");
        await assertFocus(confirmation.getByTestId("key-revoke-confirm"), "Revoke now");
        await page.keyboard.press("Enter");
        await expectText(row.getByTestId("key-state"), "revoked");
        await assertFocus(page.getByTestId("key-done"), "the line that says the key was revoked");
        await expectText(page.getByTestId("key-done"), "Revoked “ci”: every request that sends it is refused from now on.");
        await screenshot(page, "keyboard-key-revoked");
        // Chromium logs every refused fetch: with a workspace and no key chosen, the engine refuses the app's own requests.
        assert.deepEqual(pageErrors.filter((error) => !/^Failed to load resource: the server responded with a status of 401/.test(error)), []);
    });
});
