// The Models screen from a user's side: a library holding the tiny fixture, downloads from a local file server
// (progress, a retry, a cancel, a 404, an HTML page), default and roles, loading a model into the engine, the GPU
// panel, the lifecycle settings, and the first-run card once the library is empty.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {copyFile, mkdtemp, readdir, readFile, rm, writeFile} from "node:fs/promises";
import {createServer, type Server} from "node:http";
import type {AddressInfo} from "node:net";
import os from "node:os";
import path from "node:path";
import type {Browser, Locator, Page} from "playwright-core";
import {catalog} from "../../native/library/catalog.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {readModelFileInfo} from "../../native/library/modelFile.ts";
import {startModelFileServer, type ModelFileServer} from "../support/startModelFileServer.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {screenshot} from "./utils/screenshot.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";
import {gatewayApi} from "./utils/gatewayApi.ts";
import {controlsOutside} from "./utils/controlsOutside.ts";
import {freePort} from "../support/ports.ts";

const installed = "tiny-chatml.gguf";
/** Bytes of `stale.gguf` an earlier, interrupted download left in the library. */
const staleBytes = 300_000;

describe("models screen: library, downloads, GPU and engine", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let dir: string;
    let files: ModelFileServer;
    let flaky: {url: string, close: () => Promise<void>};
    let gateway: WebGateway;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    /** The gateway's own answer, read with the page's launch token (to check the UI against). */
    const api = <T,>(route: string): Promise<T> => gatewayApi<T>(page, route);
    const row = (id: string) => page.getByTestId(`model-row-${id}`);
    const download = (fileName: string) => page.getByTestId(`download-${fileName}`).first();
    /** The download of `fileName` once it has reached `status`. */
    const ended = (fileName: string, status: string) => page.locator(`[data-testid='download-${fileName}'][data-status=${status}]`).first();
    const startDownload = async (source: string) => {
        await page.getByTestId("download-source").fill(source);
        await page.getByTestId("download-start").click();
    };
    const show = (locator: Locator) => locator.evaluate((element) => element.scrollIntoView({block: "start"}));

    before(async () => {
        ensureRendererBuilt();
        const fixture = await ensureTinyGguf();
        const body = await readFile(fixture);
        dir = await mkdtemp(path.join(os.tmpdir(), "svc-models-ui-"));
        await copyFile(fixture, path.join(dir, installed));
        files = await startModelFileServer({
            // About 3.5 s: long enough to watch the bar move.
            "/files/tiny-downloaded.gguf": {body, chunkBytes: 64 * 1024, chunkDelayMs: 250},
            "/files/tiny-retried.gguf": {body},
            "/files/stale.gguf": {body},
            "/files/tiny-slow.gguf": {body, chunkBytes: 8 * 1024, chunkDelayMs: 300},
            // What a Hugging Face "blob" link answers: the file's web page.
            "/user/repo/blob/main/page.gguf": {body: Buffer.from("<!doctype html><html><body>model page</body></html>"), contentType: "text/html; charset=utf-8"}
        });
        // An interrupted download, as downloadModel leaves it: the bytes so far, and where they came from.
        await writeFile(path.join(dir, "stale.gguf.part"), body.subarray(0, staleBytes));
        await writeFile(path.join(dir, "stale.gguf.part.json"), JSON.stringify({url: `${files.url}/files/stale.gguf`}));
        flaky = await startFlakyRedirect(`${files.url}/files/tiny-retried.gguf`);
        gateway = await startWebGateway({model: path.join(dir, installed), env: {SVC_STUDIO_MODELS_DIR: dir}});
        browser = await launchChromium();
        page = await browser.newPage({viewport: {width: 1440, height: 1000}, colorScheme: "dark"});
        page.on("pageerror", (error) => pageErrors.push(error.message));
        await page.goto(gateway.url);
        await page.getByTestId("nav-models").click();
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
        await flaky?.close();
        await files?.close();
        if (dir) await rm(dir, {recursive: true, force: true});
    });

    test("the library row shows what the GGUF header says, the default marker, and that it is loaded", async () => {
        const info = await readModelFileInfo(path.join(dir, installed));
        const model = row(installed);
        await model.waitFor();
        assert.equal(await model.getByTestId("model-architecture").textContent(), info.architecture);
        assert.equal(await model.getByTestId("model-parameters").textContent(), info.parameterLabel ?? "—");
        assert.equal(await model.getByTestId("model-quantization").textContent(), info.quantization ?? "—");
        assert.equal(await model.getByTestId("model-context").textContent(), info.contextLength?.toLocaleString("en-US") ?? "—");
        assert.equal(await model.getByTestId("cap-template").getAttribute("data-on"), String(info.hasChatTemplate));
        assert.equal(await model.getByTestId("cap-thinks").getAttribute("data-on"), String(info.canThink));
        assert.equal(await model.getByTestId("cap-tools").getAttribute("data-on"), String(info.canCallTools));
        assert.equal(await model.getByTestId("cap-vision").getAttribute("data-on"), "false", "no projector beside it: it cannot read images");
        assert.match(await model.getByTestId("model-size").textContent() ?? "", /^\d+(\.\d+)? KiB$/);
        await model.getByTestId("default-marker").waitFor();
        await model.getByTestId("loaded-marker").waitFor();
        assert.equal(await model.getByTestId("role-svc-1").getAttribute("aria-pressed"), "true");
        assert.ok(await model.getByTestId("delete-model").isDisabled(), "the loaded model cannot be deleted");
        assert.ok(await model.getByTestId("load-model").isDisabled(), "the loaded model is not loaded again");
        assert.equal(await page.getByTestId("models-dir").textContent(), dir);
        assert.match(await page.getByTestId("partial-stale.gguf").textContent() ?? "", /stale\.gguf293 KiB received/);
        // The count is of the models listed: the library's file and the built-in model.
        const count = page.getByTestId("library-count");
        assert.equal(await count.textContent(), "2 models");
        assert.equal(await count.getAttribute("title"), "Models listed below: 1 GGUF file in the library folder and the built-in stories260K, which ships with the app");
        await screenshot(page, "models-library");
    });

    test("at 1024x768 and 1440x900 the library's roles and actions stay inside its card", async () => {
        for (const [width, height] of [[1024, 768], [1440, 900]]) {
            await page.setViewportSize({width, height});
            await show(page.getByTestId("models-library"));
            assert.deepEqual(await controlsOutside(page.getByTestId("models-library")), [], `${width}x${height}`);
            await screenshot(page, `models-library-${width}`);
        }
        await page.setViewportSize({width: 1440, height: 1000});
    });

    test("the GPU panel names each backend with its reason, and the engine panel shows CPU, threads and context", async () => {
        const {gpu} = await api<{gpu: {best: string | false, backends: Array<{type: string, usable: boolean, reason?: string}>}}>("/models/gpu");
        const verdict = page.getByTestId("gpu-verdict");
        await verdict.waitFor({timeout: 60_000});
        assert.match(await verdict.textContent() ?? "", gpu.best === false ? /No usable GPU: models run on the CPU/ : new RegExp(`GPU with`));
        assert.ok(gpu.backends.length > 0);
        for (const backend of gpu.backends) {
            const item = page.getByTestId(`gpu-backend-${backend.type}`);
            assert.equal(await item.getAttribute("data-usable"), String(backend.usable));
            if (!backend.usable) assert.equal(await item.getByTestId("gpu-reason").textContent(), backend.reason);
        }
        const {engine} = await api<{engine: {status: string, gpu?: string | false, threads?: number, contextSize?: number}}>("/state");
        assert.equal(engine.status, "running");
        assert.equal(await page.getByTestId("models-engine-status").textContent(), "running");
        assert.equal(await page.getByTestId("models-engine-model").textContent(), installed);
        // The gateway started the engine with --gpu off.
        assert.equal(await page.getByTestId("models-engine-compute").textContent(), "CPU");
        assert.equal(engine.gpu, false);
        assert.equal(await page.getByTestId("models-engine-threads").textContent(), String(engine.threads));
        assert.equal(await page.getByTestId("models-engine-context").textContent(), `${engine.contextSize?.toLocaleString("en-US")} tokens`);
        await show(page.getByTestId("models-engine"));
        await screenshot(page, "models-gpu");
    });

    test("a bad link, a 404 and an HTML page each fail with a clear error", async () => {
        await show(page.getByTestId("models-download"));
        await startDownload("models/tiny.gguf");
        const refused = page.getByTestId("download-request-error");
        await refused.waitFor();
        assert.match(await refused.textContent() ?? "", /Not a model link/);
        assert.equal(await refused.getByTestId("api-error-status").textContent(), "HTTP 400");
        assert.equal(await refused.getByTestId("api-error-code").textContent(), "code: invalid_model_source");
        assert.match(await refused.getByTestId("api-error-message").textContent() ?? "", /not a URL or hf: source/);
        await screenshot(page, "models-bad-link");
        // Editing the field clears the refusal.
        await page.getByTestId("download-source").fill("");
        await refused.waitFor({state: "detached"});

        await startDownload(`${files.url}/files/missing.gguf`);
        const missing = download("missing.gguf");
        await ended("missing.gguf", "failed").waitFor({timeout: 30_000});
        assert.equal(await missing.getByTestId("download-error-code").textContent(), "http_error");
        assert.match(await missing.getByTestId("download-error-message").textContent() ?? "", /HTTP 404 .*no such file/);
        assert.match(await missing.getByTestId("download-error").textContent() ?? "", /The server refused the download/);

        await startDownload(`${files.url}/user/repo/blob/main/page.gguf`);
        const html = download("page.gguf");
        await ended("page.gguf", "failed").waitFor({timeout: 30_000});
        assert.equal(await html.getByTestId("download-error-code").textContent(), "not_gguf");
        assert.match(await html.getByTestId("download-error-message").textContent() ?? "", /HTML page.*\/resolve\/, not \/blob\//);
        assert.match(await html.getByTestId("download-error").textContent() ?? "", /Not a GGUF model file/);
        // Nothing was added, nothing was left behind.
        assert.deepEqual((await readdir(dir)).filter((name) => /^(missing|page)\b/.test(name)), []);
        assert.equal(await page.locator("[data-testid^=model-row-]").count(), 2, "the installed model and the built-in one");
        await screenshot(page, "models-errors");
    });

    test("a host that refuses connections fails at once, saying what to check, with no retries", async () => {
        const port = await freePort();
        const startedAt = Date.now();
        await startDownload(`http://127.0.0.1:${port}/files/nowhere.gguf`);
        const job = download("nowhere.gguf");
        await ended("nowhere.gguf", "failed").waitFor({timeout: 30_000});
        const seconds = (Date.now() - startedAt) / 1000;
        assert.ok(seconds < 5, `failed after ${seconds} s (the gateway's retries would take over 30 s)`);
        assert.equal(await job.getByTestId("download-error-code").textContent(), "unreachable");
        assert.match(await job.getByTestId("download-error").textContent() ?? "", /^Server not reachable/);
        assert.match(await job.getByTestId("download-error-message").textContent() ?? "",
            new RegExp(`nothing accepts connections at 127\\.0\\.0\\.1:${port} \\(connection refused\\): check the address and port, or start that server`));
        assert.equal(await job.getByText(/attempt \d/).count(), 0, "no second attempt");
    });

    test("an unfinished download resumes where it stopped", async () => {
        await page.getByTestId("partial-stale.gguf").getByRole("button", {name: "Resume"}).click();
        await ended("stale.gguf", "done").waitFor({timeout: 30_000});
        await row("stale.gguf").waitFor();
        await page.getByTestId("partial-downloads").waitFor({state: "detached"});
        const resumed = files.requests.filter((request) => request.path === "/files/stale.gguf");
        assert.deepEqual(resumed.map(({range, status}) => ({range, status})), [{range: `bytes=${staleBytes}-`, status: 206}]);
        assert.deepEqual(await readFile(path.join(dir, "stale.gguf")), await readFile(path.join(dir, installed)));
        // No default had been chosen (the first model was only implied), so the first download becomes the default.
        await row("stale.gguf").getByTestId("default-marker").waitFor();
        assert.equal(await row(installed).getByTestId("default-marker").count(), 0);
    });

    test("a download shows its progress live, then the model joins the library", async () => {
        await startDownload(`${files.url}/files/tiny-downloaded.gguf`);
        const job = download("tiny-downloaded.gguf");
        await job.waitFor();
        // Caught mid-way: the bar, the bytes of the total, the speed.
        await page.waitForFunction(() => {
            const bar = document.querySelector("[data-testid='download-tiny-downloaded.gguf'] [role=progressbar]");
            const value = Number(bar?.getAttribute("aria-valuenow"));
            return value > 0 && value < 100;
        }, undefined, {timeout: 20_000, polling: 100});
        assert.match(await job.getByTestId("download-figures").textContent() ?? "", /KiB of 903 KiB/);
        await job.getByTestId("download-speed").waitFor();
        assert.match(await job.getByTestId("download-speed").textContent() ?? "", /\/s$/);
        await show(page.getByTestId("models-download"));
        await screenshot(page, "models-downloading");

        await ended("tiny-downloaded.gguf", "done").waitFor({timeout: 30_000});
        assert.match(await job.getByTestId("download-done").textContent() ?? "", /Added to the library as tiny-downloaded\.gguf/);
        assert.equal(await job.getByTestId("download-bar").getAttribute("aria-valuenow"), "100");
        const added = row("tiny-downloaded.gguf");
        await added.waitFor();
        const info = await readModelFileInfo(path.join(dir, "tiny-downloaded.gguf"));
        assert.equal(await added.getByTestId("model-architecture").textContent(), info.architecture);
        // The first download made itself the default; a later one does not take it over.
        assert.equal(await added.getByTestId("default-marker").count(), 0);
        await row("stale.gguf").getByTestId("default-marker").waitFor();
        await show(page.getByTestId("models-library"));
        await screenshot(page, "models-downloaded");
    });

    test("a server that is busy at first: the retry notice shows, then the download finishes", async () => {
        await startDownload(`${flaky.url}/r/tiny-retried.gguf`);
        const job = download("tiny-retried.gguf");
        await job.getByTestId("download-retrying").waitFor({timeout: 15_000});
        assert.match(await job.getByTestId("download-retrying").textContent() ?? "", /retrying \(attempt 2\): HTTP 503/);
        await show(page.getByTestId("models-download"));
        await screenshot(page, "models-retrying");
        await ended("tiny-retried.gguf", "done").waitFor({timeout: 30_000});
        await row("tiny-retried.gguf").waitFor();
    });

    test("cancelling a download removes its partial file", async () => {
        await startDownload(`${files.url}/files/tiny-slow.gguf`);
        const job = download("tiny-slow.gguf");
        await job.getByTestId("download-speed").waitFor({timeout: 20_000});
        await job.getByTestId("download-cancel").click();
        await ended("tiny-slow.gguf", "cancelled").waitFor({timeout: 15_000});
        assert.equal(await row("tiny-slow.gguf").count(), 0);
        assert.ok(!(await readdir(dir)).some((name) => name.startsWith("tiny-slow")), "no .part file is left");
        assert.equal(await page.getByTestId("partial-downloads").count(), 0);
        // Seven downloads so far: the three oldest finished ones are folded away until asked for.
        assert.equal(await page.getByTestId("download-missing.gguf").count(), 0);
        await page.getByTestId("downloads-toggle").filter({hasText: "Show 3 older downloads"}).click();
        await download("missing.gguf").waitFor();
        await page.getByTestId("downloads-toggle").click();
        await page.getByTestId("download-missing.gguf").waitFor({state: "detached"});
    });

    test("setting the default and a role is kept by the gateway", async () => {
        await row(installed).getByTestId("set-default").click();
        await row(installed).getByTestId("default-marker").waitFor();
        assert.equal(await row("stale.gguf").getByTestId("default-marker").count(), 0);
        const decision = row("tiny-downloaded.gguf").getByTestId("role-svc-1-decision");
        assert.equal(await decision.getAttribute("aria-pressed"), "false");
        await decision.click();
        await row("tiny-downloaded.gguf").locator("[data-testid=role-svc-1-decision][aria-pressed=true]").waitFor();
        const state = await api<{defaultId: string, defaultIsExplicit: boolean, roles: Record<string, string>}>("/models");
        assert.equal(state.defaultId, installed);
        assert.equal(state.defaultIsExplicit, true);
        assert.deepEqual(state.roles, {"svc-1": installed, "svc-1-decision": "tiny-downloaded.gguf"});
        const saved = JSON.parse(await readFile(path.join(dir, "library.json"), "utf8")) as {defaultModel: string};
        assert.equal(saved.defaultModel, installed);
    });

    test("loading another model restarts the engine on it, and frees the first for deletion", async () => {
        await row("tiny-downloaded.gguf").getByTestId("load-model").click();
        await page.getByTestId("models-engine-model").filter({hasText: "tiny-downloaded.gguf"}).waitFor({timeout: 60_000});
        await page.getByTestId("models-engine-status").filter({hasText: "running"}).waitFor({timeout: 60_000});
        await row("tiny-downloaded.gguf").getByTestId("loaded-marker").waitFor();
        assert.equal(await row(installed).getByTestId("loaded-marker").count(), 0);
        assert.ok(await row("tiny-downloaded.gguf").getByTestId("delete-model").isDisabled());
        assert.ok(await row(installed).getByTestId("delete-model").isEnabled());
        const {engine} = await api<{engine: {status: string, model: string}}>("/state");
        assert.equal(engine.status, "running");
        assert.equal(engine.model, path.join(dir, "tiny-downloaded.gguf"));
        assert.match(await page.getByTestId("nav-engine-status").textContent() ?? "", /running/);
        await show(page.getByTestId("models-library"));
        await screenshot(page, "models-loaded");
    });

    test("the lifecycle settings are saved in the gateway", async () => {
        const autoStart = page.getByTestId("setting-auto-start");
        assert.ok(await autoStart.isChecked(), "npm run web starts with auto start on");
        await autoStart.uncheck();
        await page.waitForFunction(() => !(document.querySelector("[data-testid=setting-auto-start]") as HTMLInputElement).checked);
        await page.getByTestId("setting-idle-minutes").fill("15");
        await page.getByTestId("setting-idle-save").click();
        await page.getByTestId("setting-idle-save").and(page.locator(":disabled")).waitFor();
        const {settings} = await api<{settings: {autoStart: boolean, idleUnloadMinutes: number}}>("/models");
        assert.deepEqual(settings, {autoStart: false, idleUnloadMinutes: 15});
        await show(page.getByTestId("models-settings"));
        await screenshot(page, "models-settings");
    });

    test("with the engine stopped every model can be deleted, and the empty library shows the first-run card", async () => {
        await page.getByTestId("models-engine-stop").click();
        await page.getByTestId("models-engine-status").filter({hasText: "stopped"}).waitFor({timeout: 30_000});
        for (const id of [installed, "stale.gguf", "tiny-downloaded.gguf", "tiny-retried.gguf"]) {
            await row(id).getByTestId("delete-model").click();
            await row(id).getByTestId("confirm-delete").click();
            await row(id).waitFor({state: "detached"});
        }
        const card = page.getByTestId("models-first-run");
        await card.waitFor();
        const first = catalog.find((entry) => entry.roles.includes("svc-1"))!;
        assert.equal(await card.getByTestId("first-run-download").textContent(), `Download ${first.name}`);
        assert.equal(await card.getByTestId("first-run-size").textContent(), `${first.sizeLabel} · ${first.description}`);
        assert.match(await card.textContent() ?? "", new RegExp(dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
        assert.match(await card.textContent() ?? "", /built-in stories260K/);
        // The library card now lists only the built-in model, which has no roles and cannot be deleted.
        await page.getByTestId("models-library").waitFor();
        assert.equal(await page.locator("[data-testid^=model-row-]").count(), 1);
        const builtIn = row("stories260K");
        await builtIn.getByTestId("built-in-marker").waitFor();
        assert.equal(await page.getByTestId("library-count").textContent(), "1 model", "the built-in model beside an empty folder");
        assert.equal(await builtIn.getByTestId("delete-model").count(), 0);
        assert.equal(await builtIn.getByTestId("set-default").count(), 0);
        assert.equal(await builtIn.getByTestId("model-architecture").textContent(), "llama");
        assert.equal(await page.getByTestId("catalog-download").count(), catalog.length, "each recommended model has a Download button");
        assert.ok(await page.getByTestId("models-engine-start").isDisabled(), "no library default to start");
        assert.equal(await page.getByTestId("models-engine-model").textContent(), "tiny-downloaded.gguf (not in the library)");
        assert.deepEqual((await readdir(dir)).filter((name) => name.endsWith(".gguf")), []);
        await page.getByTestId("models-screen").evaluate((element) => element.scrollTo(0, 0));
        await screenshot(page, "models-first-run");
        // Loading the built-in model runs the engine on the file that ships with the app.
        await builtIn.getByTestId("load-model").click();
        await builtIn.getByTestId("loaded-marker").waitFor({timeout: 60_000});
        const {engine} = await api<{engine: {status: string, model: string}}>("/state");
        assert.equal(engine.status, "running");
        assert.match(engine.model, /resources[\\/]models[\\/]stories260K\.gguf$/);
        await show(page.getByTestId("models-library"));
        await screenshot(page, "models-built-in-loaded");
        assert.deepEqual(pageErrors, []);
    });
});

/** A server that is busy (503, Retry-After: 2) on the first request, then redirects to `target`: the download retries once. */
async function startFlakyRedirect(target: string): Promise<{url: string, close: () => Promise<void>}> {
    let requests = 0;
    const server: Server = createServer((_req, res) => {
        if (requests++ === 0) {
            res.writeHead(503, {"Retry-After": "2", "Content-Type": "text/plain"});
            return res.end("busy\n");
        }
        res.writeHead(302, {Location: target});
        res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
        })
    };
}
