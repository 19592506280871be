import {readdir, rm, stat} from "node:fs/promises";
import path from "node:path";
import {appDataLimits, type SavedJobRecord, type SavedRun} from "../../protocol/gateway/contract.ts";
import type {GatewayRouteName} from "../../protocol/gateway/routes.ts";
import type {JobRecord, RowResult} from "../../client/scoring/types.ts";
import {readNumber, readObject, readString, required} from "../../protocol/validation.ts";
import {GatewayError, type GatewayAnswer, type GatewayCall, type GatewayHandlers} from "../api/answers.ts";
import {DocumentStore} from "./DocumentStore.ts";
import {HistoryStore} from "./HistoryStore.ts";
import {ResponseCacheStore} from "./ResponseCacheStore.ts";
import {ScoringJobStore} from "./ScoringJobStore.ts";
import {paramName} from "./storedNames.ts";

/** Room for the JSON around a value (`{"record":...,"table":...}`) and for whitespace a client may send. */
const envelopeBytes = 64 * 1024;

/**
 * The body limits of the app-data routes, above the gateway's 64 KB for its other routes: a run holds images, a job its
 * whole table. Each is its store's limit plus the envelope; routes not listed keep the gateway's limit.
 */
export const appDataBodyLimits: Partial<Record<GatewayRouteName, number>> = {
    putAppDocument: appDataLimits.maxDocumentBytes + envelopeBytes,
    addRun: appDataLimits.maxHistoryEntryBytes + envelopeBytes,
    createScoringJob: appDataLimits.maxJobTableBytes + appDataLimits.maxJobRecordBytes + envelopeBytes,
    addScoringResult: appDataLimits.maxRowResultBytes + envelopeBytes,
    createExperiment: appDataLimits.maxJobTableBytes + appDataLimits.maxJobRecordBytes + envelopeBytes,
    addExperimentCell: appDataLimits.maxRowResultBytes + envelopeBytes,
    // A key is a request body as stable JSON (images included); an answer its response.
    cachedResponse: appDataLimits.maxCachedResponseBytes + envelopeBytes,
    putCachedResponse: 2 * appDataLimits.maxCachedResponseBytes + envelopeBytes
};

/** A temporary file this old is what a crash left of an atomic write, not a write under way. */
const strayAgeMs = 60_000;

/**
 * The renderer's saved data in the app's data folder, so it survives a restart, an update and a new gateway port (the
 * page's own storage is per origin, and the origin changes with the port at every launch): small documents
 * (`documents/`), the run history (`history/`), scoring jobs (`scoring-jobs/`), experiments (`experiments/`) and the
 * response cache (`response-cache/`). Only plain files: the gateway runs in Electron's main process, which loads no
 * native module. Its routes are `/gateway/api/app-data/...`.
 */
export class AppDataStore {
    public readonly dir: string;
    public readonly documents: DocumentStore;
    public readonly history: HistoryStore;
    public readonly jobs: ScoringJobStore;
    /** Experiments, kept as scoring jobs are: the dataset as the table, one result line per (row, variant) cell. */
    public readonly experiments: ScoringJobStore;
    /** Answers kept by what was sent, so an edited experiment sends only the cells whose request changed. */
    public readonly responses: ResponseCacheStore;
    private swept: Promise<void> | null = null;

    public constructor(dir: string) {
        this.dir = path.resolve(dir);
        this.documents = new DocumentStore(path.join(this.dir, "documents"));
        this.history = new HistoryStore(path.join(this.dir, "history"));
        this.jobs = new ScoringJobStore(path.join(this.dir, "scoring-jobs"));
        this.experiments = new ScoringJobStore(path.join(this.dir, "experiments"), appDataLimits.maxSavedExperiments);
        this.responses = new ResponseCacheStore(path.join(this.dir, "response-cache"));
    }

    /** The app-data routes, by name (protocol/gateway/routes.ts). */
    public readonly handlers: GatewayHandlers = this.guarded({
        appDocuments: async () => ok({documents: await this.documents.all()}),
        putAppDocument: async ({params, readBody}) => {
            await this.documents.put(paramName("the document key", params.key), await readBody());
            return ok({saved: true});
        },
        deleteAppDocument: async ({params}) => ok({deleted: await this.documents.remove(paramName("the document key", params.key))}),
        runHistory: async () => ok({entries: await this.history.list()}),
        addRun: async ({readBody}) => ok({removed: await this.history.add(await readBody() as SavedRun)}),
        deleteRun: async ({params}) => ok({deleted: await this.history.remove(paramName("the run id", params.id))}),
        clearHistory: async () => ok({deleted: await this.history.clear()}),
        ...jobHandlers(() => this.jobs, {list: "scoringJobs", create: "createScoringJob", get: "scoringJob", update: "updateScoringJob", add: "addScoringResult", remove: "deleteScoringJob"}),
        deleteScoringErrors: async ({params}) => ok({deleted: await this.jobs.deleteErrors(paramName("the job id", params.id))}),
        ...jobHandlers(() => this.experiments, {list: "experiments", create: "createExperiment", get: "experiment", update: "updateExperiment", add: "addExperimentCell", remove: "deleteExperiment"}),
        cachedResponse: async ({readBody}) => {
            const body = readObject(await readBody(), []);
            return ok({value: await this.responses.get(required(body, "key", [], readString)) ?? null});
        },
        putCachedResponse: async ({readBody}) => {
            const body = readObject(await readBody(), []);
            const key = required(body, "key", [], readString);
            const value = required(body, "value", [], readObject);
            const durationMs = required(value, "durationMs", ["value"], readNumber);
            const storedAt = required(value, "storedAt", ["value"], readNumber);
            const answer = {body: value.body, durationMs, storedAt};
            const fits = Buffer.byteLength(key, "utf8") <= appDataLimits.maxCachedResponseBytes && JSON.stringify(answer).length <= appDataLimits.maxCachedResponseBytes;
            return ok({kept: fits && await this.responses.keep(key, answer)});
        }
    });

