// From a real browser: a page on another origin tries to use the engine that `npm run web`
// launches, a keyless engine, and one started with --api-key. The page's names (evil.example, allowed.example) are
// mapped to 127.0.0.1 with Chromium's --host-resolver-rules, so no network is needed. Chromium's own Local Network
// Access checks are off: they would block some of these requests in the browser, and the engine must hold without
// them (other browsers, older Chromium). What the engine answered is read from the page where CORS lets it, and from
// Playwright's network events where it does not (opaque `no-cors` answers).
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type {AddressInfo} from "node:net";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {readGatewayState} from "./utils/gatewayApi.ts";
import {startEngine, type Engine} from "./utils/startEngine.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const chatBody = JSON.stringify({model: "svc-1", messages: [{role: "user", content: "Hi"}], max_tokens: 2});
const key = "ck_cross_origin";

/** What the page got: the answer, or the TypeError of a request the browser blocked (CORS). */
type Outcome = {status: number, type: string, code?: string} | {error: string};

/** What reached the browser from the server, whether or not the page may read it. */
type Received = {method: string, url: string, status: number, allowOrigin?: string};

describe("web pages on other origins and the local engine", {skip: noChromium ?? false, timeout: 180_000}, () => {
    let attacker: http.Server;
    let pagePort: number;
    let app: WebGateway;
    let appEngineUrl: string;
    let keyless: Engine;
    let keyed: Engine;
    let browser: Browser;
    /** Every answer Chromium received, opaque ones included. */
    const received: Received[] = [];

    before(async () => {
        // The "other origin": any path answers an empty page, under whatever name the browser used.
        attacker = http.createServer((_req, res) => {
            res.writeHead(200, {"content-type": "text/html"});
            res.end("<!doctype html><title>another site</title>");
        });
        await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
        pagePort = (attacker.address() as AddressInfo).port;
        const model = await ensureTinyGguf();
        app = await startWebGateway({model});
        appEngineUrl = (await readGatewayState(app)).state.engine.url!;
        keyless = await startEngine({model, args: ["--cors-origins", `http://allowed.example:${pagePort}`]});
        keyed = await startEngine({model, apiKey: key});
        browser = await launchChromium(["--host-resolver-rules=MAP evil.example 127.0.0.1, MAP allowed.example 127.0.0.1",
            "--disable-features=LocalNetworkAccessChecks"]);
    });

    after(async () => {
        await browser?.close();
        await Promise.all([app?.stop(), keyless?.stop(), keyed?.stop()]);
        await new Promise((resolve) => attacker?.close(resolve));
    });

    /** A page at `origin`: served by the attacker's server, or, for a rebinding name on an engine's port, by Playwright. */
    async function openPage(origin: string): Promise<Page> {
        const page = await browser.newPage();
        page.on("response", (response) => received.push({method: response.request().method(), url: response.url(), status: response.status(),
            allowOrigin: response.headers()["access-control-allow-origin"]}));
        if (!origin.endsWith(`:${pagePort}`))
            await page.route(`${origin}/`, (route) => route.fulfill({contentType: "text/html", body: "<!doctype html><title>rebound</title>"}));
        await page.goto(`${origin}/`);
        return page;
    }

    function pageFetch(page: Page, url: string, init: {method?: string, mode?: "cors" | "no-cors", headers?: Record<string, string>, body?: string} = {}): Promise<Outcome> {
        return page.evaluate(async ({url, init}) => {
            try {
                const response = await fetch(url, init);
                const text = await response.text();
                let code: string | undefined;
                try {
                    code = JSON.parse(text).error?.code;
                } catch {
                    code = undefined;
                }
                return {status: response.status, type: response.type, code};
            } catch (error) {
                return {error: String(error)};
            }
        }, {url, init});
    }

    /** The status and CORS header of the last `method url` answer: what the engine said, even where the page cannot read it. */
    function lastReceived(method: string, url: string): Omit<Received, "method" | "url"> | undefined {
        const found = received.findLast((entry) => entry.method === method && entry.url === url);
        return found == null ? undefined : {status: found.status, allowOrigin: found.allowOrigin};
    }

    const simplePost = {method: "POST", mode: "no-cors", headers: {"content-type": "text/plain"}, body: chatBody} as const;
    const jsonPost = {method: "POST", headers: {"content-type": "application/json"}, body: chatBody};

    test("the app's engine (npm run web): refused with and without preflight, and under a rebinding Host", async () => {
        const page = await openPage(`http://evil.example:${pagePort}`);
        const chat = `${appEngineUrl}/svc-1/v1/chat/completions`;
        const models = `${appEngineUrl}/svc-1/v1/models`;
        // A "simple" request: no preflight, the answer opaque to the page; the engine said 401.
        assert.deepEqual(await pageFetch(page, chat, simplePost), {status: 0, type: "opaque", code: undefined});
        assert.equal(lastReceived("POST", chat)?.status, 401);
        // JSON needs a preflight, which a keyed engine grants (spec §4: CORS *); the request itself has no key.
        assert.deepEqual(await pageFetch(page, chat, jsonPost), {status: 401, type: "cors", code: "invalid_api_key"});
        assert.deepEqual(await pageFetch(page, models), {status: 401, type: "cors", code: "invalid_api_key"});

        // DNS rebinding: the page's own name now resolves to the engine, so its requests are same-origin.
        const rebound = await openPage(`http://evil.example:${new URL(appEngineUrl).port}`);
        assert.deepEqual(await pageFetch(rebound, "/svc-1/v1/chat/completions", jsonPost), {status: 401, type: "basic", code: "invalid_api_key"});
        assert.deepEqual(await pageFetch(rebound, "/svc-1/v1/models"), {status: 401, type: "basic", code: "invalid_api_key"});
        await Promise.all([page.close(), rebound.close()]);
    });

    test("a keyless engine: other origins and rebinding Hosts are refused; loopback and --cors-origins pages are served", async () => {
        const chat = `${keyless.url}/svc-1/v1/chat/completions`;
        const models = `${keyless.url}/svc-1/v1/models`;
        const evil = await openPage(`http://evil.example:${pagePort}`);
        assert.deepEqual(await pageFetch(evil, chat, simplePost), {status: 0, type: "opaque", code: undefined});
        assert.equal(lastReceived("POST", chat)?.status, 403, "the engine refused the origin");
        // The preflight is refused, so the browser never sends the request; a GET's answer carries no CORS header.
        // Chromium reports neither to Playwright, so the same requests from here show what the engine said.
        assert.match((await pageFetch(evil, chat, jsonPost) as {error: string}).error, /Failed to fetch/);
        assert.match((await pageFetch(evil, models) as {error: string}).error, /Failed to fetch/);
        const evilOrigin = {"origin": `http://evil.example:${pagePort}`};
        const preflight = await fetch(chat, {method: "OPTIONS", headers: {...evilOrigin, "access-control-request-method": "POST", "access-control-request-headers": "content-type"}});
        assert.equal(preflight.status, 403);
        assert.equal(preflight.headers.get("access-control-allow-origin"), null);
        const listing = await fetch(models, {headers: evilOrigin});
        assert.equal(listing.status, 403);
        assert.equal((await listing.json()).error.code, "origin_not_allowed");

        const rebound = await openPage(`http://evil.example:${new URL(keyless.url).port}`);
        assert.deepEqual(await pageFetch(rebound, "/svc-1/v1/models"), {status: 403, type: "basic", code: "invalid_host"});
        assert.deepEqual(await pageFetch(rebound, "/svc-1/v1/chat/completions", jsonPost), {status: 403, type: "basic", code: "invalid_host"});

        // The controls: an origin listed with --cors-origins, and a loopback one, can use it.
        const allowedOrigin = `http://allowed.example:${pagePort}`;
        const allowed = await openPage(allowedOrigin);
        assert.deepEqual(await pageFetch(allowed, chat, jsonPost), {status: 200, type: "cors", code: undefined});
        assert.deepEqual(lastReceived("POST", chat), {status: 200, allowOrigin: allowedOrigin});
        // Even a let-in origin cannot POST anything but JSON (spec §4): 415 before the body is read.
        await pageFetch(allowed, chat, simplePost);
        assert.equal(lastReceived("POST", chat)?.status, 415);
        const loopbackOrigin = `http://127.0.0.1:${pagePort}`;
        const loopback = await openPage(loopbackOrigin);
        assert.deepEqual(await pageFetch(loopback, models), {status: 200, type: "cors", code: undefined});
        assert.deepEqual(lastReceived("GET", models), {status: 200, allowOrigin: loopbackOrigin});
        await Promise.all([evil.close(), rebound.close(), allowed.close(), loopback.close()]);
    });

    test("an engine started with --api-key: the same page can use it with the key, under CORS *", async () => {
        const page = await openPage(`http://evil.example:${pagePort}`);
        const chat = `${keyed.url}/svc-1/v1/chat/completions`;
        const withKey = {...jsonPost, headers: {...jsonPost.headers, authorization: `Bearer ${key}`}};
        assert.deepEqual(await pageFetch(page, chat, withKey), {status: 200, type: "cors", code: undefined});
        assert.deepEqual(lastReceived("POST", chat), {status: 200, allowOrigin: "*"});
        assert.deepEqual(await pageFetch(page, chat, jsonPost), {status: 401, type: "cors", code: "invalid_api_key"});
        await page.close();
    });
});
