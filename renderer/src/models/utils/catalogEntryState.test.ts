import {test} from "node:test";
import assert from "node:assert/strict";
import type {CatalogEntry, DownloadJob} from "../types.ts";
import {catalogEntryState, catalogFileName} from "./catalogEntryState.ts";

const entry: CatalogEntry = {
    id: "qwen3-0.6b-q8_0", name: "Qwen3 0.6B (Q8_0)", uri: "hf:Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf", approxSizeBytes: 640_000_000,
    sizeLabel: "≈ 640 MB", parameters: "0.6B", quantization: "Q8_0", roles: ["svc-1"], description: "", license: "Apache-2.0"
};
const job = (fields: Partial<DownloadJob>): DownloadJob => ({
    id: "dl_1", source: entry.uri, url: "https://huggingface.co/x", fileName: "Qwen3-0.6B-Q8_0.gguf", status: "downloading",
    receivedBytes: 10, bytesPerSecond: 1, attempt: 1, startedAt: "2025-01-01T00:00:00.000Z", ...fields
});

test("the file name is the last segment of the hf: URI", () => {
    assert.equal(catalogFileName(entry), "Qwen3-0.6B-Q8_0.gguf");
});

test("installed wins; else a running download of the same file; else available", () => {
    assert.deepEqual(catalogEntryState({...entry, installedId: "Qwen3-0.6B-Q8_0.gguf"}, [job({})]), {kind: "installed", modelId: "Qwen3-0.6B-Q8_0.gguf"});
    const running = job({id: "dl_2"});
    assert.deepEqual(catalogEntryState(entry, [job({id: "dl_0", status: "failed"}), running]), {kind: "downloading", job: running});
    assert.deepEqual(catalogEntryState(entry, [job({status: "failed"}), job({fileName: "other.gguf"})]), {kind: "available"});
});