    /**
     * Every handler runs after the first sweep of temporary files crashes left behind, and answers a failure of the
     * folder itself (full disk, no permission, a file where a folder should be) as what it is.
     */
    private guarded(handlers: GatewayHandlers): GatewayHandlers {
        return Object.fromEntries(Object.entries(handlers).map(([name, handler]) => [name, async (call: GatewayCall): Promise<GatewayAnswer> => {
            this.swept ??= this.sweep();
            await this.swept;
            try {
                return await handler!(call);
            } catch (error) {
                throw storageError(error, this.dir);
            }
        }]));
    }

    private async sweep() {
        const folders = [path.join(this.dir, "documents"), path.join(this.dir, "history"), path.join(this.dir, "response-cache")];
        for (const jobs of [path.join(this.dir, "scoring-jobs"), path.join(this.dir, "experiments")])
            for (const name of await readdir(jobs).catch(() => [] as string[])) folders.push(path.join(jobs, name));
        for (const folder of folders) {
            for (const name of await readdir(folder).catch(() => [] as string[])) {
                if (!name.endsWith(".tmp")) continue;
                const file = path.join(folder, name);
                const age = Date.now() - await stat(file).then((info) => info.mtimeMs, () => Date.now());
                if (age > strayAgeMs) await rm(file, {force: true}).catch(() => undefined);
            }
        }
    }
}

type JobRouteNames = {list: GatewayRouteName, create: GatewayRouteName, get: GatewayRouteName, update: GatewayRouteName, add: GatewayRouteName, remove: GatewayRouteName};

/** The routes of one job store (scoring jobs, experiments): list, create with its table, read whole, update, add a result, delete. */
function jobHandlers(storeOf: () => ScoringJobStore, names: JobRouteNames): GatewayHandlers {
    // The store is read when a call comes: these handlers are built before the constructor has made the stores.
    return {
        [names.list]: async () => ok({jobs: await storeOf().listInfo()}),
        [names.create]: async ({readBody}: GatewayCall) => {
            const body = readObject(await readBody(), []);
            if (body.table === undefined) throw new GatewayError(400, "invalid_request", "invalid_request_error", "table: is required");
            return {status: 201, body: {removed: await storeOf().create(body.record as JobRecord, body.table)}};
        },
        [names.get]: async ({params}: GatewayCall) => {
            const jobId = paramName("the job id", params.id);
            const record = await storeOf().getJob(jobId);
            if (record === null) throw new GatewayError(404, "job_not_found", "invalid_request_error", `no job ${jobId}`);
            const [table, results] = await Promise.all([storeOf().getTable(jobId), storeOf().readResults(jobId)]);
            return ok({record: record as SavedJobRecord, table, results});
        },
        [names.update]: async ({params, readBody}: GatewayCall) =>
            ok({record: await storeOf().update(paramName("the job id", params.id), await readBody() as Partial<JobRecord>)}),
        [names.add]: async ({params, readBody}: GatewayCall) =>
            ok({stored: await storeOf().putResult(paramName("the job id", params.id), await readBody() as RowResult)}),
        [names.remove]: async ({params}: GatewayCall) => {
            const jobId = paramName("the job id", params.id);
            const existed = await storeOf().getJob(jobId) !== null;
            await storeOf().deleteJob(jobId);
            return ok({deleted: existed});
        }
    };
}

function ok(body: unknown): GatewayAnswer {
    return {status: 200, body};
}

/** A file-system failure as a 5xx that says which folder and why (507 when the disk is full), not a bare internal error. */
function storageError(error: unknown, dir: string): unknown {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (error instanceof GatewayError || typeof code !== "string" || !/^E[A-Z]+$/.test(code)) return error;
    const full = code === "ENOSPC" || code === "EDQUOT";
    return new GatewayError(full ? 507 : 500, full ? "storage_full" : "storage_error", "api_error",
        `the app's data folder ${dir} could not be ${full ? "written: the disk is full" : `read or written (${code})`}`);
}
