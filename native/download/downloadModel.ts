import {createHash, type Hash} from "node:crypto";
import {createReadStream} from "node:fs";
import {mkdir, open, readFile, rename, rm, stat, writeFile, type FileHandle} from "node:fs/promises";
import path from "node:path";
import {checkModelFile} from "../library/modelFile.ts";
import {partStateSuffix, partSuffix} from "../library/ModelLibrary.ts";
import {parseModelSource, type ModelSource} from "./parseModelSource.ts";
import {parseRetryAfter} from "../../base/common/retryAfter.ts";
import {backoffDelay, sleep} from "../../base/common/sleep.ts";

export type DownloadErrorCode =
    | "bad_url" | "http_error" | "not_gguf" | "checksum_mismatch" | "disk_full" | "cancelled" | "network" | "unreachable" | "file_error";

/** A download that failed; `message` is one line a person can act on. */
export class DownloadError extends Error {
    public readonly code: DownloadErrorCode;
    /** The HTTP status of an `http_error`. */
    public readonly status?: number;

    public constructor(code: DownloadErrorCode, message: string, options: {status?: number, cause?: unknown} = {}) {
        super(message, {cause: options.cause});
        this.name = "DownloadError";
        this.code = code;
        this.status = options.status;
    }
}

/** Download speed over the last few seconds (not since the start, so a stall or a burst shows promptly). */
export class SpeedMeter {
    private readonly windowMs: number;
    private samples: Array<{at: number, bytes: number}> = [];

    public constructor(windowMs = 5_000) {
        this.windowMs = windowMs;
    }

    /** Records the running byte count at time `at` (ms) and returns bytes per second over the window. */
    public add(bytes: number, at: number): number {
        this.samples.push({at, bytes});
        while (this.samples.length > 2 && at - this.samples[1].at >= this.windowMs) this.samples.shift();
        const first = this.samples[0];
        const elapsed = (at - first.at) / 1000;
        return elapsed > 0 ? (bytes - first.bytes) / elapsed : 0;
    }

    /** Starts over (a new attempt: its first bytes must not count the pause before it). */
    public reset() {
        this.samples = [];
    }
}

/** Feeds a file's bytes into `hash` (the part already downloaded, before resuming). */
export async function hashFileInto(hash: Hash, filePath: string): Promise<void> {
    for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
}

export async function sha256File(filePath: string): Promise<string> {
    const hash = createHash("sha256");
    await hashFileInto(hash, filePath);
    return hash.digest("hex");
}

export type DownloadProgress = {
    receivedBytes: number,
    /** From Content-Length / Content-Range; absent when the server does not say. */
    totalBytes?: number,
    bytesPerSecond: number,
    etaSeconds?: number,
    /** 1 for the first request; more after retries. */
    attempt: number,
    /** Bytes that were already on disk when this attempt started (a resumed download). */
    resumedFrom: number
};

export type DownloadOptions = {
    /** `hf:<user>/<repo>/<file>` or an http(s) URL. */
    source: string,
    /** The library folder the file is saved into. */
    dir: string,
    /** Saved name; default the URL's last segment. */
    fileName?: string,
    /** Expected SHA-256 (hex); the file is refused and removed when it differs. */
    sha256?: string,
    signal?: AbortSignal,
    onProgress?: (progress: DownloadProgress) => void,
    /** Told before each wait between attempts. */
    onRetry?: (retry: {attempt: number, delayMs: number, error: Error}) => void,
    /** Attempts in a row that may fail without receiving a byte before giving up (progress resets the count). Default 5. */
    maxRetries?: number,
    retryDelayMs?: number,
    maxRetryDelayMs?: number,
    /** No byte for this long aborts the attempt (and retries). Default 60 s. */
    stallTimeoutMs?: number,
    progressIntervalMs?: number,
    /** Replace an existing file of the same name; otherwise an existing valid file is kept and returned. */
    overwrite?: boolean
};

export type DownloadResult = {
    path: string,
    fileName: string,
    url: string,
    sizeBytes: number,
    /** Of the downloaded bytes; for a file already present only when a checksum was asked for (hashing gigabytes takes a while). */
    sha256?: string,
    /** The file was already in the library; nothing was fetched. */
    alreadyPresent: boolean,
    /** Some bytes came from an earlier, interrupted download. */
    resumed: boolean
};

