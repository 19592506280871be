import assert from "node:assert/strict";
import {test} from "node:test";
import {fileNameOf, catalogEntryState, catalogFileName, visibleDownloads, downloadProgress, libraryCount, downloadErrorTitle} from "./models.ts";
import type {CatalogEntry, DownloadJob, LibraryModel} from "./types.ts";

test("the file name of POSIX and Windows paths", () => {
    assert.equal(fileNameOf("/home/me/.local/share/svc-studio/models/Qwen3-0.6B-Q8_0.gguf"), "Qwen3-0.6B-Q8_0.gguf");
    assert.equal(fileNameOf("C:\\Users\\me\\AppData\\Local\\svc-studio\\models\\tiny.gguf"), "tiny.gguf");
    assert.equal(fileNameOf("tiny.gguf"), "tiny.gguf");
});

const entry: CatalogEntry = {
    id: "qwen3-0.6b-q8_0", name: "Qwen3 0.6B (Q8_0)", uri: "hf:Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf", approxSizeBytes: 640_000_000,
    sizeLabel: "≈ 640 MB", parameters: "0.6B", quantization: "Q8_0", roles: ["svc-1"], description: "", license: "Apache-2.0"
};
const catalogJob = (fields: Partial<DownloadJob>): DownloadJob => ({
    id: "dl_1", source: entry.uri, url: "https://huggingface.co/x", fileName: "Qwen3-0.6B-Q8_0.gguf", status: "downloading",
    receivedBytes: 10, bytesPerSecond: 1, attempt: 1, startedAt: "2025-01-01T00:00:00.000Z", ...fields
});

test("the file name is the last segment of the hf: URI", () => {
    assert.equal(catalogFileName(entry), "Qwen3-0.6B-Q8_0.gguf");
});

test("installed wins; else a running download of the same file; else available", () => {
    assert.deepEqual(catalogEntryState({...entry, installedId: "Qwen3-0.6B-Q8_0.gguf"}, [catalogJob({})]), {kind: "installed", modelId: "Qwen3-0.6B-Q8_0.gguf"});
    const running = catalogJob({id: "dl_2"});
    assert.deepEqual(catalogEntryState(entry, [catalogJob({id: "dl_0", status: "failed"}), running]), {kind: "downloading", job: running});
    assert.deepEqual(catalogEntryState(entry, [catalogJob({status: "failed"}), catalogJob({fileName: "other.gguf"})]), {kind: "available"});
});

const jobWithStatus = (id: string, status: DownloadJob["status"]): DownloadJob => ({
    id, source: `http://127.0.0.1/${id}.gguf`, url: `http://127.0.0.1/${id}.gguf`, fileName: `${id}.gguf`, status,
    receivedBytes: 0, bytesPerSecond: 0, attempt: 1, startedAt: "2025-01-01T00:00:00.000Z"
});

test("running downloads always show; finished ones up to the limit, newest first as given", () => {
    const jobs = [jobWithStatus("a", "done"), jobWithStatus("b", "downloading"), jobWithStatus("c", "failed"), jobWithStatus("d", "cancelled"), jobWithStatus("e", "downloading"), jobWithStatus("f", "done")];
    const {shown, hidden} = visibleDownloads(jobs, false, 2);
    assert.deepEqual(shown.map((item) => item.id), ["a", "b", "c", "e"]);
    assert.equal(hidden, 2);
});

test("asking for all shows all", () => {
    const jobs = [jobWithStatus("a", "done"), jobWithStatus("b", "failed"), jobWithStatus("c", "done")];
    assert.deepEqual(visibleDownloads(jobs, true, 1), {shown: jobs, hidden: 0});
    assert.deepEqual(visibleDownloads(jobs, false, 5), {shown: jobs, hidden: 0});
});

const job = (fields: Partial<DownloadJob>): DownloadJob => ({
    id: "dl_1", source: "http://127.0.0.1/m.gguf", url: "http://127.0.0.1/m.gguf", fileName: "m.gguf", status: "downloading",
    receivedBytes: 0, bytesPerSecond: 0, attempt: 1, startedAt: "2025-01-01T00:00:00.000Z", ...fields
});

