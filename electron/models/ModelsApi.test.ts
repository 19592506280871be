import assert from "node:assert/strict";
import {copyFile, mkdir, mkdtemp, readdir, readFile, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, before, test} from "node:test";
import {ensureTinyGguf} from "../../test/fixtures/gguf/ensureTinyGguf.ts";
import {ModelLibrary} from "../../native/library/ModelLibrary.ts";
import {catalog} from "../../native/library/catalog.ts";
import {startModelFileServer, type ModelFileServer} from "../../test/support/startModelFileServer.ts";
import {ConnectionStore} from "../connections/ConnectionStore.ts";
import {EngineSupervisor} from "../engine/EngineSupervisor.ts";
import {Gateway} from "../gateway/Gateway.ts";
import {MemoryKeyVault} from "../secrets/KeyVault.ts";
import {ModelDownloads} from "./ModelDownloads.ts";

import {gatewayRequest} from "../../test/support/gateway/gatewayRequest.ts";
import {waitForStatus} from "../../test/support/gateway/waitForStatus.ts";
import type {DownloadJob, ModelsState} from "../../protocol/gateway/contract.ts";

const tinyModel = await ensureTinyGguf();
const gguf = await readFile(tinyModel);
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
        "/slow.gguf": {body: gguf, chunkBytes: 8 * 1024, chunkDelayMs: 50}
    });
    gateway = await Gateway.start({
        mode: "web",
        supervisor,
        connections: ConnectionStore.inMemory(),
        vault: new MemoryKeyVault(),
        rendererDir: root,
        library,
        downloads: new ModelDownloads(library, {retryDelayMs: 10, progressIntervalMs: 0}),
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
    assert.equal(state.catalog.length, catalog.length);
    assert.ok(state.catalog.every((entry) => entry.uri.startsWith("hf:") && entry.installedId == null && /approximate/.test(entry.sizeLabel)));
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

test("GET /models/gpu: the detection report, made in a child process", async () => {
    const answer = await call("/gateway/api/models/gpu");
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    const report = answer.json.gpu;
    assert.equal(report.platform, process.platform);
    assert.ok(Array.isArray(report.backends));
    assert.equal(report.best, report.backends.find((backend: {usable: boolean}) => backend.usable)?.type ?? false);
});
