import {readdir, rm, stat} from "node:fs/promises";
import path from "node:path";
import {appDataLimits, datasetPageLimit, maxDatasetWriteBytes, type DatasetChange, type DatasetWrite, type EarlierStorage, type NewPromptVersion, type SavedPromptItem, type SavedPromptVersion} from "../../protocol/gateway/contract.ts";
import type {GatewayRouteName} from "../../protocol/gateway/routes.ts";
import {readNumber, readObject, readString, required} from "../../protocol/validation.ts";
import type {SqliteBinding} from "../../base/node/sqlite.ts";
import {ApiError} from "../../protocol/errors.ts";
import {GatewayError, type GatewayAnswer, type GatewayCall, type GatewayHandlers} from "../api/answers.ts";
import {AppDatabase, loadSqliteBinding} from "./AppDatabase.ts";
import {backupHandlers} from "./backup.ts";
import {EarlierOrigins, portParam} from "./earlierOrigins.ts";
import {moveDatasetDocuments} from "./datasetDocuments.ts";
import {DatasetStore} from "./DatasetStore.ts";
import {movePromptDocuments, PromptStore} from "./PromptStore.ts";
import {type DocumentWrite, DocumentStore, importDocumentsFolder} from "./DocumentStore.ts";
import {importItemFolders} from "./importItemFolders.ts";
import {historyHandlers, itemProblemHandlers, jobHandlers} from "./itemRoutes.ts";
import {JobStore} from "./JobStore.ts";
import {ResponseCacheStore} from "./ResponseCacheStore.ts";
import {RunHistory} from "./RunHistory.ts";
import {paramName} from "./storedNames.ts";

/** Room for the JSON around a value (`{"record":...,"table":...}`) and for whitespace a client may send. */
const envelopeBytes = 64 * 1024;

/**
 * The body limits of the app-data routes, above the gateway's 64 KB for its other routes: a run holds images, a job its
 * whole table. Each is its store's limit plus the envelope; routes not listed keep the gateway's limit.
 */
