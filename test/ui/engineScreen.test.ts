// The Engine & connections screen's engine card: the thread count in use, changing it (the engine restarts with it),
// the per-launch engine key that scripts on this machine need, and the engine's port, which stays the same through
// restarts and launches, can be changed here, and moves to a free port (saying so) when another program holds it.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import type {GatewayState} from "../../protocol/gateway/contract.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {gatewayApi} from "./utils/gatewayApi.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";
import {expectText} from "./utils/expect.ts";
import {freePort, holdPort} from "../support/ports.ts";

describe("engine screen: threads, the engine key and the engine's port", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    let dataDir: string;
    /** The port saved before the first launch (as an earlier launch would have saved it). */
    let savedPort: number;
    const pageErrors: string[] = [];
    const settingsFile = () => path.join(dataDir, "engine-settings.json");
    /** `npm run web` as a user starts it: the engine's port is the one saved in its data folder. */
    const launch = async () => {
        gateway = await startWebGateway({model: await ensureTinyGguf(), dataDir, enginePort: "saved"});
        await page.goto(gateway.url);
        await page.getByTestId("nav-engine-status").click();
    };
    const state = () => gatewayApi<GatewayState>(page, "/state");

    before(async () => {
        ensureRendererBuilt();
        dataDir = await mkdtemp(path.join(os.tmpdir(), "svc-ui-engine-"));
        savedPort = await freePort();
        await writeFile(settingsFile(), JSON.stringify({version: 1, port: savedPort}));
        browser = await launchChromium();
        const context = await browser.newContext({viewport: {width: 1440, height: 900}, colorScheme: "dark"});
        await context.grantPermissions(["clipboard-read", "clipboard-write"]);
        page = await context.newPage();
        page.on("pageerror", (error) => pageErrors.push(error.message));
        // The refused port change answers 409, which Chromium logs as a failed resource.
        page.on("console", (message) => {
            if (message.type() === "error" && !/status of 409/.test(message.text())) pageErrors.push(message.text());
        });
        await launch();
    });
    after(async () => {
        await browser?.close();
        await gateway?.stop();
        if (dataDir != null) await rm(dataDir, {recursive: true, force: true});
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
    });

    test("the engine listens on the saved port, and keeps it through Stop and Start", async () => {
        const address = `http://127.0.0.1:${savedPort}`;
        await expectText(page.getByTestId("engine-address"), address);
        await expectText(page.getByTestId("engine-port-note"), new RegExp(`Now ${savedPort}, kept across restarts and launches`));
        assert.equal((await fetch(`${address}/health`)).status, 200);
        await page.getByTestId("engine-stop").click();
        await page.getByTestId("engine-status").filter({hasText: "stopped"}).waitFor({timeout: 30_000});
        await expectText(page.getByTestId("engine-address"), address);
        await page.getByTestId("engine-start").click();
        await page.getByTestId("engine-status").filter({hasText: "running"}).waitFor({timeout: 60_000});
        assert.equal((await state()).engine.url, address);
        assert.equal((await fetch(`${address}/health`)).status, 200);
    });

    test("another port from the screen moves the running engine, is saved, and the next launch keeps it", async () => {
        await page.getByTestId("engine-port-input").fill("80");
        await expectText(page.getByTestId("engine-port-invalid"), "The port must be 0 (a free port at every start) or a whole number from 1024 to 65535.");
        assert.equal(await page.getByTestId("engine-port-apply").count(), 0);
        const port = await freePort();
        await page.getByTestId("engine-port-input").fill(String(port));
        await expectText(page.getByTestId("engine-port-apply"), `Restart on port ${port}`);
        await page.getByTestId("engine-port-apply").click();
        await expectText(page.getByTestId("engine-address"), `http://127.0.0.1:${port}`, {timeoutMs: 60_000});
        await page.getByTestId("engine-status").filter({hasText: "running"}).waitFor({timeout: 60_000});
        assert.equal((await fetch(`http://127.0.0.1:${port}/health`)).status, 200);
        await assert.rejects(fetch(`http://127.0.0.1:${savedPort}/health`), "nothing listens on the old port");
        assert.deepEqual(JSON.parse(await readFile(settingsFile(), "utf8")), {version: 1, port});
        await screenshot(page, "engine-port");

        // The page leaves first: its polling of a gateway that is gone would be refused.
        await page.goto("about:blank");
        await gateway.stop();
        await launch();
        await page.getByTestId("engine-status").filter({hasText: "running"}).waitFor({timeout: 60_000});
        assert.equal((await state()).engine.url, `http://127.0.0.1:${port}`);
        savedPort = port;
    });

    test("a port another program holds: a change is refused; a start moves the engine to a free port and says why", async () => {
        const other = await holdPort(0);
        try {
            await page.getByTestId("engine-port-input").fill(String(other.port));
            await page.getByTestId("engine-port-apply").click();
            const refusal = page.getByTestId("engine-port").getByTestId("api-error-message");
            await expectText(refusal, new RegExp(`port ${other.port} on 127\\.0\\.0\\.1 is in use by another program.*choose another port for the local engine`));
            await expectText(page.getByTestId("engine-port").getByTestId("api-error-code"), "code: port_in_use");
            assert.equal((await state()).engine.url, `http://127.0.0.1:${savedPort}`, "the engine stays where it was");
        } finally {
            await new Promise((resolve) => other.close(resolve));
        }

        // Another program takes the engine's saved port while it is stopped: Start listens on a free port instead, shows
        // it and says why, so local features keep working; the saved port stays saved.
        const stop = async () => {
            await page.getByTestId("engine-stop").click();
            await page.getByTestId("engine-status").filter({hasText: "stopped"}).waitFor({timeout: 30_000});
        };
        const start = async () => {
            await page.getByTestId("engine-start").click();
            await page.getByTestId("engine-status").filter({hasText: "running"}).waitFor({timeout: 60_000});
        };
        await page.getByTestId("engine-port-input").fill("");
        await stop();
        const squatter = await holdPort(savedPort);
        try {
            await start();
            const moved = (await state()).engine;
            assert.notEqual(moved.port, savedPort);
            assert.equal(moved.url, `http://127.0.0.1:${moved.port}`);
            await expectText(page.getByTestId("engine-address"), moved.url!);
            await expectText(page.getByTestId("engine-port-notice"),
                new RegExp(`^Port ${savedPort}, the local engine's saved port, is in use by another program, so the engine listens on port ${moved.port} for now`));
            assert.equal((await fetch(`${moved.url}/health`)).status, 200);
            assert.deepEqual(JSON.parse(await readFile(settingsFile(), "utf8")), {version: 1, port: savedPort});
            await screenshot(page, "engine-port-taken");
        } finally {
            await new Promise((resolve) => squatter.close(resolve));
        }
        // Free again, the saved port is taken back at the next start.
        await stop();
        await start();
        assert.equal((await state()).engine.url, `http://127.0.0.1:${savedPort}`);
        assert.equal(await page.getByTestId("engine-port-notice").count(), 0);

        const port = await freePort();
        await page.getByTestId("engine-port-input").fill(String(port));
        await expectText(page.getByTestId("engine-port-apply"), `Restart on port ${port}`);
        await page.getByTestId("engine-port-apply").click();
        await expectText(page.getByTestId("engine-address"), `http://127.0.0.1:${port}`, {timeoutMs: 60_000});
        await page.getByTestId("engine-status").filter({hasText: "running"}).waitFor({timeout: 60_000});
        assert.equal((await state()).engine.url, `http://127.0.0.1:${port}`);
        assert.deepEqual(pageErrors, []);
    });
});