test("a running download with a known size: fraction, bytes of total, speed and time left", () => {
    const view = downloadProgress(job({receivedBytes: 512 * 1024, totalBytes: 2048 * 1024, bytesPerSecond: 256 * 1024, etaSeconds: 6}));
    assert.equal(view.fraction, 0.25);
    assert.equal(view.bytes, "512 KiB of 2.00 MiB");
    assert.equal(view.speed, "256 KiB/s");
    assert.equal(view.eta, "6 s left");
});

test("an unknown size leaves the bar indeterminate and shows the bytes received", () => {
    const view = downloadProgress(job({receivedBytes: 3000, bytesPerSecond: 0}));
    assert.equal(view.fraction, undefined);
    assert.equal(view.bytes, "2.93 KiB");
    assert.equal(view.speed, undefined, "no speed while nothing flows");
    assert.equal(view.eta, undefined);
});

test("a finished or failed download shows no speed or time left", () => {
    const done = downloadProgress(job({status: "done", receivedBytes: 100, totalBytes: 100, bytesPerSecond: 50, etaSeconds: 0}));
    assert.equal(done.fraction, 1);
    assert.equal(done.speed, undefined);
    assert.equal(done.eta, undefined);
    const failed = downloadProgress(job({status: "failed", receivedBytes: 40, totalBytes: 100, bytesPerSecond: 0}));
    assert.equal(failed.fraction, 0.4);
    assert.equal(failed.eta, undefined);
});

test("more bytes than announced never overflows the bar", () => {
    assert.equal(downloadProgress(job({receivedBytes: 150, totalBytes: 100})).fraction, 1);
});

test("a vision model's job: the model's figures first, then its projector's once the model is complete", () => {
    const projector = {fileName: "mmproj-m.gguf", url: "http://127.0.0.1/p.gguf", receivedBytes: 0, done: false};
    const model = downloadProgress(job({receivedBytes: 50, totalBytes: 100, projector}));
    assert.equal(model.fraction, 0.5);
    assert.equal(model.projector, undefined);
    const next = downloadProgress(job({receivedBytes: 100, totalBytes: 100, projector: {...projector, receivedBytes: 1024, totalBytes: 4096}}));
    assert.equal(next.projector, "mmproj-m.gguf");
    assert.equal(next.fraction, 0.25);
    assert.equal(next.bytes, "1.00 KiB of 4.00 KiB");
    const done = downloadProgress(job({status: "done", receivedBytes: 100, totalBytes: 100, projector: {...projector, receivedBytes: 4096, totalBytes: 4096, done: true}}));
    assert.equal(done.projector, undefined);
    assert.equal(done.fraction, 1);
});

const libraryModel = (id: string, fields: Partial<LibraryModel> = {}): LibraryModel =>
    ({id, path: `/models/${id}`, sizeBytes: 1, modifiedAt: "2025-01-01T00:00:00.000Z", roles: [], isDefault: false, ...fields});

test("the library's count is the models listed, the built-in one included, and says so on hover", () => {
    const builtIn = libraryModel("stories260K", {builtIn: true});
    assert.deepEqual(libraryCount({models: [], builtIn}),
        {label: "1 model", title: "Models listed below: 0 GGUF files in the library folder and the built-in stories260K, which ships with the app"});
    assert.deepEqual(libraryCount({models: [libraryModel("a.gguf"), libraryModel("b.gguf")], builtIn}).label, "3 models");
    assert.deepEqual(libraryCount({models: [libraryModel("a.gguf")]}), {label: "1 model", title: "Models listed below: 1 GGUF file in the library folder"});
});

test("a download that cannot reach its server is named apart from passing network faults", () => {
    assert.equal(downloadErrorTitle("unreachable"), "Server not reachable");
    assert.equal(downloadErrorTitle("network"), "Network problem");
});
