// The Engine & connections screen's engine card: the thread count in use, changing it (the engine restarts with it),
// and the per-launch engine key that scripts on this machine need (issue 13: the app's engine requires it).
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import type {Browser, Page} from "playwright-core";
import type {GatewayState} from "../../protocol/gateway/contract.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {gatewayApi} from "./utils/gatewayApi.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

describe("engine screen: threads and the engine key", {skip: noChromium ?? false, timeout: 180_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    before(async () => {
        ensureRendererBuilt();
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
        const context = await browser.newContext({viewport: {width: 1440, height: 900}, colorScheme: "dark"});
        await context.grantPermissions(["clipboard-read", "clipboard-write"]);
        page = await context.newPage();
        page.on("pageerror", (error) => pageErrors.push(error.message));
        await page.goto(gateway.url);
        await page.getByTestId("nav-engine-status").click();
    });
    after(async () => {
        await browser?.close();
        await gateway?.stop();
    });

    test("the card shows the threads in use; another count restarts the engine with it", async () => {
        await page.getByTestId("engine-status").filter({hasText: "running"}).waitFor({timeout: 60_000});
        assert.equal(await page.getByTestId("engine-threads").textContent(), "1");
        await page.getByTestId("engine-threads-input").fill("2");
        await page.getByTestId("engine-threads-apply").click();
        await page.getByTestId("engine-threads").filter({hasText: /^2$/}).waitFor({timeout: 60_000});
        await page.getByTestId("engine-status").filter({hasText: "running"}).waitFor({timeout: 60_000});
        const {engine} = await gatewayApi<GatewayState>(page, "/state");
        assert.equal(engine.threads, 2);
        await screenshot(page, "engine-threads");
    });

    test("a count that is not a whole number is refused before anything restarts", async () => {
        await page.getByTestId("engine-threads-input").fill("two");
        await page.getByText("Threads must be a whole number, at least 1.").waitFor();
        assert.equal(await page.getByTestId("engine-threads-apply").count(), 0);
    });

    test("the copied engine key opens the engine to a script on this machine; without it the engine refuses", async () => {
        await page.getByTestId("engine-copy-key").click();
        await page.getByTestId("engine-copy-key").filter({hasText: "Key copied"}).waitFor();
        const key = await page.evaluate(() => navigator.clipboard.readText());
        assert.match(key, /^[0-9a-f]{64}$/);
        const {engine} = await gatewayApi<GatewayState>(page, "/state");
        const call = (authorization?: string) => fetch(`${engine.url}/svc-1/v1/models`, {headers: authorization == null ? {} : {authorization}});
        assert.equal((await call()).status, 401);
        assert.equal((await call(`Bearer ${key}`)).status, 200);
        assert.deepEqual(pageErrors, []);
    });
});
