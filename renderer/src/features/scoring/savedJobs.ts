// Scoring jobs saved in the browser (IndexedDB): each job with its results, and the table it scores.
import {openDatabase, requestResult, transactionDone} from "../../../../base/browser/indexedDb.ts";
import {IndexedDbResultStore} from "../../../../client/scoring/browser/IndexedDbResultStore.ts";
import {MemoryResultStore, type JobRecord, type RowResult} from "../../../../client/scoring/index.ts";
import {MirroredResultStore} from "./MirroredResultStore.ts";
import type {LoadedTable, SavedJobSummary} from "./scoringStore.ts";

const dbName = "svc-studio-scoring-tables";
const storeName = "tables";

type SavedTable = {jobId: string, table: LoadedTable, savedAt: number};

let tablesOpening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
    tablesOpening ??= openDatabase(dbName, 1, (db) => {
        db.createObjectStore(storeName, {keyPath: "jobId"}).createIndex("savedAt", "savedAt");
    }).then((db) => {
        // Closed under us (the site's data was cleared, the database deleted): the next call opens it afresh.
        const forget = () => tablesOpening = null;
        db.addEventListener("close", forget);
        db.addEventListener("versionchange", forget);
        return db;
    });
    return tablesOpening;
}

async function write(change: (store: IDBObjectStore) => void): Promise<void> {
    const transaction = (await open()).transaction(storeName, "readwrite", {durability: "strict"});
    const committed = transactionDone(transaction);
    change(transaction.objectStore(storeName));
    await committed;
}

/**
 * The table each saved scoring job scores (its columns and rows, file name, sheet, header choice), by job id,
 * in its own IndexedDB database beside the job store (client/scoring/browser/IndexedDbResultStore.ts): the rows
 * are needed to show a job's results and to continue it after the page was reloaded or closed.
 */
export const savedTables = {
    /** Resolves once the table is on disk; rejects when IndexedDB is unavailable or full. */
    put(jobId: string, table: LoadedTable): Promise<void> {
        const entry: SavedTable = {jobId, table, savedAt: Date.now()};
        return write((store) => store.put(entry));
    },
    async get(jobId: string): Promise<LoadedTable | null> {
        const db = await open();
        const entry = await requestResult(db.transaction(storeName).objectStore(storeName).get(jobId) as IDBRequest<SavedTable | undefined>);
        return entry?.table ?? null;
    },
    remove(jobId: string): Promise<void> {
        return write((store) => store.delete(jobId));
    },
    /** The job ids with a saved table and when each was saved, without reading the tables themselves. */
    async list(): Promise<Array<{jobId: string, savedAt: number}>> {
        const db = await open();
        const cursor = db.transaction(storeName).objectStore(storeName).index("savedAt").openKeyCursor();
        return new Promise((resolve, reject) => {
            const found: Array<{jobId: string, savedAt: number}> = [];
            cursor.onsuccess = () => {
                const at = cursor.result;
                if (at === null) return resolve(found);
                found.push({jobId: at.primaryKey as string, savedAt: at.key as number});
                at.continue();
            };
            cursor.onerror = () => reject(cursor.error);
        });
    }
};

/** The newest jobs kept in the browser; older ones (their tables and results) go when a new job starts. */
export const maxSavedJobs = 10;
/** A table saved this recently may belong to a job another window is creating right now: never an orphan. */
const orphanGraceMs = 60_000;

export type LoadedJob = {record: JobRecord, table: LoadedTable, results: RowResult[], store: MirroredResultStore};

let opening: Promise<IndexedDbResultStore> | null = null;

async function jobStore(): Promise<IndexedDbResultStore> {
    opening ??= IndexedDbResultStore.open();
    const store = await opening;
    if (store.isOpen) return store;
    // Closed under us (the site's data was cleared, or the database deleted): open it afresh.
    opening = IndexedDbResultStore.open();
    return opening;
}

// One operation at a time: a listing never sees a job this page is half way through creating or deleting.
let queue: Promise<unknown> = Promise.resolve();

function serial<T>(task: () => Promise<T>): Promise<T> {
    const next = queue.then(task, task);
    queue = next.catch(() => undefined);
    return next;
}

