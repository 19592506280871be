import assert from "node:assert/strict";
import {copyFile, mkdir, mkdtemp, readdir, readFile, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, before, test} from "node:test";
import {ensureTinyGguf} from "../../test/fixtures/gguf/ensureTinyGguf.ts";
import {ensureTinyVisionGguf} from "../../test/fixtures/gguf/ensureTinyVisionGguf.ts";
import {gradientPng} from "../../test/fixtures/images/encodePng.ts";
import {tinyMmprojImageTokens} from "../../test/fixtures/gguf/buildTinyMmproj.ts";
import {ModelLibrary} from "../../native/library/ModelLibrary.ts";
import {catalog} from "../../native/library/catalog.ts";
import {startModelFileServer, type ModelFileServer, type ServedFile} from "../../test/support/startModelFileServer.ts";
import {ConnectionStore} from "../connections/ConnectionStore.ts";
import {EngineSupervisor} from "../engine/EngineSupervisor.ts";
import {Gateway} from "../gateway/Gateway.ts";
import {MemoryKeyVault} from "../secrets/KeyVault.ts";
import {ModelDownloads} from "./ModelDownloads.ts";

import {gatewayRequest} from "../../test/support/gateway/gatewayRequest.ts";
import {waitForStatus} from "../../test/support/gateway/waitForStatus.ts";
import type {CatalogModel, DownloadJob, ModelsState} from "../../protocol/gateway/contract.ts";

const tinyModel = await ensureTinyGguf();
const gguf = await readFile(tinyModel);
const tinyVision = await ensureTinyVisionGguf();
/** The tiny vision pair's projector, served under a generic name (as Gemma 3's repository names it): 404 until a test lifts it. */
const servedProjector: ServedFile = {body: await readFile(tinyVision.mmprojPath), status: 404};
const root = await mkdtemp(path.join(os.tmpdir(), "svc-gateway-models-"));
const libraryDir = path.join(root, "models");
const library = new ModelLibrary(libraryDir);
// No model chosen: the supervisor starts with whatever the library's default is.
const supervisor = new EngineSupervisor({threads: 1, gpu: "off"});
let files: ModelFileServer;
let gateway: Gateway;

before(async () => {
    await mkdir(libraryDir, {recursive: true});
    await copyFile(tinyModel, path.join(libraryDir, "a-local.gguf"));
    files = await startModelFileServer({
        "/tiny-chat.gguf": {body: gguf},
        "/slow.gguf": {body: gguf, chunkBytes: 8 * 1024, chunkDelayMs: 50},
        "/tiny-vision.gguf": {body: await readFile(tinyVision.modelPath)},
        "/mmproj-model-f16.gguf": servedProjector
    });
    // The real catalog and one vision model more whose files the local server holds, shaped as the catalog's own.
    const realVision = catalog.find((entry) => entry.projector != null)!;
    const visionEntry: CatalogModel = {...realVision, id: "tiny-vision", uri: `${files.url}/tiny-vision.gguf`,
        projector: {...realVision.projector!, uri: `${files.url}/mmproj-model-f16.gguf`, fileName: "mmproj-tiny-vision.gguf"}};
    gateway = await Gateway.start({
        mode: "web",
        supervisor,
        connections: ConnectionStore.inMemory(),
        vault: new MemoryKeyVault(),
        rendererDir: root,
        library,
        downloads: new ModelDownloads(library, {retryDelayMs: 10, progressIntervalMs: 0, catalog: [...catalog, visionEntry]}),
        lifecycle: {autoStart: true, idleUnloadMinutes: 0}
    });
});

after(async () => {
    await gateway?.close();
    await files?.close();
    await rm(root, {recursive: true, force: true});
});

async function call(pathname: string, options: {method?: string, body?: unknown} = {}) {
    const answer = await gatewayRequest(gateway.url.replace(/\/$/, "") + pathname, {...options, headers: {"x-gateway-token": gateway.token}});
    return {status: answer.status, json: JSON.parse(answer.body)};
}

async function models(): Promise<ModelsState> {
    const answer = await call("/gateway/api/models");
    assert.equal(answer.status, 200);
    return answer.json;
}

async function finished(id: string): Promise<DownloadJob> {
    for (let i = 0; i < 200; i++) {
        const {json} = await call("/gateway/api/models/downloads");
        const job = (json.downloads as DownloadJob[]).find((candidate) => candidate.id === id)!;
        if (job.status !== "downloading") return job;
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`download ${id} did not finish`);
}