/** What the `.part.json` sidecar remembers, so a resume only continues the same file. */
type PartState = {url: string, etag?: string, lastModified?: string, totalBytes?: number};

const ggufMagic = Buffer.from("GGUF", "latin1");

/**
 * Downloads a GGUF into the library: into `<name>.part` (with a `.part.json` sidecar), resumed with an HTTP Range
 * after an interruption, retried with exponential backoff on network faults and 5xx/429 (not when the address is wrong
 * from the start: `unreachableFault`), checked against the
 * GGUF magic on its first bytes (an HTML page is refused before anything large is written) and against `sha256`,
 * then renamed into place. Cancelling (the signal) removes the partial file; other failures keep it for a resume.
 */
export async function downloadModel(options: DownloadOptions): Promise<DownloadResult> {
    const source = parseModelSource(options.source, options.fileName);
    const expectedSha256 = options.sha256 != null ? checkSha256(options.sha256) : undefined;
    const target = path.join(options.dir, source.fileName);
    await mkdir(options.dir, {recursive: true}).catch((error: NodeJS.ErrnoException) => {
        throw fileError(error, `cannot create the model folder ${options.dir}`);
    });

    const existing = await useExisting(target, source, expectedSha256, options.overwrite === true);
    if (existing != null) return existing;

    const download = new PartDownload(source, target, expectedSha256, options);
    try {
        return await download.run();
    } catch (error) {
        if (options.signal?.aborted) {
            await download.discard();
            throw new DownloadError("cancelled", `download of ${source.fileName} cancelled`, {cause: error});
        }
        throw error;
    }
}

/** A file already in the library is the answer, when it is a GGUF (and has the checksum, when one is given). */
async function useExisting(target: string, source: ModelSource, sha256: string | undefined, overwrite: boolean): Promise<DownloadResult | undefined> {
    const stats = await stat(target).catch(() => undefined);
    if (stats == null || overwrite) return undefined;
    const fileSha256 = sha256 != null ? await sha256File(target) : undefined;
    if (sha256 != null && fileSha256 !== sha256)
        throw new DownloadError("file_error", `${target} already exists with another checksum (${fileSha256}); remove it or download with overwrite`);
    await checkModelFile(target).catch((error: Error) => {
        throw new DownloadError("file_error", `${target} already exists and is not a usable GGUF (${error.message}); remove it first`);
    });
    return {path: target, fileName: source.fileName, url: source.url, sizeBytes: stats.size, sha256: fileSha256, alreadyPresent: true, resumed: false};
}

/** One download's state across attempts. */
class PartDownload {
    private readonly partPath: string;
    private readonly statePath: string;
    private readonly meter = new SpeedMeter();
    private lastProgressAt = 0;
    private resumed = false;
    /** Restarts from byte 0 asked by the server's answers (a changed file); bounded so a confused server cannot loop. */
    private restarts = 0;
    /** SHA-256 of the whole file, fed while it streamed in. */
    private completeHash?: Hash;
    /** Some server answered this download's request with a response (any status, any attempt). */
    private received = false;

    public constructor(
        private readonly source: ModelSource,
        private readonly target: string,
        private readonly sha256: string | undefined,
        private readonly options: DownloadOptions
    ) {
        this.partPath = target + partSuffix;
        this.statePath = target + partStateSuffix;
    }

    public async run(): Promise<DownloadResult> {
        const {maxRetries = 5, retryDelayMs = 1_000, maxRetryDelayMs = 30_000} = this.options;
        let failuresInARow = 0;
        for (let attempt = 1; ; attempt++) {
            const before = await this.partSize();
            try {
                const finished = await this.attempt(attempt);
                if (finished) return await this.finish();
                if (++this.restarts > 3) throw new DownloadError("network", `the server of ${this.source.url} keeps answering byte ranges that do not fit the file`);
                continue;
            } catch (error) {
                if (this.options.signal?.aborted || !(error instanceof RetryableError)) throw error;
                // A try that moved the file forward starts the count again: a flaky line still finishes.
                failuresInARow = await this.partSize() > before ? 1 : failuresInARow + 1;
                if (failuresInARow > maxRetries)
                    throw new DownloadError(error.status != null ? "http_error" : "network",
                        `download of ${this.source.fileName} failed after ${attempt} attempts: ${error.message}`, {status: error.status, cause: error});
                const delayMs = Math.min(maxRetryDelayMs, error.retryAfterMs ?? backoffDelay(failuresInARow, retryDelayMs, maxRetryDelayMs));
                this.options.onRetry?.({attempt, delayMs, error});
                await sleep(delayMs, this.options.signal);
            }
        }
    }