/** What the person reads when results are not being saved. */
export function notSavedNote(error: unknown): string {
    const name = error instanceof DOMException ? error.name : "";
    const why = name === "QuotaExceededError" ? "its storage for this app is full"
        : name === "InvalidStateError" ? "its storage for this app was closed, e.g. by clearing the site's data"
        : error instanceof Error ? error.message : String(error);
    return `Results are not being saved in this browser (${why}). They are kept in this page only: export them before you reload or close it.`;
}

/**
 * Scoring jobs saved in the browser: the job and its results in IndexedDbResultStore, its table in
 * savedTables. Created table first, deleted job first, so a listed job always has its table; a table left
 * behind by a failure is removed at the next listing.
 */
export const savedJobs = {
    /** Every saved job, the newest first; empty where IndexedDB is unavailable. */
    list(): Promise<SavedJobSummary[]> {
        return serial(async () => {
            let store: IndexedDbResultStore;
            try {
                store = await jobStore();
            } catch {
                return [];
            }
            const [records, tables] = await Promise.all([store.listJobs(), savedTables.list()]);
            const jobIds = new Set(records.map((record) => record.jobId));
            for (const table of tables)
                if (!jobIds.has(table.jobId) && Date.now() - table.savedAt > orphanGraceMs) await savedTables.remove(table.jobId);
            const withTable = new Set(tables.map((table) => table.jobId));
            return Promise.all(records.map(async (record): Promise<SavedJobSummary> => {
                const counts = await store.countResults(record.jobId);
                return {
                    jobId: record.jobId,
                    fileName: record.spec.source?.name ?? "table",
                    sheet: record.spec.source?.sheet ?? null,
                    status: record.status,
                    interrupted: record.status === "running" || record.status === "paused",
                    done: counts.ok + counts.errors,
                    failed: counts.errors,
                    totalRows: record.totalRows,
                    createdAt: record.createdAt,
                    updatedAt: record.updatedAt,
                    hasTable: withTable.has(record.jobId)
                };
            }));
        });
    },

    /**
     * The store of a new job, already holding its record: in memory, and saved with its table when IndexedDB
     * takes them (`note` says why not otherwise). The oldest jobs beyond maxSavedJobs are deleted.
     */
    create(record: JobRecord, table: LoadedTable, onFailure: (error: unknown) => void): Promise<{store: MirroredResultStore, note: string | null}> {
        return serial(async () => {
            const memory = new MemoryResultStore();
            await memory.createJob(record);
            let durable: IndexedDbResultStore | null = null;
            let note: string | null = null;
            try {
                durable = await jobStore();
                await savedTables.put(record.jobId, table);
                await durable.createJob(record);
            } catch (error) {
                durable = null;
                note = notSavedNote(error);
                await savedTables.remove(record.jobId).catch(() => undefined);
            }
            if (durable !== null) {
                const old = (await durable.listJobs().catch(() => [])).slice(maxSavedJobs);
                for (const job of old) await removeJob(durable, job.jobId).catch(() => undefined);
            }
            return {store: new MirroredResultStore(memory, durable, onFailure), note};
        });
    },

    /** A saved job with its table and results, its store in memory again and still saving to IndexedDB. */
    load(jobId: string, onFailure: (error: unknown) => void): Promise<LoadedJob> {
        return serial(async () => {
            const durable = await jobStore();
            const [record, table] = await Promise.all([durable.getJob(jobId), savedTables.get(jobId)]);
            if (record === null) throw new Error("this job is no longer saved");
            if (table === null) throw new Error("the table of this job was not saved; delete the job");
            const results = await durable.readResults(jobId);
            const memory = new MemoryResultStore();
            await memory.createJob(record);
            for (const result of results) await memory.putResult(jobId, result);
            return {record, table, results, store: new MirroredResultStore(memory, durable, onFailure)};
        });
    },

    /** Deletes the job, its results and its table. */
    remove(jobId: string): Promise<void> {
        return serial(async () => removeJob(await jobStore(), jobId));
    }
};

async function removeJob(store: IndexedDbResultStore, jobId: string) {
    await store.deleteJob(jobId);
    await savedTables.remove(jobId);
}