test("GET /models: the library with header facts, the catalog, the stopped engine and the settings", async () => {
    const state = await models();
    assert.equal(state.dir, libraryDir);
    assert.deepEqual(state.models.map((model) => model.id), ["a-local.gguf"]);
    assert.equal(state.models[0].info?.chatWrapper, "ChatML");
    assert.equal(state.defaultId, "a-local.gguf");
    assert.equal(state.catalog.length, catalog.length + 1);
    assert.ok(state.catalog.every((entry) => (entry.uri.startsWith("hf:") || entry.id === "tiny-vision") && entry.installedId == null && /approximate/.test(entry.sizeLabel)));
    assert.equal(state.active.status, "stopped");
    assert.deepEqual(state.settings, {autoStart: true, idleUnloadMinutes: 0});
    assert.equal((await call("/gateway/api/models", {method: "PUT"})).status, 404);
});

test("a download runs in the background with progress, lands in the library and becomes the default", async () => {
    const started = await call("/gateway/api/models/download", {body: {source: `${files.url}/tiny-chat.gguf`}});
    assert.equal(started.status, 202);
    assert.equal(started.json.download.status, "downloading");
    assert.equal(started.json.download.fileName, "tiny-chat.gguf");
    const job = await finished(started.json.download.id);
    assert.equal(job.status, "done", JSON.stringify(job.error));
    assert.equal(job.receivedBytes, gguf.length);
    assert.equal(job.modelId, "tiny-chat.gguf");
    const state = await models();
    assert.deepEqual(state.models.map((model) => model.id), ["a-local.gguf", "tiny-chat.gguf"]);
    assert.equal(state.defaultId, "tiny-chat.gguf");
    assert.equal(state.defaultIsExplicit, true);
});

test("download failures and cancel are reported per job; bad requests are 400", async () => {
    const missing = await call("/gateway/api/models/download", {body: {source: `${files.url}/missing.gguf`}});
    const failed = await finished(missing.json.download.id);
    assert.equal(failed.status, "failed");
    assert.equal(failed.error?.code, "http_error");
    assert.match(failed.error?.message ?? "", /HTTP 404/);

    const slow = await call("/gateway/api/models/download", {body: {source: `${files.url}/slow.gguf`}});
    assert.equal((await call("/gateway/api/models/download", {body: {source: `${files.url}/slow.gguf`}})).status, 409, "one download per file");
    const cancelled = await call(`/gateway/api/models/downloads/${slow.json.download.id}`, {method: "DELETE"});
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.json.download.status, "cancelled");
    assert.ok(!(await readdir(libraryDir)).some((name) => name.startsWith("slow")), "the partial file is removed");

    for (const body of [{}, {source: "ftp://x/y.gguf"}, {catalogId: "nope"}, {source: "hf:a/b/c.gguf", sha256: "12"}, {source: "hf:a/b/c.gguf", extra: 1}])
        assert.equal((await call("/gateway/api/models/download", {body})).status, 400, JSON.stringify(body));
});

test("choosing the default and roles; unknown models are 404", async () => {
    const chosen = await call("/gateway/api/models/a-local.gguf/default", {method: "POST"});
    assert.equal(chosen.status, 200);
    assert.equal(chosen.json.defaultId, "a-local.gguf");
    const role = await call("/gateway/api/models/roles", {body: {role: "svc-1-decision", modelId: "tiny-chat.gguf"}});
    assert.equal(role.status, 200);
    assert.equal(role.json.roles["svc-1-decision"], "tiny-chat.gguf");
    const unknown = await call("/gateway/api/models/nope.gguf/default", {method: "POST"});
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error.code, "model_not_found");
    assert.equal((await call("/gateway/api/models/roles", {body: {role: "svc-9", modelId: null}})).status, 400);
});

test("a /local request while stopped loads the default model; idle unload stops it; engine/start takes a library id", async () => {
    assert.equal(supervisor.status().status, "stopped");
    const first = await call("/local/svc-1/v1/models");
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.equal(supervisor.status().model, path.join(libraryDir, "a-local.gguf"));
    assert.equal((await models()).active.modelId, "a-local.gguf");

    // Idle unload after ~0.3 s without requests.
    const settings = await call("/gateway/api/models/settings", {body: {idleUnloadMinutes: 0.005}});
    assert.equal(settings.json.settings.idleUnloadMinutes, 0.005);
    await waitForStatus(supervisor, (status) => status.status === "stopped", 10_000);
    const state = await models();
    assert.equal(state.active.status, "stopped");
    assert.equal(state.active.unloadedForIdle, true);

    // Off again; then start a library model by id.
    await call("/gateway/api/models/settings", {body: {idleUnloadMinutes: 0}});
    const start = await call("/gateway/api/engine/start", {body: {modelId: "tiny-chat.gguf"}});
    assert.equal(start.status, 200);
    assert.equal(start.json.engine.status, "running", JSON.stringify(start.json.engine));
    assert.equal(start.json.engine.model, path.join(libraryDir, "tiny-chat.gguf"));
    assert.equal((await call("/gateway/api/models/tiny-chat.gguf", {method: "DELETE"})).status, 409, "the loaded model cannot be deleted");
    assert.equal((await call("/gateway/api/engine/start", {body: {modelId: "nope.gguf"}})).status, 404);
});