    /** Removes the partial file and its sidecar. */
    public async discard() {
        await Promise.all([rm(this.partPath, {force: true}), rm(this.statePath, {force: true})]);
    }

    /** One request; true when the file is complete, false when it must start over at once. */
    private async attempt(attempt: number): Promise<boolean> {
        const state = await this.readState();
        let offset = state?.url === this.source.url ? await this.partSize() : 0;
        if (offset > 0 && !await this.partStartsWithMagic()) offset = 0;
        if (offset === 0) await this.discard();

        const controller = new AbortController();
        const signal = this.options.signal != null ? AbortSignal.any([this.options.signal, controller.signal]) : controller.signal;
        const headers: Record<string, string> = {"Accept-Encoding": "identity", "User-Agent": "svc-studio"};
        if (offset > 0) {
            headers.Range = `bytes=${offset}-`;
            // Only a strong validator may guard a Range: a changed file then comes whole (200), never spliced.
            const validator = state?.etag != null && !state.etag.startsWith("W/") ? state.etag : state?.lastModified;
            if (validator != null) headers["If-Range"] = validator;
        }
        let response: Response;
        try {
            response = await fetch(this.source.url, {headers, signal, redirect: "follow"});
        } catch (error) {
            if (this.options.signal?.aborted) throw error;
            // Once its server has answered this download, a refused connection is that server restarting: worth waiting for.
            const unreachable = this.received ? undefined : unreachableFault(error, this.source.url);
            if (unreachable != null) throw new DownloadError("unreachable", `cannot download ${this.source.fileName}: ${unreachable}`, {cause: error});
            throw new RetryableError(`cannot reach ${new URL(this.source.url).host}: ${describeNetworkError(error)}`);
        }

        this.received = true;
        if (response.status === 416 && offset > 0) {
            await response.body?.cancel();
            const total = /\*\/(\d+)/.exec(response.headers.get("content-range") ?? "")?.[1];
            if (total != null && Number(total) === offset) return true;
            await this.discard();
            return false;
        }
        if (!response.ok) {
            await response.body?.cancel();
            throw httpError(response, this.source);
        }
        if (response.status === 206 && (offset === 0 || rangeStart(response) !== offset)) {
            // A range we did not ask for cannot be spliced in: start over from byte 0.
            await response.body?.cancel();
            await this.discard();
            return false;
        }
        if (response.status !== 206) offset = 0;
        // An HTML page (a login wall, a /blob/ page URL) is refused before anything is written.
        if (offset === 0 && /^text\/html\b/i.test(response.headers.get("content-type") ?? "")) {
            await response.body?.cancel();
            await this.discard();
            throw notGguf(this.source, "the server sent an HTML page (Content-Type text/html)");
        }
        const totalBytes = totalOf(response, offset);
        if (offset === 0) {
            await this.discard();
            await this.writeState({url: this.source.url, etag: response.headers.get("etag") ?? undefined,
                lastModified: response.headers.get("last-modified") ?? undefined, totalBytes});
        }
        this.resumed ||= offset > 0;
        return this.receive(response, {attempt, offset, totalBytes, controller});
    }

