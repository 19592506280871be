// The chat side of experiments against the real gateway and engine in Chromium: two versions of a chat prompt with
// {{variables}} over a small dataset, checks against a column and a regex, a decision-question grader of each reply;
// then the Decision studio's Compare opened as an experiment over a one-row dataset. Light and dark, 1440x900.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {newAppPage} from "./utils/appPage.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {cutOffControls} from "./utils/layoutChecks.ts";
import {openQuestionSetFile} from "./utils/scoringPage.ts";
import {screenshot} from "./utils/screenshot.ts";
import {datasetAndTopicWriter} from "./utils/topicWriter.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const csvText = "topic,expected\ncats,cat\ndogs,dog\nbirds,bird\nfish,fish\ntrees,tree\nrain,rain\n";

describe("Experiments: a chat prompt with variables, checks and a grader", {skip: noChromium ?? false, timeout: 240_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    let scratch: string;
    const pageErrors: string[] = [];

    before(async () => {
        ensureRendererBuilt();
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-studio-experiments-chat-"));
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
        page = await newAppPage(browser, pageErrors, {viewport: {width: 1440, height: 900}, colorScheme: "dark"});
        await page.goto(gateway.url);
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await rm(scratch, {recursive: true, force: true});
    });

    test("a dataset and two versions of a chat prompt that names its columns", async () => {
        await datasetAndTopicWriter(page, scratch, "topics.csv", csvText);
    });

    test("checks and a grader: a template without {{reply}} is refused before anything is sent", async () => {
        await page.getByTestId("nav-experiments").click();
        await page.getByTestId("exp-tabs-setup").click();
        await page.getByTestId("exp-dataset").selectOption({label: "topics (6 rows)"});
        const variants = page.getByTestId("exp-variant");
        for (const [index, version] of ["1", "2"].entries()) {
            await variants.nth(index).getByTestId("exp-variant-item").selectOption({label: "Topic writer (Chat)"});
            await variants.nth(index).getByTestId("exp-variant-version").selectOption(version);
        }
        await page.getByTestId("exp-add-check").click();
        await page.getByTestId("exp-check").nth(0).getByTestId("exp-check-kind").selectOption("contains");
        // A new check starts on the dataset's label column, the expected value.
        assert.equal(await page.getByTestId("exp-check").nth(0).getByTestId("exp-check-column").inputValue(), "expected");
        await page.getByTestId("exp-add-check").click();
        await page.getByTestId("exp-check").nth(1).getByTestId("exp-check-kind").selectOption("regex");
        await page.getByTestId("exp-check").nth(1).getByTestId("exp-check-pattern").fill("\\w+");
        await page.getByTestId("exp-grader-enabled").check();
        await page.getByTestId("exp-grader-template").fill("Topic: {{topic}}");
        await expectText(page.getByTestId("exp-problems"), /reply/);
        assert.equal(await page.getByTestId("exp-run").isDisabled(), true);
        await page.getByTestId("exp-grader-template").fill("Topic: {{topic}}\nReply: {{reply}}");
        await expectCount(page.getByTestId("exp-problems"), 0);
        // 12 cells and a grader request on each.
        await expectText(page.getByTestId("exp-estimate-requests"), "24");
        await screenshot(page, "experiments/chat-setup-1440-dark");
        assert.deepEqual(await cutOffControls(page), []);
    });

    test("the run fills the matrix with the pass rate and each check; a row's detail shows its checks", async () => {
        await page.getByTestId("exp-run").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 90_000});
        await expectText(page.getByTestId("exp-done"), "12 / 12");
        await eventually(async () => {
            const metrics = await page.getByTestId("exp-matrix-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-metric")));
            assert.ok(metrics.includes("pass_rate"), metrics.join(", "));
            assert.ok(metrics.some((metric) => metric?.startsWith("pass:")), metrics.join(", "));
        });
        await expectCount(page.getByTestId("exp-usage-row"), 2);
        const rows = page.getByTestId("exp-disagreement");
        if (await rows.count() > 0) {
            await rows.first().getByTestId("exp-open-row").click();
            const detail = page.getByTestId("exp-row-detail");
            await expectCount(detail.getByTestId("exp-detail-variant"), 2);
            assert.match(await detail.getByTestId("exp-detail-request").first().textContent() ?? "", /Tell me about \w+\./);
            await expectCount(detail.getByTestId("exp-detail-checks").first().locator("li"), 3);
            await detail.locator("details").first().locator("summary").click();
            await detail.scrollIntoViewIfNeeded();
            await screenshot(page, "experiments/chat-row-detail-1440-dark");
        }
        await screenshot(page, "experiments/chat-results-1440-dark");
        await page.getByTestId("theme-toggle").click();
        await screenshot(page, "experiments/chat-results-1440-light");
        assert.deepEqual(await cutOffControls(page), []);
    });

    test("two local models as variants: the engine loads the second variant's model before its rows run", async () => {
        await page.getByTestId("exp-tabs-setup").click();
        const second = page.getByTestId("exp-variant").nth(1);
        // The library lists the built-in model beside its own: the model field offers it.
        await eventually(async () => {
            const offered = await second.locator("datalist option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
            assert.ok(offered.includes("stories260K"), offered.join(", "));
        });
        await second.getByTestId("exp-variant-model").fill("stories260K");
        await page.getByTestId("exp-run").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 120_000});
        await expectText(page.getByTestId("exp-done"), "12 / 12");
        await page.getByTestId("nav-engine").click();
        await expectText(page.locator("main[data-screen=engine]"), /stories260K/);
    });

    test("the Decision studio's Compare opens as an experiment over a one-row dataset", async () => {
        await openQuestionSetFile(page, scratch, "tone.questions.json", {format: "decisions", name: "Tone", questions: [{type: "predicate", name: "polite", instructions: "Is the text polite?"}]});
        await page.getByTestId("input-text").fill("Thanks a lot for your help!");
        await page.getByTestId("studio-tab-compare").click();
        await page.getByTestId("variant-copy").click();
        await page.getByTestId("compare-open-experiment").click();
        await page.locator("main[data-screen=experiments]").waitFor();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 60_000});
        await expectText(page.getByTestId("exp-done"), "2 / 2");
        assert.deepEqual(pageErrors, []);
    });
});
