// A remote connection through the gateway, with a second local engine that requires an API key standing in
// for the remote service. The key must never reach the renderer: no request it makes, no page HTML, no
// storage, no console line holds it.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import type {Browser, Page, Request} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {readPageStorage} from "./utils/readPageStorage.ts";
import {eventually, expectCount} from "./utils/expect.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startEngine, type Engine} from "./utils/startEngine.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const envKey = "ck_test123";
// Typed into the "add connection" form: it goes to the gateway once, and must be gone from the page afterwards.
const formKey = "ck_form_key_9f3a";

type Recorded = {url: string, method: string, headers: Record<string, string>, postData: string};

describe("remote connection: the key stays in the gateway", {skip: noChromium ?? false, timeout: 180_000}, () => {
    let remote: Engine;
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    const requests: Promise<Recorded>[] = [];
    const responses: Promise<string>[] = [];
    const consoleLines: string[] = [];

    const status = () => page.getByTestId("run-status");

    before(async () => {
        ensureRendererBuilt();
        const model = await ensureTinyGguf();
        remote = await startEngine({model, apiKey: envKey});
        gateway = await startWebGateway({model, env: {SVC_REMOTE_BASE_URL: remote.url, SVC_REMOTE_API_KEY: envKey}});
        browser = await launchChromium();
        page = await browser.newPage({viewport: {width: 1440, height: 900}, colorScheme: "dark"});
        page.on("request", (request: Request) => requests.push((async () => ({
            url: request.url(), method: request.method(), headers: await request.allHeaders(), postData: request.postData() ?? ""
        }))()));
        // What the renderer receives from the gateway's own routes must not hold the key either.
        page.on("response", (response) => {
            if (new URL(response.url()).pathname.startsWith("/gateway/")) responses.push(response.text().catch(() => ""));
        });
        page.on("console", (message) => consoleLines.push(message.text()));
        page.on("pageerror", (error) => consoleLines.push(error.message));
        await page.goto(gateway.url);
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await remote?.stop();
    });

    test("the env profile is listed with a stored key, and activating it sends chats to the remote engine", async () => {
        await page.getByTestId("nav-engine").click();
        const profile = page.locator("li[data-testid^=connection-]").filter({hasText: "remote (env)"});
        await profile.waitFor();
        assert.match(await profile.textContent() ?? "", /key stored/);
        assert.match(await profile.textContent() ?? "", new RegExp(remote.url.replace(/[.:/]/g, "\\$&")));
        await profile.getByRole("button", {name: "Activate"}).click();
        await profile.getByText("active").waitFor();
        assert.match(await page.getByTestId("connection-switcher").locator("option:checked").textContent() ?? "", /remote \(env\)/);
        await screenshot(page, "engine-remote");

        await page.getByTestId("nav-chat").click();
        await page.getByTestId("param-max_tokens").fill("24");
        await page.getByTestId("run-button").click();
        await status().filter({hasText: "done"}).waitFor({timeout: 30_000});
        assert.match(await page.getByText(/^via /).textContent() ?? "", /via remote \(env\)/);
        assert.ok((await page.getByTestId("reply-text").textContent() ?? "").length > 0);
        // The request went to the remote engine, which requires the key: the gateway added it.
        const sent = await Promise.all(requests);
        assert.ok(sent.some((request) => new URL(request.url).pathname === "/remote/svc-1/v1/chat/completions"), "the chat went through /remote");

        await page.getByTestId("view-code-toggle").click();
        assert.equal(await page.getByTestId("code-base-url").textContent(), `${remote.url}/svc-1/v1`);
        assert.match(await page.getByTestId("code-block").textContent() ?? "", /Bearer \$SVC_API_KEY/);
        await screenshot(page, "chat-remote");
        await page.getByTestId("view-code-toggle").click();
    });

    test("remote mode sends no local-only x_svc: the token view shows the remote's scores, with no id readout", async () => {
        await page.getByTestId("nav-chat").click();
        await page.getByTestId("param-logprobs").getByRole("radio", {name: "true"}).click();
        await page.getByTestId("param-top_logprobs").fill("3");
        await page.getByTestId("run-button").click();
        await status().filter({hasText: "done"}).waitFor({timeout: 30_000});
        await page.getByTestId("token-chip").first().waitFor();
        await expectCount(page.getByTestId("token-id"), 0);
        const chats = (await Promise.all(requests)).filter((request) => new URL(request.url).pathname === "/remote/svc-1/v1/chat/completions");
        const scored = chats.map((request) => JSON.parse(request.postData) as Record<string, unknown>).filter((body) => body.logprobs === true);
        assert.ok(scored.length > 0, "the scored chat went through /remote");
        assert.ok(scored.every((body) => !("x_svc" in body)), "no x_svc reaches a remote server");
        await page.getByTestId("param-logprobs").getByRole("radio", {name: "—"}).click();
        await page.getByTestId("param-top_logprobs").fill("");
    });

    test("a profile added with a key: the field is cleared, and a key the remote refuses shows its 401", async () => {
        await page.getByTestId("nav-engine").click();
        await page.getByTestId("connection-name").fill("Staging");
        await page.getByTestId("connection-base-url").fill(remote.url);
        await page.getByTestId("connection-key").fill(formKey);
        await page.getByRole("button", {name: "Add connection"}).click();
        const staging = page.locator("li[data-testid^=connection-]").filter({hasText: "Staging"});
        await staging.waitFor();
        assert.equal(await page.getByTestId("connection-key").inputValue(), "", "the key field is cleared");
        assert.match(await staging.textContent() ?? "", /key stored/);
        await staging.getByRole("button", {name: "Activate"}).click();
        await staging.getByText("active").waitFor();

        await page.getByTestId("nav-chat").click();
        await page.getByTestId("run-button").click();
        await status().filter({hasText: "error"}).waitFor({timeout: 30_000});
        assert.equal(await page.getByTestId("api-error-status").textContent(), "HTTP 401");
        assert.equal(await page.getByTestId("api-error-code").textContent(), "code: invalid_api_key");
        assert.equal(await page.getByTestId("api-error-type").textContent(), "type: authentication_error");
        await screenshot(page, "chat-remote-401");
        // Back to the local engine.
        const switcher = page.getByTestId("connection-switcher");
        await switcher.selectOption("local");
        // The switch is a gateway call: run only once it took (the select is disabled while pending and shows the
        // gateway's active connection after), or the run can still go to the refusing remote.
        await eventually(async () => assert.ok(await switcher.isEnabled() && await switcher.inputValue() === "local"));
        await page.getByTestId("run-button").click();
        await status().filter({hasText: "done"}).waitFor({timeout: 30_000});
        assert.match(await page.getByText(/^via /).textContent() ?? "", /via Local engine|via local/i);
    });

    test("no key in any renderer request, gateway answer, page HTML, storage or console line", async () => {
        const sent = await Promise.all(requests);
        assert.ok(sent.length > 10, `requests were recorded (${sent.length})`);
        const holds = (request: Recorded, key: string) =>
            request.url.includes(key) || request.postData.includes(key) || Object.values(request.headers).some((value) => value.includes(key));
        assert.deepEqual(sent.filter((request) => holds(request, envKey)).map((request) => request.url), [], "the env key is in no request");
        assert.ok(sent.every((request) => !("authorization" in request.headers)), "the renderer sends no Authorization header at all");
        // The form key went to the gateway exactly once, in the POST that added the profile.
        const withFormKey = sent.filter((request) => holds(request, formKey));
        assert.deepEqual(withFormKey.map((request) => `${request.method} ${new URL(request.url).pathname}`), ["POST /gateway/api/connections"]);

        const bodies = await Promise.all(responses);
        assert.ok(bodies.length > 0);
        for (const key of [envKey, formKey]) {
            assert.ok(bodies.every((body) => !body.includes(key)), `no gateway answer holds ${key}`);
            assert.ok(!(await page.content()).includes(key), `the page HTML does not hold ${key}`);
            const storage = await readPageStorage(page, gateway.dataDir);
            assert.ok(storage.includes("\"app.sqlite\"") && storage.includes("connectionName"), "storage was read (the app's database holds the runs)");
            assert.ok(!storage.includes(key), `neither the page's storage nor the app's data folder holds ${key}`);
            assert.ok(consoleLines.every((line) => !line.includes(key)), `no console line holds ${key}`);
        }
    });
});
