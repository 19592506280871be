import {test} from "node:test";
import assert from "node:assert/strict";
import type {DownloadJob} from "../types.ts";
import {visibleDownloads} from "./visibleDownloads.ts";

const job = (id: string, status: DownloadJob["status"]): DownloadJob => ({
    id, source: `http://127.0.0.1/${id}.gguf`, url: `http://127.0.0.1/${id}.gguf`, fileName: `${id}.gguf`, status,
    receivedBytes: 0, bytesPerSecond: 0, attempt: 1, startedAt: "2025-01-01T00:00:00.000Z"
});

test("running downloads always show; finished ones up to the limit, newest first as given", () => {
    const jobs = [job("a", "done"), job("b", "downloading"), job("c", "failed"), job("d", "cancelled"), job("e", "downloading"), job("f", "done")];
    const {shown, hidden} = visibleDownloads(jobs, false, 2);
    assert.deepEqual(shown.map((item) => item.id), ["a", "b", "c", "e"]);
    assert.equal(hidden, 2);
});

test("asking for all shows all", () => {
    const jobs = [job("a", "done"), job("b", "failed"), job("c", "done")];
    assert.deepEqual(visibleDownloads(jobs, true, 1), {shown: jobs, hidden: 0});
    assert.deepEqual(visibleDownloads(jobs, false, 5), {shown: jobs, hidden: 0});
});