export const appDataBodyLimits: Partial<Record<GatewayRouteName, number>> = {
    putAppDocument: appDataLimits.maxDocumentRequestBytes,
    putDataset: maxDatasetWriteBytes,
    changeDataset: appDataLimits.maxDocumentRequestBytes,
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

export type AppDataStoreOptions = {
    /** The Chromium profile earlier versions kept their data in (Electron's user data folder), to move it in from. */
    browserProfileDir?: string,
    /** The gateway's port: its own origin is not an earlier one. */
    ownPort?: () => number,
    /** Loads the SQLite binding (default AppDatabase's dynamic import); tests pass one that fails. */
    loadSqlite?: () => Promise<SqliteBinding>
};

/**
 * The renderer's saved data in the app's data folder, so it survives a restart, an update and a new gateway port (the
 * page's own storage is per origin, and the origin changes with the port at every launch): its documents in the app's
 * database (`app.sqlite`, opened at the first call that needs it, since the main process loads no native module at
 * start-up), the run history (`history/`), scoring jobs (`scoring-jobs/`), experiments (`experiments/`) and the
 * response cache (`response-cache/`) as plain files. Its routes are `/gateway/api/app-data/...`.
 */
export class AppDataStore {
    public readonly dir: string;
    public readonly documents: DocumentStore;
    /** Datasets and their rows, in tables of their own: read a page at a time, written an edit at a time. */
    public readonly datasets: DatasetStore;
    /** Saved prompts and question sets with their versions. */
    public readonly prompts: PromptStore;
    public readonly history: RunHistory;
    public readonly jobs: JobStore;
    /** Experiments, kept as scoring jobs are: the dataset as the table, one result per (row, variant) cell. */
    public readonly experiments: JobStore;
    /** Answers kept by what was sent, so an edited experiment sends only the cells whose request changed. */
    public readonly responses: ResponseCacheStore;
    private swept: Promise<void> | null = null;
    private readonly loadSqlite?: () => Promise<SqliteBinding>;
    /** The browser storage of earlier versions' origins, moved in once each. */
    public readonly earlier: EarlierOrigins;
    private readonly ownPort: () => number;
    private opening: Promise<AppDatabase> | null = null;

    public constructor(dir: string, options: AppDataStoreOptions = {}) {
        this.dir = path.resolve(dir);
        this.loadSqlite = options.loadSqlite;
        this.ownPort = options.ownPort ?? (() => 0);
        this.documents = new DocumentStore(() => this.database());
        this.datasets = new DatasetStore(() => this.database());
        this.prompts = new PromptStore(() => this.database());
        this.history = new RunHistory(() => this.database());
        this.jobs = new JobStore(() => this.database(), "scoring");
        this.experiments = new JobStore(() => this.database(), "experiment");
        this.responses = new ResponseCacheStore(path.join(this.dir, "response-cache"));
        this.earlier = new EarlierOrigins(options.browserProfileDir ?? null, {database: () => this.database(), documents: this.documents, history: this.history, jobs: this.jobs});
    }

    /** The app-data routes, by name (protocol/gateway/routes.ts). */
    public readonly handlers: GatewayHandlers = this.guarded({
        appDocuments: async () => ok(await this.documents.read()),
        putAppDocument: async ({params, query, readBody}) => {
            const key = paramName("the document key", params.key);
            const write = documentWrite(query);
            const value = await readBody().catch((error: unknown) => {
                throw error instanceof ApiError && error.status === 413 ? new GatewayError(413, "payload_too_large", "invalid_request_error",
                    `document ${key} is over the gateway's request body limit for one document, appDataLimits.maxDocumentRequestBytes ` +
                    `(${appDataLimits.maxDocumentRequestBytes} bytes); nothing was changed`) : error;
            });
            return ok(await this.documents.put(key, value, write));
        },
        deleteAppDocument: async ({params, query}) => ok({deleted: await this.documents.remove(paramName("the document key", params.key), documentWrite(query))}),
        acknowledgeDocumentProblems: async () => ok({acknowledged: await this.documents.acknowledgeProblems()}),
        // The store is read when a call comes: these handlers are built before the constructor has run.
        ...backupHandlers(() => ({dir: this.dir, database: () => this.database(), loadBinding: () => (this.loadSqlite ?? loadSqliteBinding)(), close: () => this.close()})),
        promptItems: async () => ok({items: await this.prompts.list()}),
        promptVersions: async ({params}) => ok(await this.prompts.versions(paramName("the item id", params.id))),
        addPromptVersion: async ({params, readBody}) =>
            ok({version: await this.prompts.add(paramName("the item id", params.id), readObject(await readBody(), []) as NewPromptVersion)}),
        deletePromptItem: async ({params}) => ok({deleted: await this.prompts.remove(paramName("the item id", params.id))}),
        restorePromptItem: async ({readBody}) => {
            const body = readObject(await readBody(), []) as {item: SavedPromptItem, versions: SavedPromptVersion[]};
            if (!Array.isArray(body.versions)) throw new GatewayError(400, "invalid_request", "invalid_request_error", "versions: must be an array");
            await this.prompts.restore(body.item, body.versions);
            return ok({restored: true});
        },
        earlierOrigins: async () => ok({origins: await this.earlier.pending(this.ownPort())}),
        importEarlierOrigin: async ({params, readBody}) => ok({moved: await this.earlier.importFrom(portParam(params.port), readObject(await readBody(), []) as EarlierStorage)}),
        datasets: async () => ok(await this.datasets.list()),
        datasetRows: async ({params, query}) => ok(await this.datasets.rows(paramName("the dataset id", params.id),
            integerQuery(query, "offset") ?? 0, Math.min(integerQuery(query, "limit") ?? datasetPageLimit, datasetPageLimit))),
        putDataset: async ({params, readBody}) => {
            const body = await readBody().catch((error: unknown) => {
                throw error instanceof ApiError && error.status === 413 ? new GatewayError(413, "payload_too_large", "invalid_request_error",
                    `the dataset is over the largest one the app imports at once, maxDatasetWriteBytes (${maxDatasetWriteBytes} bytes of JSON); ` +
                    "sample or split the file first; nothing was changed") : error;
            });
            const write = readObject(body, []) as DatasetWrite;
            if (typeof write.revision !== "number" || !Array.isArray(write.rows))
                throw new GatewayError(400, "invalid_request", "invalid_request_error", "revision and rows: are required (revision 0 for a new dataset)");
            return ok({dataset: await this.datasets.put(paramName("the dataset id", params.id), write)});
        },
        changeDataset: async ({params, readBody}) => {
            const change = readObject(await readBody(), []) as DatasetChange;
            if (typeof change.revision !== "number") throw new GatewayError(400, "invalid_request", "invalid_request_error", "revision: is required");
            if (change.edits !== undefined && !Array.isArray(change.edits)) throw new GatewayError(400, "invalid_request", "invalid_request_error", "edits: must be an array");
            return ok({dataset: await this.datasets.change(paramName("the dataset id", params.id), change)});
        },
        deleteDataset: async ({params, query}) => {
            const revision = integerQuery(query, "revision");
            if (revision === undefined) throw new GatewayError(400, "invalid_request", "invalid_request_error", "revision: is required");
            return ok({deleted: await this.datasets.remove(paramName("the dataset id", params.id), revision)});
        },
        ...historyHandlers(() => this.history),
        ...jobHandlers(() => this.jobs, {list: "scoringJobs", create: "createScoringJob", get: "scoringJob", update: "updateScoringJob", add: "addScoringResult", remove: "deleteScoringJob"}),
        deleteScoringErrors: async ({params}) => ok({deleted: await this.jobs.deleteErrors(paramName("the job id", params.id))}),
        ...jobHandlers(() => this.experiments, {list: "experiments", create: "createExperiment", get: "experiment", update: "updateExperiment", add: "addExperimentCell", remove: "deleteExperiment"}),
        ...itemProblemHandlers(() => this.database()),
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

    /** Closes the app's database (once the gateway has answered its last request). */
    public async close(): Promise<void> {
        this.earlier.close();
        const opening = this.opening;
        this.opening = null;
        const database = await opening?.catch(() => null);
        database?.close();
    }

    /**
     * The app's database, opened at the first call that needs it (the SQLite binding loaded then, and the old folder of
     * documents copied in); a failure is that call's, and the next call tries again.
     */
    private database(): Promise<AppDatabase> {
        if (this.opening !== null) return this.opening;
        const opening = (async () => {
            const database = await AppDatabase.open(this.dir, {loadBinding: this.loadSqlite});
            try {
                await importDocumentsFolder(database, this.dir);
                moveDatasetDocuments(database);
                movePromptDocuments(database);
                await importItemFolders(database, this.dir);
            } catch (error) {
                database.close();
                throw error;
            }
            return database;
        })();
        this.opening = opening;
        opening.catch(() => {
            if (this.opening === opening) this.opening = null;
        });
        return opening;
    }

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
        for (const folder of [path.join(this.dir, "response-cache")]) {
            for (const name of await readdir(folder).catch(() => [] as string[])) {
                if (!name.endsWith(".tmp")) continue;
                const file = path.join(folder, name);
                const age = Date.now() - await stat(file).then((info) => info.mtimeMs, () => Date.now());
                if (age > strayAgeMs) await rm(file, {force: true}).catch(() => undefined);
            }
        }
    }
}

/** A document write's query: `revision` (the one it is based on), `writer` and `sequence` (protocol/gateway DocumentWriteQuery). */
function documentWrite(query: URLSearchParams): DocumentWrite {
    const revision = integerQuery(query, "revision");
    const sequence = integerQuery(query, "sequence");
    const writer = query.get("writer");
    if (writer !== null && !/^[A-Za-z0-9_-]{1,64}$/.test(writer))
        throw new GatewayError(400, "invalid_request", "invalid_request_error", "writer: must be 1 to 64 letters, digits, '_' or '-'");
    if ((writer === null) !== (sequence === undefined))
        throw new GatewayError(400, "invalid_request", "invalid_request_error", "writer and sequence: give both or neither");
    return {revision, writer: writer === null ? undefined : {id: writer, sequence: sequence!}};
}

/** A non-negative integer in the query, undefined when absent; anything else is a 400. */
function integerQuery(query: URLSearchParams, name: string): number | undefined {
    const text = query.get(name);
    if (text === null) return undefined;
    if (!/^\d{1,15}$/.test(text))
        throw new GatewayError(400, "invalid_request", "invalid_request_error", `${name}: must be a non-negative integer, got ${JSON.stringify(text.slice(0, 40))}`);
    return Number(text);
}

function ok(body: unknown): GatewayAnswer {
    return {status: 200, body};
}

/**
 * A file-system or SQLite failure as a 5xx that says which folder and why (507 when the disk is full), not a bare
 * internal error.
 */
function storageError(error: unknown, dir: string): unknown {
    const sqlite = error as {code?: unknown, sqliteCodeName?: unknown, message?: string} | undefined;
    if (sqlite?.code === "ERR_SQLITE_ERROR" && typeof sqlite.sqliteCodeName === "string") {
        const name = sqlite.sqliteCodeName;
        if (name === "SQLITE_FULL") return new GatewayError(507, "storage_full", "api_error", `the app's database in ${dir} could not be written: the disk is full`);
        if (name === "SQLITE_BUSY") return new GatewayError(503, "storage_busy", "api_error", `the app's database in ${dir} is held by another program (${sqlite.message}); try again`);
        return new GatewayError(500, "storage_error", "api_error", `the app's database in ${dir} could not be read or written (${name}: ${sqlite.message})`);
    }
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (error instanceof GatewayError || typeof code !== "string" || !/^E[A-Z]+$/.test(code)) return error;
    const full = code === "ENOSPC" || code === "EDQUOT";
    return new GatewayError(full ? 507 : 500, full ? "storage_full" : "storage_error", "api_error",
        `the app's data folder ${dir} could not be ${full ? "written: the disk is full" : `read or written (${code})`}`);
}
