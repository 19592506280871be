import {test} from "node:test";
import assert from "node:assert/strict";
import type {DownloadJob} from "../types.ts";
import {downloadProgress} from "./downloadProgress.ts";

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