    private async receive(response: Response, {attempt, offset, totalBytes, controller}: {attempt: number, offset: number, totalBytes?: number, controller: AbortController}): Promise<boolean> {
        const handle = await open(this.partPath, offset > 0 ? "a" : "w").catch((error: NodeJS.ErrnoException) => {
            throw fileError(error, `cannot write ${this.partPath}`);
        });
        const hash = createHash("sha256");
        let received = offset;
        let head = Buffer.alloc(0);
        const stallMs = this.options.stallTimeoutMs ?? 60_000;
        let stallTimer = setTimeout(() => controller.abort(new Error("stalled")), stallMs);
        this.meter.reset();
        this.report({attempt, received, totalBytes, resumedFrom: offset}, true);
        try {
            if (offset > 0) await hashFileInto(hash, this.partPath);
            // Node's web streams are async iterable; the DOM typings used by this project do not say so.
            for await (const chunk of (response.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
                clearTimeout(stallTimer);
                stallTimer = setTimeout(() => controller.abort(new Error("stalled")), stallMs);
                const bytes = chunk;
                if (offset === 0 && head.length < ggufMagic.length) {
                    head = Buffer.concat([head, bytes]).subarray(0, ggufMagic.length);
                    if (!ggufMagic.subarray(0, head.length).equals(head)) {
                        controller.abort(new Error("not a GGUF file"));
                        throw notGguf(this.source, `its first bytes are ${JSON.stringify(head.toString("latin1"))}, not the GGUF magic`);
                    }
                }
                await write(handle, bytes, this.partPath);
                hash.update(bytes);
                received += bytes.length;
                this.report({attempt, received, totalBytes, resumedFrom: offset});
            }
        } catch (error) {
            if (error instanceof DownloadError || this.options.signal?.aborted) {
                await handle.close();
                if (error instanceof DownloadError && (error.code === "not_gguf" || error.code === "disk_full")) await this.discard();
                throw error;
            }
            await handle.close();
            const stalled = controller.signal.aborted && (controller.signal.reason as Error)?.message === "stalled";
            throw new RetryableError(stalled ? `no data for ${stallMs / 1000} s` : `the connection broke at ${received} bytes: ${describeNetworkError(error)}`);
        } finally {
            clearTimeout(stallTimer);
        }
        await handle.close();
        if (totalBytes != null && received < totalBytes)
            throw new RetryableError(`the connection closed at ${received} of ${totalBytes} bytes`);
        this.report({attempt, received, totalBytes, resumedFrom: offset}, true);
        this.completeHash = hash;
        return true;
    }

    private async finish(): Promise<DownloadResult> {
        const hash = this.completeHash ?? createHash("sha256");
        if (this.completeHash == null) await hashFileInto(hash, this.partPath);
        const sha256 = hash.digest("hex");
        if (this.sha256 != null && sha256 !== this.sha256) {
            await this.discard();
            throw new DownloadError("checksum_mismatch",
                `checksum mismatch for ${this.source.fileName}: expected sha256 ${this.sha256}, got ${sha256}; the file was removed`);
        }
        await checkModelFile(this.partPath).catch(async (error: Error) => {
            await this.discard();
            throw notGguf(this.source, error.message);
        });
        await rename(this.partPath, this.target);
        await rm(this.statePath, {force: true});
        const {size} = await stat(this.target);
        return {path: this.target, fileName: this.source.fileName, url: this.source.url, sizeBytes: size, sha256, alreadyPresent: false, resumed: this.resumed};
    }

    private report({attempt, received, totalBytes, resumedFrom}: {attempt: number, received: number, totalBytes?: number, resumedFrom: number}, force = false) {
        const now = Date.now();
        const bytesPerSecond = this.meter.add(received - resumedFrom, now);
        if (!force && now - this.lastProgressAt < (this.options.progressIntervalMs ?? 250)) return;
        this.lastProgressAt = now;
        const etaSeconds = totalBytes != null && bytesPerSecond > 0 ? Math.max(0, (totalBytes - received) / bytesPerSecond) : undefined;
        this.options.onProgress?.({receivedBytes: received, totalBytes, bytesPerSecond, etaSeconds, attempt, resumedFrom});
    }

    private async partSize(): Promise<number> {
        return (await stat(this.partPath).catch(() => undefined))?.size ?? 0;
    }

    private async partStartsWithMagic(): Promise<boolean> {
        const handle = await open(this.partPath, "r").catch(() => undefined);
        if (handle == null) return false;
        try {
            const head = Buffer.alloc(ggufMagic.length);
            const {bytesRead} = await handle.read(head, 0, head.length, 0);
            return ggufMagic.subarray(0, bytesRead).equals(head.subarray(0, bytesRead));
        } finally {
            await handle.close();
        }
    }

    private async readState(): Promise<PartState | undefined> {
        return readFile(this.statePath, "utf8").then((text) => JSON.parse(text) as PartState).catch(() => undefined);
    }

    private async writeState(state: PartState) {
        await writeFile(this.statePath, JSON.stringify(state) + "\n").catch((error: NodeJS.ErrnoException) => {
            throw fileError(error, `cannot write ${this.statePath}`);
        });
    }
}

/** A fault worth another try (network, 5xx, 429); `status` when it was an HTTP answer. */
class RetryableError extends Error {
    public constructor(message: string, public readonly status?: number, public readonly retryAfterMs?: number) {
        super(message);
    }
}

async function write(handle: FileHandle, bytes: Uint8Array, filePath: string) {
    try {
        await handle.write(bytes);
    } catch (error) {
        throw fileError(error as NodeJS.ErrnoException, `cannot write ${filePath}`);
    }
}

function fileError(error: NodeJS.ErrnoException, what: string): DownloadError {
    if (error.code === "ENOSPC" || error.code === "EDQUOT")
        return new DownloadError("disk_full", `the disk is full (${error.code}): ${what}; free some space and download again`, {cause: error});
    return new DownloadError("file_error", `${what}: ${error.message}`, {cause: error});
}

function httpError(response: Response, source: ModelSource): Error {
    const status = response.status;
    if (status >= 500 || status === 429 || status === 408)
        return new RetryableError(`HTTP ${status} ${response.statusText} from ${source.url}`, status, retryAfterMilliseconds(response.headers.get("retry-after")));
    const hint = status === 404 ? "no such file: check the repository and file name"
        : status === 401 || status === 403 ? "access denied: the repository may be private or gated (accept its licence on the website)"
        : response.statusText;
    return new DownloadError("http_error", `HTTP ${status} for ${source.url}: ${hint}`, {status});
}

function notGguf(source: ModelSource, why: string): DownloadError {
    return new DownloadError("not_gguf", `${source.url} is not a GGUF model file: ${why}` +
        (source.url.includes("/blob/") ? " (a Hugging Face file is downloaded from /resolve/, not /blob/)" : ""));
}

function rangeStart(response: Response): number | undefined {
    const match = /^bytes (\d+)-/.exec(response.headers.get("content-range") ?? "");
    return match != null ? Number(match[1]) : undefined;
}

function totalOf(response: Response, offset: number): number | undefined {
    const fromRange = /\/(\d+)$/.exec(response.headers.get("content-range") ?? "")?.[1];
    if (fromRange != null) return Number(fromRange);
    const length = response.headers.get("content-length");
    return length != null && /^\d+$/.test(length) ? offset + Number(length) : undefined;
}

function checkSha256(value: string): string {
    const normalized = value.trim().toLowerCase().replace(/^sha256:/, "");
    if (!/^[0-9a-f]{64}$/.test(normalized)) throw new DownloadError("bad_url", `--sha256 must be 64 hex digits, got ${JSON.stringify(value)}`);
    return normalized;
}

/**
 * Why the first request could not reach its server, when no retry can help: nothing listens at that address (refused),
 * the host name does not exist, or its TLS certificate is not trusted. Retrying those for a minute only delays the
 * message. Undefined for faults that pass (a reset, a timeout, a network that is down, a DNS server that did not answer),
 * which are retried with backoff like 5xx answers.
 */
export function unreachableFault(error: unknown, url: string): string | undefined {
    type Coded = {code?: string, errors?: Coded[]};
    const cause = (error as {cause?: Coded}).cause;
    // A name with IPv4 and IPv6 addresses fails with one error per address (an AggregateError) when all of them fail alike.
    const codes = new Set(cause?.errors?.map((each) => each.code));
    const code = cause?.code ?? (codes.size === 1 ? [...codes][0] : undefined) ?? (error as Coded).code;
    const {host, hostname} = new URL(url);
    if (code === "ECONNREFUSED")
        return `nothing accepts connections at ${host} (connection refused): check the address and port, or start that server, then download again`;
    if (code === "ENOTFOUND")
        // An offline machine, or one whose network has no DNS, answers every name so: say both, the likelier first.
        return `this machine cannot find the host ${hostname} (ENOTFOUND): check that it is online (or its proxy), then that the address is right`;
    if (code != null && /CERT|ERR_TLS_CERT|SELF_SIGNED/.test(code))
        return `the TLS certificate of ${host} is not trusted (${code}): check the address, or the system's certificates`;
    return undefined;
}

function describeNetworkError(error: unknown): string {
    const cause = (error as {cause?: {code?: string, message?: string}}).cause;
    return cause?.code ?? cause?.message ?? (error as Error).message;
}

function retryAfterMilliseconds(header: string | null): number | undefined {
    const seconds = parseRetryAfter(header);
    return seconds == null ? undefined : seconds * 1000;
}
