import assert from "node:assert/strict";
import {createHash} from "node:crypto";
import {execFile} from "node:child_process";
import {mkdir, mkdtemp, readdir, readFile, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, before, test} from "node:test";
import {ensureTinyGguf} from "../../test/fixtures/gguf/ensureTinyGguf.ts";
import {startModelFileServer, type ModelFileServer} from "../../test/support/startModelFileServer.ts";
import {freePort} from "../../test/support/ports.ts";
import {DownloadError, downloadModel, unreachableFault, type DownloadProgress} from "./downloadModel.ts";

const gguf = await readFile(await ensureTinyGguf());
const ggufSha256 = createHash("sha256").update(gguf).digest("hex");
const root = await mkdtemp(path.join(os.tmpdir(), "svc-download-"));
let server: ModelFileServer;
let dirs = 0;

before(async () => {
    server = await startModelFileServer({
        "/tiny.gguf": {body: gguf},
        "/flaky.gguf": {body: gguf, dropFirst: 2, dropAfterBytes: 300_000},
        "/busy.gguf": {body: gguf, failFirst: 2},
        "/always-busy.gguf": {body: gguf, failFirst: 1000},
        "/page.gguf": {body: Buffer.from("<!doctype html><html><body>Sign in to continue</body></html>"), contentType: "text/html; charset=utf-8"},
        "/text.gguf": {body: Buffer.from("this is plain text, not a model".repeat(10))},
        "/slow.gguf": {body: gguf, chunkBytes: 16 * 1024, chunkDelayMs: 20},
        "/norange.gguf": {body: gguf, ranges: false, dropFirst: 1, dropAfterBytes: 200_000}
    });
});

after(async () => {
    await server.close();
    await rm(root, {recursive: true, force: true});
});

async function freshDir(): Promise<string> {
    const dir = path.join(root, `lib-${++dirs}`);
    return dir;
}

const fast = {retryDelayMs: 10, maxRetryDelayMs: 50};

async function rejects(promise: Promise<unknown>, code: string, message: RegExp): Promise<DownloadError> {
    const error = await promise.then(() => assert.fail("expected the download to fail"), (caught: unknown) => caught);
    assert.ok(error instanceof DownloadError, `expected a DownloadError, got ${error}`);
    assert.equal(error.code, code, error.message);
    assert.match(error.message, message);
    return error;
}

test("a plain download writes the exact file, reports progress and leaves no .part behind", async () => {
    const dir = await freshDir();
    const progress: DownloadProgress[] = [];
    const result = await downloadModel({source: `${server.url}/tiny.gguf`, dir, sha256: ggufSha256, onProgress: (p) => progress.push(p), progressIntervalMs: 0, ...fast});
    assert.equal(result.path, path.join(dir, "tiny.gguf"));
    assert.deepEqual(await readFile(result.path), gguf);
    assert.equal(result.sha256, ggufSha256);
    assert.equal(result.sizeBytes, gguf.length);
    assert.equal(result.resumed, false);
    assert.deepEqual(await readdir(dir), ["tiny.gguf"]);
    const last = progress.at(-1)!;
    assert.equal(last.receivedBytes, gguf.length);
    assert.equal(last.totalBytes, gguf.length);
    assert.ok(progress.length >= 3, `progress reported ${progress.length} times`);
    assert.ok(progress.every((p, i) => i === 0 || p.receivedBytes >= progress[i - 1].receivedBytes));

    // Pulling it again finds it in the library: no request for the body.
    const before = server.requests.length;
    const again = await downloadModel({source: `${server.url}/tiny.gguf`, dir, ...fast});
    assert.equal(again.alreadyPresent, true);
    assert.equal(server.requests.length, before);
});

test("a connection dropped mid-file is resumed with a Range request until the file is whole", async () => {
    const dir = await freshDir();
    const retries: number[] = [];
    const result = await downloadModel({source: `${server.url}/flaky.gguf`, dir, sha256: ggufSha256, onRetry: ({attempt}) => retries.push(attempt), ...fast});
    assert.deepEqual(await readFile(result.path), gguf);
    assert.equal(result.resumed, true);
    assert.deepEqual(retries, [1, 2]);
    const ranges = server.requests.filter((request) => request.path === "/flaky.gguf");
    assert.equal(ranges.length, 3);
    // Each resume asks from where the file stood: past 0, and at most 300000 bytes (one dropped answer) further.
    const offsets = ranges.map((request) => request.range == null ? 0 : Number(/^bytes=(\d+)-$/.exec(request.range)?.[1]));
    assert.equal(ranges[0].range, undefined);
    assert.ok(offsets[1] > 0 && offsets[1] <= 300_000, `second request from ${ranges[1].range}`);
    assert.ok(offsets[2] > offsets[1] && offsets[2] <= offsets[1] + 300_000, `third request from ${ranges[2].range}`);
    assert.ok(ranges[1].ifRange?.startsWith("\""), "the resume is guarded by the ETag");
    assert.deepEqual(ranges.map((request) => request.status), [200, 206, 206]);
});

