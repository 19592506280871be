// The Decision studio's label mass against the real gateway and engines, driven in Chromium: on the local
// engine the studio asks for `x_svc.label_mass` and every answer card shows it, with a warning below 0.5; on a remote
// connection the local-only field is never sent and the cards show no mass. The remote is a second engine behind a
// key (the gateway's env profile), which would accept the field: what is checked is that the app does not send it.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import type {Browser, Page, Request} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {lowLabelMass} from "../../renderer/src/features/decisions/RunPanel.tsx";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {expectCount} from "./utils/expect.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startEngine, type Engine} from "./utils/startEngine.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

describe("Decision studio: the label mass on each answer card", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let gateway: WebGateway;
    let remote: Engine;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];
    /** The bodies of the decision requests the page sent, with the gateway path they went to. */
    const sent: Array<{url: string, body: any}> = [];

    const answers = () => page.getByTestId("answer-card");
    /** Runs the builder's set and waits for the request's own result (the status badge reads "done" again). */
    const run = async () => {
        const [request] = await Promise.all([
            page.waitForRequest((item: Request) => item.method() === "POST" && item.url().endsWith("/v1/decisions")),
            page.getByTestId("decision-run").click()
        ]);
        await request.response();
        await page.getByTestId("decision-status").filter({hasText: "done"}).waitFor({timeout: 60_000});
        await expectCount(answers(), 3);
    };

    before(async () => {
        ensureRendererBuilt();
        const model = await ensureTinyGguf();
        const key = "ck_label_mass_7a";
        remote = await startEngine({model, apiKey: key});
        gateway = await startWebGateway({model, env: {SVC_REMOTE_BASE_URL: remote.url, SVC_REMOTE_API_KEY: key}});
        browser = await launchChromium();
        const context = await browser.newContext({viewport: {width: 1440, height: 900}, colorScheme: "dark"});
        page = await context.newPage();
        page.on("pageerror", (error) => pageErrors.push(`${error.message}\n${error.stack}`));
        page.on("console", (message) => {
            if (message.type() === "error") pageErrors.push(message.text());
        });
        page.on("request", (request) => {
            if (request.method() === "POST" && request.url().endsWith("/v1/decisions")) sent.push({url: request.url(), body: request.postDataJSON()});
        });
        await page.goto(gateway.url);
        await page.getByTestId("nav-decisions").click();
        await page.getByTestId("decision-studio").waitFor();
        await page.getByTestId("qs-new").click();
        for (const type of ["predicate", "choice", "score"]) await page.getByTestId(`add-${type}`).click();
        await page.getByTestId("input-text").fill("The battery died after 2 hours, but the screen is lovely.");
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await remote?.stop();
    });

    test("local engine: the request asks for x_svc.label_mass and each card shows its mass, warning below the threshold", async () => {
        await run();
        const request = sent.at(-1)!;
        assert.match(request.url, /\/local\//);
        assert.equal(request.body.x_svc?.label_mass, true);

        const masses: number[] = [];
        for (const card of await answers().all()) {
            const text = await card.getByTestId("answer-label-mass-value").textContent() ?? "";
            assert.match(text, /^[01]\.\d\d$/);
            const mass = Number(text);
            masses.push(mass);
            const warned = await card.getByTestId("answer-label-mass-warning").count();
            assert.equal(warned, mass < lowLabelMass ? 1 : 0, `mass ${mass}: a warning exactly when it is below ${lowLabelMass}`);
            assert.equal(await card.getByTestId("answer-label-mass").getAttribute("data-low"), String(mass < lowLabelMass));
        }
        assert.ok(masses.every((mass) => mass > 0 && mass <= 1), `masses ${masses}`);
        await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=answer-card]")]
            .every((card) => card.querySelector(".recharts-bar-rectangle, .recharts-pie-sector") !== null));
        await page.getByTestId("decision-run-panel").evaluate((element) => element.scrollIntoView({block: "start"}));
        await screenshot(page, "decisions-label-mass");
    });

    test("remote connection: the local-only field is never sent and the cards show no mass", async () => {
        const remoteOption = page.getByTestId("connection-switcher").locator("option").filter({hasText: "remote (env)"});
        await page.getByTestId("connection-switcher").selectOption(await remoteOption.getAttribute("value") ?? "");
        await page.getByTestId("decision-run-panel").getByText("on remote (env)").waitFor();
        await run();
        const request = sent.at(-1)!;
        assert.match(request.url, /\/remote\//);
        assert.equal(request.body.x_svc, undefined, "no x_svc at all: the set asks for no explanations");
        assert.equal(await page.getByTestId("answer-label-mass").count(), 0);
        await page.getByTestId("connection-switcher").selectOption("local");
    });

    test("no page errors", () => {
        assert.deepEqual(pageErrors, []);
    });
});
