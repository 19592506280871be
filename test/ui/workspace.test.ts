// The Workspace screen against the real gateway and engine, driven in Chromium: the local engine becomes a
// team server, the app's own chat runs on a workspace key chosen there, the usage report shows that chat's tokens,
// and revoking the key stops the app's requests with a message that says what to do.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import type {GatewayState} from "../../protocol/gateway/contract.ts";
import {displayMoney} from "../../protocol/admin/money.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {controlsOutside} from "./utils/controlsOutside.ts";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {gatewayApi} from "./utils/gatewayApi.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {accessibilityViolations} from "./utils/layoutChecks.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

describe("workspace screen: keys, credits and usage of the local engine", {skip: noChromium ?? false, timeout: 240_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    let dataHome: string;
    let secret = "";
    const pageErrors: string[] = [];
    /** The last chat's usage as the playground showed it. */
    const chatUsage = {prompt: 0, completion: 0};

    const go = (screen: string) => page.getByTestId(`nav-${screen}`).click();
    const keyRow = (name: string) => page.locator(`[data-testid=key-row][data-key-name="${name}"]`);
    /** The confirmation under a key's row, before it is rotated or revoked. */
    const keyConfirm = (name: string) => page.locator(`[data-testid=key-confirm][data-key-name="${name}"]`);
    const runChat = async (expected: "done" | "error") => {
        await go("chat");
        await page.getByTestId("param-temperature").fill("0");
        await page.getByTestId("param-max_tokens").fill("8");
        await page.getByTestId("run-button").click();
        await page.getByTestId("run-status").filter({hasText: expected}).waitFor({timeout: 30_000});
    };

    before(async () => {
        ensureRendererBuilt();
        // The engine's service database lives in the user data folder: a folder of its own keeps this test's workspaces
        // (which switch the engine into workspace mode for good) away from every other test and from the user's.
        dataHome = await mkdtemp(path.join(os.tmpdir(), "svc-ui-workspace-"));
        gateway = await startWebGateway({model: await ensureTinyGguf(), env: {XDG_DATA_HOME: dataHome}});
        browser = await launchChromium();
        const context = await browser.newContext({viewport: {width: 1440, height: 1000}, colorScheme: "dark", acceptDownloads: true});
        await context.grantPermissions(["clipboard-read", "clipboard-write"], {origin: gateway.url});
        page = await context.newPage();
        page.on("pageerror", (error) => pageErrors.push(error.message));
        // Chromium logs every non-2xx fetch; the 401s are the refusals this test provokes.
        page.on("console", (message) => {
            if (message.type() === "error" && !/^Failed to load resource: the server responded with a status of 401/.test(message.text()))
                pageErrors.push(message.text());
        });
        await page.goto(gateway.url);
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        if (dataHome != null) await rm(dataHome, {recursive: true, force: true});
    });

    test("an organization and a workspace, activated, with credits and a price", async () => {
        await go("workspace");
        await page.getByTestId("workspace-empty").waitFor();
        await screenshot(page, "workspace-empty");
        await page.getByTestId("organization-name").fill("Acme");
        await page.getByTestId("organization-create").click();
        // The new workspace's organization is said beside its name.
        await expectText(page.getByTestId("workspace-organization"), "in Acme:");
        await page.getByTestId("workspace-name").fill("Research");
        await page.getByTestId("workspace-create").click();
        await expectText(page.getByTestId("workspace-item"), /Research\s*not activated/);
        await expectText(page.getByTestId("balance"), "0.00");
        await page.getByTestId("workspace-activate").click();
        await page.getByTestId("workspace-activated").waitFor();
        await page.getByTestId("credits-amount").fill("0.1.2");
        await page.getByTestId("credits-add").click();
        await expectText(page.getByTestId("balance-card").getByTestId("api-error-message"), /not an amount/);
        await page.getByTestId("credits-amount").fill("5");
        await page.getByTestId("credits-add").click();
        await expectText(page.getByTestId("balance"), "5.00");
        // svc-1 at 1.25 per million input tokens and 2 per million output tokens, so the chat below costs something.
        const price = page.locator("[data-testid=price-row][data-model=svc-1]");
        await price.getByTestId("price-inputMicrosPerMillion").fill("1.25");
        await price.getByTestId("price-outputMicrosPerMillion").fill("2");
        await price.getByTestId("price-save").click();
        await expectCount(price.getByTestId("price-save"), 0);
        assert.equal(await price.getByTestId("price-inputMicrosPerMillion").inputValue(), "1.25");
        const limit = page.locator("[data-testid=limit-row][data-model=svc-1]");
        await limit.getByTestId("limit-requestsPerMinute").fill("0");
        assert.equal(await limit.getByTestId("limit-save").isDisabled(), true, "0 is no limit a workspace can have");
        await limit.getByTestId("limit-requestsPerMinute").fill("600");
        await limit.getByTestId("limit-save").click();
        await expectCount(limit.getByTestId("limit-save"), 0);
        assert.equal(await limit.getByTestId("limit-requestsPerMinute").inputValue(), "600");
    });

    test("with workspaces and no key chosen, the app's chat is refused and says where to choose one", async () => {
        await runChat("error");
        await expectText(page.getByTestId("api-error-code"), "code: invalid_api_key");
        await expectText(page.getByTestId("workspace-key-advice"), /holds workspaces.*Workspace screen/);
        await screenshot(page, "workspace-chat-no-key");
    });

    test("a created key's secret is shown once, becomes the app's key and View code's, and is gone after the dialog", async () => {
        await go("workspace");
        await page.getByTestId("key-name").fill("app");
        await page.getByTestId("key-create").click();
        secret = await expectText(page.getByTestId("issued-secret"), /^ck_[0-9a-f]{12}_[\w-]{43}$/);
        await page.getByTestId("secret-copy").click();
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
        await page.getByTestId("use-for-app").click();
        await expectText(page.getByTestId("use-for-app"), "This app uses it");
        await page.getByTestId("use-in-code").click();
        await screenshot(page, "workspace-secret");
        await page.getByTestId("secret-close").click();
        await expectCount(page.getByTestId("secret-dialog"), 0);
        await keyRow("app").getByTestId("key-app-badge").waitFor();
        await expectText(page.getByTestId("app-key"), /This app's requests use app ck_[0-9a-f]{12}_…/);
        assert.ok(!(await page.content()).includes(secret), "the page no longer holds the secret");
        const {connections} = await gatewayApi<GatewayState>(page, "/state");
        assert.deepEqual(connections[0], {id: "local", kind: "local", name: "Local engine", hasKey: true, keyHint: secret.slice(0, 16)});

        // View code names the key and, while the secret was just shown, copies the line that sets it.
        await go("chat");
        await page.getByTestId("view-code-toggle").click();
        await expectText(page.getByTestId("code-key"), /SVC_API_KEY to the workspace key app ck_[0-9a-f]{12}_…/);
        await page.getByTestId("copy-key-export").click();
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `export SVC_API_KEY=${secret}`);
        assert.match(await page.getByTestId("code-block").textContent() ?? "", /Authorization: Bearer \$SVC_API_KEY/);
        await screenshot(page, "workspace-view-code");

        // The app reopens as it was, View code open on the chat.
        await page.reload();
        await expectText(page.getByTestId("code-key"), /workspace key app .*shown once/);
        assert.equal(await page.getByTestId("copy-key-export").count(), 0, "after a reload the secret is gone");
        await page.getByTestId("view-code-toggle").click();
        await go("workspace");
        await keyRow("app").getByTestId("key-app-badge").waitFor();
        assert.ok(!(await page.content()).includes(secret.slice(16)), "nor does a reload bring it back");
    });

    test("the app's chat runs on that key, and the usage chart, table and CSV show its tokens", async () => {
        await runChat("done");
        const usage = await page.getByTestId("usage").textContent() ?? "";
        chatUsage.prompt = Number(/prompt_tokens(\d+)/.exec(usage)?.[1]);
        chatUsage.completion = Number(/completion_tokens(\d+)/.exec(usage)?.[1]);
        assert.ok(chatUsage.prompt > 0 && chatUsage.completion > 0, usage);

        await go("workspace");
        const row = page.getByTestId("usage-row");
        await expectCount(row, 1);
        await expectText(row.getByTestId("usage-requests"), "1");
        await expectText(row, new RegExp(`^app \\(ck_`));
        const input = Number(await row.getByTestId("usage-input").textContent()) + Number(await row.getByTestId("usage-cached").textContent());
        assert.equal(input, chatUsage.prompt);
        assert.equal(Number(await row.getByTestId("usage-output").textContent()), chatUsage.completion);
        // Cost at the prices above, in micro-units rounded up (spec §2.3): 1.25 per million uncached input tokens, cached
        // ones free, 2 per million output tokens; the balance is the credits less exactly that.
        const uncached = Number(await row.getByTestId("usage-input").textContent());
        const costMicros = Math.ceil((uncached * 1_250_000 + chatUsage.completion * 2_000_000) / 1_000_000);
        await expectText(row.getByTestId("usage-cost"), displayMoney(costMicros));
        await expectText(page.getByTestId("balance"), displayMoney(5_000_000 - costMicros));
        await eventually(async () => assert.ok(await page.locator("[data-testid=usage-chart] .recharts-bar-rectangle").count() >= 1, "a bar for today"));
        await page.getByTestId("usage-split-model").click();
        await expectText(page.getByTestId("usage-row"), /^svc-1/);
        await screenshot(page, "workspace-usage");
        // The chart is a named image, and the screen with its data has no serious accessibility violation.
        assert.match(await page.locator("[data-testid=usage-chart] svg[role=img]").first().getAttribute("aria-label") ?? "", /per day, stacked by/);
        assert.deepEqual(await accessibilityViolations(page), []);

        const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("usage-csv").click()]);
        const csv = await readFile(await download.path(), "utf8");
        const [header, line, end] = csv.split("\r\n");
        assert.equal(header, "workspace,day,key,model,requests,uncached_input_tokens,cached_input_tokens,output_tokens,cost");
        assert.match(line, new RegExp(`,svc-1,1,${uncached},\\d+,${chatUsage.completion},`));
        assert.equal(end, "");
        await page.getByTestId("usage-split-key").click();
    });

    test("at 1024x768 and 1440x900 every key's buttons fit in the card, a long name and a user owner included", async () => {
        await page.getByTestId("key-name").fill("ci-pipeline-nightly-build");
        await page.getByTestId("key-owner").selectOption("user");
        await page.getByTestId("key-user").fill("alice.longname@example.com");
        await page.getByTestId("key-create").click();
        await page.getByTestId("secret-close").click();
        await keyRow("ci-pipeline-nightly-build").waitFor();
        for (const [width, height] of [[1024, 768], [1440, 900]]) {
            await page.setViewportSize({width, height});
            await keyRow("app").getByTestId("key-revoke").scrollIntoViewIfNeeded();
            assert.deepEqual(await controlsOutside(page.getByTestId("keys-card")), [], `${width}x${height}`);
            await keyRow("ci-pipeline-nightly-build").getByTestId("key-rotate").click();
            assert.deepEqual(await controlsOutside(page.getByTestId("keys-card")), [], `${width}x${height}, confirming`);
            await screenshot(page, `workspace-keys-${width}`);
            await keyConfirm("ci-pipeline-nightly-build").getByTestId("key-confirm-cancel").click();
        }
        await page.setViewportSize({width: 1440, height: 1000});
    });

    test("rotating asks first, saying the old secret stops working for every client; keeping the key changes nothing", async () => {
        const hint = await keyRow("app").locator(".key-hint").textContent();
        await keyRow("app").getByTestId("key-rotate").click();
        await expectText(keyConfirm("app").getByTestId("key-confirm-text"),
            /Rotate app\? A new secret is issued and shown once\. The old secret stops working at once for every client that sends it, this app's own requests included/);
        assert.equal(await page.getByTestId("secret-dialog").count(), 0, "nothing is rotated before the confirmation");
        await keyConfirm("app").getByTestId("key-confirm-cancel").click();
        await expectCount(keyConfirm("app"), 0);
        assert.equal(await keyRow("app").locator(".key-hint").textContent(), hint);
        // The app's requests still run on the old secret.
        await runChat("done");
        await go("workspace");
    });

    test("rotating the app's key shows the new secret once and warns that the app must take it", async () => {
        await keyRow("app").getByTestId("key-rotate").click();
        await keyConfirm("app").getByTestId("key-rotate-confirm").click();
        const rotated = await expectText(page.getByTestId("issued-secret"), /^ck_/);
        assert.notEqual(rotated, secret);
        await page.getByText("This app used this key's old secret").waitFor();
        // Until the app takes the new secret, the key it holds is no longer listed: said as a rotation, not as another workspace's.
        await expectText(page.getByTestId("app-key"), /a key not among this workspace's keys ck_[0-9a-f]{12}_… — rotated since \(its old secret no longer works: use the new one\)/);
        await page.getByTestId("use-for-app").click();
        await expectText(page.getByTestId("use-for-app"), "This app uses it");
        await page.getByTestId("secret-close").click();
        await keyRow("app").getByTestId("key-app-badge").waitFor();
        secret = rotated;
    });

    test("revoking the app's key stops its chat at once, with a message that says what to do", async () => {
        await keyRow("app").getByTestId("key-revoke").click();
        await expectText(keyConfirm("app").getByTestId("key-confirm-text"), /Revoke app\? Every request that sends it is refused from now on, this app's own requests included\. A revoked key cannot be restored\./);
        await keyConfirm("app").getByTestId("key-revoke-confirm").click();
        await expectText(keyRow("app").getByTestId("key-state"), "revoked");
        await expectText(page.getByTestId("app-key"), /revoked: they now fail/);
        await screenshot(page, "workspace-revoked");
        await runChat("error");
        await expectText(page.getByTestId("api-error-message"), /revoked/);
        await expectText(page.getByTestId("workspace-key-advice"), /refused this request's key\. This app now sends the workspace key ck_[0-9a-f]{12}_…; if that key was revoked/);
        await screenshot(page, "workspace-chat-revoked");
    });

    test("on a remote connection the screen says the hosted service manages all this, and offers nothing to edit", async () => {
        const added = await gatewayApi<{connection: {id: string}}>(page, "/connections", {method: "POST", body: {name: "Hosted", baseUrl: "https://api.example.com"}});
        await gatewayApi(page, `/connections/${added.connection.id}/activate`, {method: "POST", body: {}});
        await page.reload();
        await go("workspace");
        await expectText(page.getByTestId("workspace-remote"), /hosted service manages its workspaces, API keys, credits/);
        assert.equal(await page.getByTestId("workspace-screen").locator("input, select, button").count(), 0);
        await screenshot(page, "workspace-remote");
        await gatewayApi(page, "/connections/local/activate", {method: "POST", body: {}});
        assert.deepEqual(pageErrors, []);
    });
});