test("a partial file from an earlier run is resumed; a server without ranges restarts it whole", async () => {
    const dir = await freshDir();
    // An interrupted first run (no retries allowed) leaves the .part file and its sidecar.
    await rejects(downloadModel({source: `${server.url}/norange.gguf`, dir, maxRetries: 0, ...fast}), "network", /connection/);
    assert.deepEqual((await readdir(dir)).sort(), ["norange.gguf.part", "norange.gguf.part.json"]);
    const result = await downloadModel({source: `${server.url}/norange.gguf`, dir, sha256: ggufSha256, ...fast});
    assert.deepEqual(await readFile(result.path), gguf);
    // It asked for the rest, was answered 200 with the whole file, and started over rather than splicing.
    const last = server.requests.filter((request) => request.path === "/norange.gguf").at(-1)!;
    const resumeFrom = Number(/^bytes=(\d+)-$/.exec(last.range ?? "")?.[1]);
    assert.ok(resumeFrom > 0 && resumeFrom <= 200_000, `resumed from ${last.range}`);
    assert.equal(last.status, 200);
    assert.equal(result.resumed, false);
});

test("a wrong checksum fails and leaves no file behind", async () => {
    const dir = await freshDir();
    await rejects(downloadModel({source: `${server.url}/tiny.gguf`, dir, sha256: "0".repeat(64), ...fast}), "checksum_mismatch", /expected sha256 0{64}, got [0-9a-f]{64}/);
    assert.deepEqual(await readdir(dir), []);
});

test("a 404 is an http_error at once, without retries", async () => {
    const dir = await freshDir();
    let retried = false;
    const error = await rejects(downloadModel({source: `${server.url}/missing.gguf`, dir, onRetry: () => retried = true, ...fast}), "http_error", /HTTP 404 .*no such file/);
    assert.equal(error.status, 404);
    assert.equal(retried, false);
    assert.deepEqual(await readdir(dir), []);
});

test("an HTML page or any non-GGUF body is refused on its first bytes", async () => {
    const dir = await freshDir();
    await rejects(downloadModel({source: `${server.url}/page.gguf`, dir, ...fast}), "not_gguf", /HTML page/);
    await rejects(downloadModel({source: `${server.url}/text.gguf`, dir, ...fast}), "not_gguf", /not the GGUF magic/);
    assert.deepEqual(await readdir(dir), []);
});

test("503 answers are retried with backoff; a server that stays busy ends in an error", async () => {
    const dir = await freshDir();
    const delays: number[] = [];
    const result = await downloadModel({source: `${server.url}/busy.gguf`, dir, onRetry: ({delayMs}) => delays.push(delayMs), ...fast});
    assert.deepEqual(await readFile(result.path), gguf);
    assert.deepEqual(delays, [0, 0], "Retry-After: 0 is honoured");
    const error = await rejects(downloadModel({source: `${server.url}/always-busy.gguf`, dir, maxRetries: 2, ...fast}), "http_error", /failed after 3 attempts: HTTP 503/);
    assert.equal(error.status, 503);
});

test("a host that refuses connections fails at once with what to check, without the retries a passing fault gets", async () => {
    const dir = await freshDir();
    const retries: string[] = [];
    const startedAt = Date.now();
    // The default retry policy (5 retries, 1 s doubling): a retried refusal would take half a minute.
    const error = await rejects(downloadModel({source: `http://127.0.0.1:${await freePort()}/model.gguf`, dir, onRetry: ({error: why}) => retries.push(why.message)}),
        "unreachable", /cannot download model\.gguf: nothing accepts connections at 127\.0\.0\.1:\d+ \(connection refused\): check the address and port, or start that server/);
    const elapsedMs = Date.now() - startedAt;
    assert.deepEqual(retries, []);
    assert.ok(elapsedMs < 1_000, `failed after ${elapsedMs} ms`);
    assert.equal((error.cause as {cause?: {code?: string}}).cause?.code, "ECONNREFUSED");
    assert.deepEqual(await readdir(dir).catch(() => []), []);
});

