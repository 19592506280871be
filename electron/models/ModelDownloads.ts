import {randomBytes} from "node:crypto";
import {EventEmitter} from "node:events";
import {DownloadError, downloadModel, type DownloadOptions} from "../../native/download/downloadModel.ts";
import {parseModelSource} from "../../native/download/parseModelSource.ts";
import {catalog} from "../../native/library/catalog.ts";
import {projectorFileName} from "../../native/library/projectors.ts";
import type {ModelLibrary} from "../../native/library/ModelLibrary.ts";
import {ApiError} from "../../protocol/errors.ts";
import type {CatalogModel, DownloadJob, DownloadRequest} from "../../protocol/gateway/contract.ts";

/** Finished downloads kept in the list for the UI (the newest ones). */
const keptFinished = 20;

export type ModelDownloadsOptions = Partial<Pick<DownloadOptions, "maxRetries" | "retryDelayMs" | "maxRetryDelayMs" | "stallTimeoutMs" | "progressIntervalMs">> & {
    /** The recommended models a download by catalog id comes from (default native/library/catalog.ts). */
    catalog?: readonly CatalogModel[]
};

/** A download as the gateway starts it: a catalog vision model brings its projector (CatalogModel.projector). */
export type ModelDownloadRequest = DownloadRequest & {projector?: CatalogModel["projector"]};

/**
 * The gateway's downloads into the model library, run in the background one job each. Each job reports its
 * progress in its snapshot; a finished model becomes the default when none was chosen. Emits `change` with the job.
 */
export class ModelDownloads extends EventEmitter {
    private readonly library: ModelLibrary;
    private readonly options: Partial<DownloadOptions>;
    public readonly catalog: readonly CatalogModel[];
    private readonly jobs = new Map<string, {job: DownloadJob, controller: AbortController, done: Promise<DownloadJob>}>();

    /** `options` tune retries and timing (tests use short delays, and a catalog whose files a local server holds). */
    public constructor(library: ModelLibrary, {catalog: models = catalog, ...options}: ModelDownloadsOptions = {}) {
        super();
        this.library = library;
        this.options = options;
        this.catalog = models;
    }

    public list(): DownloadJob[] {
        return [...this.jobs.values()].map(({job}) => ({...job})).reverse();
    }

    /** Starts a download; a bad source is refused at once (400), a second download of the same file too (409). */
    public start(request: ModelDownloadRequest): DownloadJob {
        let source, projector;
        try {
            source = parseModelSource(request.source, request.fileName);
            // Saved under the name that pairs it with the model, as `svc-studio pull` does.
            if (request.projector != null)
                projector = parseModelSource(request.projector.uri, projectorFileName(request.projector.fileName, request.fileName != null ? source.fileName : undefined));
        } catch (error) {
            throw new ApiError(400, "invalid_model_source", (error as Error).message);
        }
        const running = [...this.jobs.values()].find(({job}) => job.status === "downloading" && job.fileName === source.fileName);
        if (running != null)
            throw new ApiError(409, "download_in_progress", `${source.fileName} is already being downloaded (download ${running.job.id})`);
        const job: DownloadJob = {
            id: `dl_${randomBytes(6).toString("hex")}`, source: source.source, url: source.url, fileName: source.fileName,
            status: "downloading", receivedBytes: 0, bytesPerSecond: 0, attempt: 1, startedAt: new Date().toISOString(),
            ...(projector != null ? {projector: {fileName: projector.fileName, url: projector.url, receivedBytes: 0, done: false}} : {})
        };
        const controller = new AbortController();
        const done = this.run(job, request, controller.signal);
        this.jobs.set(job.id, {job, controller, done});
        this.prune();
        this.emit("change", {...job});
        return {...job};
    }

    /** Cancels a running download (its partial file is removed); a finished one is returned as it is. */
    public async cancel(id: string): Promise<DownloadJob> {
        const entry = this.jobs.get(id);
        if (entry == null) throw new ApiError(404, "download_not_found", `no download ${id}`);
        entry.controller.abort();
        return entry.done;
    }

    /** Resolves with the job once it has finished, whatever the outcome. */
    public async wait(id: string): Promise<DownloadJob> {
        const entry = this.jobs.get(id);
        if (entry == null) throw new ApiError(404, "download_not_found", `no download ${id}`);
        return entry.done;
    }

    /** Cancels everything (the gateway is closing). */
    public async cancelAll(): Promise<void> {
        for (const {controller} of this.jobs.values()) controller.abort();
        await Promise.all([...this.jobs.values()].map(({done}) => done));
    }

    private async run(job: DownloadJob, request: ModelDownloadRequest, signal: AbortSignal): Promise<DownloadJob> {
        const onRetry = ({attempt, error}: {attempt: number, error: Error}) => this.update(job, {attempt: attempt + 1, retrying: error.message});
        try {
            const result = await downloadModel({
                ...this.options,
                source: request.source,
                fileName: request.fileName,
                sha256: request.sha256,
                dir: this.library.dir,
                signal,
                onProgress: (progress) => this.update(job, {...progress, retrying: undefined}),
                onRetry
            });
            // The projector after the model, in the same job: the model is adopted (and may become the default, the
            // engine's next model) only once it can see. A model already present is not fetched again, so a job
            // whose projector failed is finished by downloading the catalog model again.
            const projector = job.projector;
            if (projector != null && request.projector != null) {
                const saved = await downloadModel({
                    ...this.options,
                    source: request.projector.uri,
                    fileName: projector.fileName,
                    dir: this.library.dir,
                    signal,
                    onProgress: ({receivedBytes, totalBytes, bytesPerSecond, etaSeconds, attempt}) => this.update(job,
                        {projector: {...projector, receivedBytes, totalBytes}, bytesPerSecond, etaSeconds, attempt, retrying: undefined}),
                    onRetry
                });
                this.update(job, {projector: {...projector, receivedBytes: saved.sizeBytes, totalBytes: saved.sizeBytes, done: true}});
            }
            await this.library.adopt(result.fileName);
            this.update(job, {status: "done", modelId: result.fileName, sha256: result.sha256, receivedBytes: result.sizeBytes,
                totalBytes: result.sizeBytes, etaSeconds: 0, finishedAt: new Date().toISOString()});
        } catch (error) {
            const code = error instanceof DownloadError ? error.code : "download_failed";
            this.update(job, {status: code === "cancelled" ? "cancelled" : "failed", error: {code, message: (error as Error).message},
                bytesPerSecond: 0, etaSeconds: undefined, retrying: undefined, finishedAt: new Date().toISOString()});
        }
        return {...job};
    }

    private update(job: DownloadJob, change: Partial<DownloadJob> & {resumedFrom?: number}) {
        const {resumedFrom: _resumedFrom, ...fields} = change;
        Object.assign(job, fields);
        this.emit("change", {...job});
    }

    private prune() {
        const finished = [...this.jobs.values()].filter(({job}) => job.status !== "downloading");
        for (const {job} of finished.slice(0, Math.max(0, finished.length - keptFinished))) this.jobs.delete(job.id);
    }
}