test("a catalog vision model downloads with its projector, paired by name; started from the library, the engine reads images", async () => {
    const download = async () => {
        const started = await call("/gateway/api/models/download", {body: {catalogId: "tiny-vision"}});
        assert.equal(started.status, 202, JSON.stringify(started.json));
        assert.deepEqual(started.json.download.projector, {fileName: "mmproj-tiny-vision.gguf", url: `${files.url}/mmproj-model-f16.gguf`, receivedBytes: 0, done: false});
        return finished(started.json.download.id);
    };
    const entry = async () => (await models()).catalog.find((candidate) => candidate.id === "tiny-vision")!;
    // The projector cannot be had: the job fails, and the model alone does not count as the catalog model installed.
    const failed = await download();
    assert.equal(failed.status, "failed");
    assert.equal(failed.error?.code, "http_error");
    assert.equal(failed.projector?.done, false);
    assert.ok((await models()).models.some((model) => model.id === "tiny-vision.gguf" && model.mmproj == null));
    assert.equal((await entry()).installedId, undefined);

    // Download again: the model already there is kept, the projector is fetched under the name that pairs it.
    delete servedProjector.status;
    const before = files.requests.filter((request) => request.path === "/tiny-vision.gguf").length;
    const job = await download();
    assert.equal(job.status, "done", JSON.stringify(job.error));
    assert.equal(job.modelId, "tiny-vision.gguf");
    assert.deepEqual(job.projector, {fileName: "mmproj-tiny-vision.gguf", url: `${files.url}/mmproj-model-f16.gguf`,
        receivedBytes: servedProjector.body.length, totalBytes: servedProjector.body.length, done: true});
    assert.equal(files.requests.filter((request) => request.path === "/tiny-vision.gguf").length, before, "the model is not fetched twice");
    const state = await models();
    assert.equal(state.models.find((model) => model.id === "tiny-vision.gguf")?.mmproj, "mmproj-tiny-vision.gguf");
    assert.deepEqual(state.projectors?.map(({id, pairedWith}) => ({id, pairedWith})), [{id: "mmproj-tiny-vision.gguf", pairedWith: "tiny-vision.gguf"}]);
    assert.equal((await entry()).installedId, "tiny-vision.gguf");
    // Saved under another name, the model takes its projector along under the name that pairs with it.
    const renamed = await call("/gateway/api/models/download", {body: {catalogId: "tiny-vision", fileName: "renamed-eye.gguf"}});
    assert.equal(renamed.json.download.projector.fileName, "mmproj-renamed-eye.gguf");
    assert.equal((await finished(renamed.json.download.id)).status, "done");
    assert.equal((await models()).models.find((model) => model.id === "renamed-eye.gguf")?.mmproj, "mmproj-renamed-eye.gguf");

    // Chosen in the library, the engine is started with --model only and finds its projector beside it.
    const start = await call("/gateway/api/engine/start", {body: {modelId: "tiny-vision.gguf"}});
    assert.equal(start.json.engine.status, "running", JSON.stringify(start.json.engine));
    assert.equal(start.json.engine.mmproj, path.join(libraryDir, "mmproj-tiny-vision.gguf"));
    assert.equal((await models()).active.mmproj, "mmproj-tiny-vision.gguf");
    const image = `data:image/png;base64,${Buffer.from(gradientPng()).toString("base64")}`;
    const reply = await call("/local/svc-1/v1/chat/completions", {body: {model: "svc-1", max_tokens: 1,
        messages: [{role: "user", content: [{type: "image_url", image_url: {url: image}}, {type: "text", text: "What is it?"}]}]}});
    assert.equal(reply.status, 200, JSON.stringify(reply.json));
    assert.ok(reply.json.usage.prompt_tokens > tinyMmprojImageTokens, "the image was read as input tokens");

    // Back to a model without a projector: the status says it cannot see.
    const blind = await call("/gateway/api/engine/start", {body: {modelId: "a-local.gguf"}});
    assert.equal(blind.json.engine.status, "running");
    assert.equal(blind.json.engine.mmproj, undefined);
});

test("GET /models/gpu: the detection report, made in a child process", async () => {
    const answer = await call("/gateway/api/models/gpu");
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    const report = answer.json.gpu;
    assert.equal(report.platform, process.platform);
    assert.ok(Array.isArray(report.backends));
    assert.equal(report.best, report.backends.find((backend: {usable: boolean}) => backend.usable)?.type ?? false);
});