test("a host name that does not exist fails at once; a DNS server that does not answer is retried", async (t) => {
    // The same words for the app's own recommended host when the machine is offline: never "a typo".
    const offline = unreachableFault(new TypeError("fetch failed", {cause: Object.assign(new Error("getaddrinfo ENOTFOUND huggingface.co"), {code: "ENOTFOUND"})}), "https://huggingface.co/x/y.gguf");
    assert.match(offline ?? "", /^this machine cannot find the host huggingface\.co \(ENOTFOUND\): check that it is online/);
    assert.doesNotMatch(offline ?? "", /typo/);
    const lookup = await fetch("http://svc-studio-test.invalid/model.gguf").then(() => undefined, (error: unknown) => error);
    const code = (lookup as {cause?: {code?: string}} | undefined)?.cause?.code;
    if (code !== "ENOTFOUND") return t.skip(`this machine's resolver answers .invalid with ${code ?? "an address"}, not ENOTFOUND`);
    const dir = await freshDir();
    let retried = false;
    await rejects(downloadModel({source: "http://svc-studio-test.invalid/model.gguf", dir, onRetry: () => retried = true}),
        "unreachable", /this machine cannot find the host svc-studio-test\.invalid \(ENOTFOUND\): check that it is online \(or its proxy\), then that the address is right/);
    assert.equal(retried, false);
    // No answer from the DNS server (EAI_AGAIN), a reset or a timeout may pass: those are retried.
    for (const passing of ["EAI_AGAIN", "ECONNRESET", "ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "ENETUNREACH"])
        assert.equal(unreachableFault(new TypeError("fetch failed", {cause: Object.assign(new Error(passing), {code: passing})}), "http://a.example/m.gguf"), undefined, passing);
});

test("a server that stops after answering is retried, since it may be restarting", async () => {
    const dir = await freshDir();
    const going = await startModelFileServer({"/going.gguf": {body: gguf, dropFirst: 1, dropAfterBytes: 200_000}});
    const retries: string[] = [];
    const closing: Array<Promise<void>> = [];
    const error = await rejects(downloadModel({source: `${going.url}/going.gguf`, dir, maxRetries: 2, ...fast, onRetry: ({error: why}) => {
        retries.push(why.message);
        // The connection broke mid-file; by the next attempt the server is gone.
        if (closing.length === 0) closing.push(going.close());
    }}), "network", /failed after 3 attempts: cannot reach 127\.0\.0\.1:\d+: ECONNREFUSED/);
    await Promise.all(closing);
    assert.match(retries[0], /the connection broke at \d+ bytes/);
    assert.match(retries[1], /cannot reach 127\.0\.0\.1:\d+: ECONNREFUSED/);
    assert.equal(retries.length, 2, "the refusal after the break was waited out like any fault (maxRetries in a row)");
    assert.equal(error.code, "network");
    assert.ok((await readdir(dir)).includes("going.gguf.part"), "the bytes so far stay for a resume");
});

test("cancelling mid-download stops it and removes the partial file", async () => {
    const dir = await freshDir();
    const controller = new AbortController();
    const download = downloadModel({
        source: `${server.url}/slow.gguf`, dir, signal: controller.signal, progressIntervalMs: 0,
        onProgress: (progress) => {
            if (progress.receivedBytes > 100_000) controller.abort();
        },
        ...fast
    });
    await rejects(download, "cancelled", /cancelled/);
    assert.deepEqual(await readdir(dir), []);
});

test("a full disk (ENOSPC) is one clear error and leaves no partial file", async (t) => {
    // A real full disk: a 256 KiB tmpfs, smaller than the model. Mounting needs root; elsewhere this is skipped.
    const dir = await freshDir();
    await mkdir(dir, {recursive: true});
    const mounted = await run("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", dir]);
    if (!mounted) return t.skip("cannot mount a small tmpfs here (needs root)");
    try {
        await rejects(downloadModel({source: `${server.url}/tiny.gguf`, dir, ...fast}), "disk_full", /disk is full \(ENOSPC\).*free some space/);
        assert.deepEqual(await readdir(dir), []);
    } finally {
        await run("umount", [dir]);
    }
});

function run(command: string, args: string[]): Promise<boolean> {
    return new Promise((resolve) => execFile(command, args, (error) => resolve(error == null)));
}

test("bad sources are refused before any request", async () => {
    const dir = await freshDir();
    const before = server.requests.length;
    await rejects(downloadModel({source: "ftp://example.com/x.gguf", dir}), "bad_url", /only http\(s\)/);
    await rejects(downloadModel({source: "not a url", dir}), "bad_url", /not a URL/);
    await rejects(downloadModel({source: "hf:only/two", dir}), "bad_url", /hf:<user>\/<repo>\/<file.gguf>/);
    await rejects(downloadModel({source: `${server.url}/tiny.gguf`, dir, sha256: "abc"}), "bad_url", /64 hex digits/);
    assert.equal(server.requests.length, before);
});
