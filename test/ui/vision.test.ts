// Images on the local engine, from a user's side: the app's engine runs the tiny vision fixture (a model
// with its projector beside it, found by `serve --model`), so an image attached in the chat and Responses playgrounds
// and in the decision studio is read locally; the Engine and Models screens say the loaded model can see. A copy of
// the model without its projector, loaded from the library, cannot: the page says so before anything is sent.
// The model has random weights: the tests check that images reach it (their tokens count as input), never the words.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {copyFile, mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Locator, Page} from "playwright-core";
import type {GatewayState} from "../../protocol/gateway/contract.ts";
import {ensureTinyVisionGguf} from "../fixtures/gguf/ensureTinyVisionGguf.ts";
import {tinyMmprojImageTokens} from "../fixtures/gguf/buildTinyMmproj.ts";
import {checkerboardPng, gradientPng} from "../fixtures/images/encodePng.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {gatewayApi} from "./utils/gatewayApi.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const visionModel = "tiny-vision.gguf";
const projector = "mmproj-tiny-vision.gguf";
/** The same model under a name no projector pairs with: a model that cannot see. */
const blindModel = "tiny-blind.gguf";

describe("images on the local engine", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let dir: string;
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    const gradient = {name: "gradient.png", mimeType: "image/png", buffer: Buffer.from(gradientPng())};
    const checkerboard = {name: "checkerboard.png", mimeType: "image/png", buffer: Buffer.from(checkerboardPng())};
    const runStatus = () => page.getByTestId("run-status");
    /** A number the run's usage line shows, e.g. `prompt_tokens`. */
    const usageFigure = async (scope: Locator, key: string) =>
        Number(await scope.locator(".stat", {has: page.locator(".stat-label", {hasText: new RegExp(`^${key}$`)})}).locator(".stat-value").textContent());

    before(async () => {
        ensureRendererBuilt();
        const fixture = await ensureTinyVisionGguf();
        // A library of its own: the pair as a download leaves it, and the blind copy.
        dir = await mkdtemp(path.join(os.tmpdir(), "svc-vision-ui-"));
        await copyFile(fixture.modelPath, path.join(dir, visionModel));
        await copyFile(fixture.mmprojPath, path.join(dir, projector));
        await copyFile(fixture.modelPath, path.join(dir, blindModel));
        gateway = await startWebGateway({model: path.join(dir, visionModel), env: {SVC_STUDIO_MODELS_DIR: dir}});
        browser = await launchChromium();
        page = await browser.newPage({viewport: {width: 1440, height: 900}, colorScheme: "dark"});
        page.on("pageerror", (error) => pageErrors.push(error.message));
        // Chromium logs every non-2xx fetch: the blind model's 400 is the one the last test provokes.
        page.on("console", (message) => {
            if (message.type() === "error" && !/^Failed to load resource: the server responded with a status of 400/.test(message.text())) pageErrors.push(message.text());
        });
        await page.goto(gateway.url);
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        if (dir) await rm(dir, {recursive: true, force: true});
    });

    test("the Engine screen says the loaded model reads images, with its projector", async () => {
        await page.getByTestId("nav-engine-status").click();
        await page.getByTestId("engine-status").filter({hasText: "running"}).waitFor({timeout: 60_000});
        await expectText(page.getByTestId("engine-images"), `vision ${projector}`);
        const {engine} = await gatewayApi<GatewayState>(page, "/state");
        assert.equal(engine.mmproj, path.join(dir, projector));
        await screenshot(page, "vision-engine");
    });

    test("the Models screen: the loaded vision model and its projector, the pair in the library", async () => {
        await page.getByTestId("nav-models").click();
        await expectText(page.getByTestId("models-engine-vision"), `vision ${projector}`);
        const row = page.getByTestId(`model-row-${visionModel}`);
        await row.getByTestId("loaded-marker").waitFor();
        assert.equal(await row.getByTestId("cap-vision").getAttribute("data-on"), "true");
        assert.equal(await page.getByTestId(`model-row-${blindModel}`).getByTestId("cap-vision").getAttribute("data-on"), "false");
        await screenshot(page, "vision-models");
    });

    test("chat: an attached PNG is read by the local model; its tokens count as input", async () => {
        await page.getByTestId("nav-chat").click();
        await page.getByTestId("param-max_tokens").fill("4");
        await page.getByTestId("param-temperature").fill("0");
        const note = page.getByTestId("image-support");
        await expectCount(note, 0);
        await page.getByTestId("message-content").first().fill("What is in this picture?");
        await page.getByTestId("attach-image-input").first().setInputFiles([gradient]);
        await expectCount(page.getByTestId("image-preview"), 1);
        assert.equal(await note.getAttribute("data-vision"), "sees");
        assert.match(await note.textContent() ?? "", new RegExp(`${visionModel} reads the image with its projector ${projector}`));
        await page.getByTestId("run-button").click();
        await runStatus().filter({hasText: "done"}).waitFor({timeout: 60_000});
        const withImage = await usageFigure(page.getByTestId("usage"), "prompt_tokens");
        // The same turn without the image: the image's tokens fewer (spec 2.3: images are input tokens).
        await page.getByRole("button", {name: "Remove gradient.png"}).click();
        await page.getByTestId("run-button").click();
        await runStatus().filter({hasText: "done"}).waitFor({timeout: 60_000});
        const textOnly = await eventually(async () => {
            const figure = await usageFigure(page.getByTestId("usage"), "prompt_tokens");
            assert.notEqual(figure, withImage);
            return figure;
        });
        assert.ok(withImage - textOnly >= tinyMmprojImageTokens, `the image added ${withImage - textOnly} input tokens`);
        await page.getByTestId("attach-image-input").first().setInputFiles([gradient]);
        await page.getByTestId("run-button").click();
        await runStatus().filter({hasText: "done"}).waitFor({timeout: 60_000});
        await screenshot(page, "vision-chat");
    });

    test("Responses: an input_image part is read locally", async () => {
        await page.getByTestId("nav-responses").click();
        await page.getByTestId("param-max_output_tokens").fill("4");
        await page.getByTestId("responses-image-input").setInputFiles([checkerboard]);
        await expectText(page.getByTestId("image-support"), new RegExp(`reads the image with its projector ${projector}`));
        await page.getByTestId("run-button").click();
        await runStatus().filter({hasText: "done"}).waitFor({timeout: 60_000});
        assert.ok(await usageFigure(page.getByTestId("usage"), "input_tokens") > tinyMmprojImageTokens);
        await screenshot(page, "vision-responses");
    });

    test("decision studio: a question about the attached image gets probabilities from the local model", async () => {
        await page.getByTestId("nav-decisions").click();
        await page.getByTestId("decision-studio").waitFor();
        await page.getByTestId("qs-new").click();
        await page.getByTestId("qs-name").fill("Picture check");
        await page.getByTestId("add-predicate").click();
        await page.getByTestId("q-instructions").first().fill("Is image_1 mostly blue?");
        await page.getByTestId("input-mode-text").click();
        await page.getByTestId("input-text").fill("A picture taken today.");
        await page.getByTestId("input-images").setInputFiles([checkerboard]);
        await expectCount(page.getByTestId("input-image-preview"), 1);
        await expectText(page.getByTestId("image-support"), new RegExp(`${visionModel} reads the image`));
        await page.getByTestId("decision-run").click();
        await page.getByTestId("decision-status").filter({hasText: "done"}).waitFor({timeout: 60_000});
        const card = page.getByTestId("answer-card");
        await expectCount(card, 1);
        const probability = Number(/[\d.]+/.exec(await card.getByTestId("gauge").getAttribute("aria-label") ?? "")?.[0]);
        assert.ok(probability >= 0 && probability <= 1, `probability ${probability}`);
        assert.equal(await card.getByTestId("prob-sum").textContent(), "1.00");
        assert.ok(await usageFigure(page.getByTestId("decision-usage"), "input_tokens") > tinyMmprojImageTokens, "the image was read as input");
        await card.evaluate((element) => element.scrollIntoView({block: "center"}));
        await screenshot(page, "vision-decisions");
    });

    test("a model without a projector: the page says it cannot read images before the run, and the engine's 400 follows", async () => {
        await page.getByTestId("nav-models").click();
        await page.getByTestId(`model-row-${blindModel}`).getByTestId("load-model").click();
        await page.getByTestId(`model-row-${blindModel}`).getByTestId("loaded-marker").waitFor({timeout: 120_000});
        await expectText(page.getByTestId("models-engine-vision"), "text only, no projector");
        await page.getByTestId("nav-decisions").click();
        const note = page.getByTestId("image-support");
        await eventually(async () => assert.equal(await note.getAttribute("data-vision", {timeout: 1_000}), "blind"));
        assert.match(await note.textContent() ?? "", new RegExp(`The local model ${blindModel} cannot read images`));
        await screenshot(page, "vision-decisions-blind");
        await page.getByTestId("nav-chat").click();
        await eventually(async () => assert.equal(await note.getAttribute("data-vision", {timeout: 1_000}), "blind"));
        await page.getByTestId("run-button").click();
        await runStatus().filter({hasText: "error"}).waitFor({timeout: 60_000});
        assert.equal(await page.getByTestId("api-error-status").textContent(), "HTTP 400");
        assert.match(await page.getByTestId("api-error-message").textContent() ?? "", /cannot read images/);
        await screenshot(page, "vision-chat-blind");
        assert.deepEqual(pageErrors, []);
    });
});
