import {openDatabase, requestResult, transactionDone} from "../../../../client/scoring/browser/IndexedDbResultStore.ts";
import type {LoadedTable} from "../state/useScoringStore.ts";

const dbName = "svc-studio-scoring-tables";
const storeName = "tables";

type SavedTable = {jobId: string, table: LoadedTable, savedAt: number};

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
    opening ??= openDatabase(dbName, 1, (db) => {
        db.createObjectStore(storeName, {keyPath: "jobId"}).createIndex("savedAt", "savedAt");
    }).then((db) => {
        // Closed under us (the site's data was cleared, the database deleted): the next call opens it afresh.
        const forget = () => opening = null;
        db.addEventListener("close", forget);
        db.addEventListener("versionchange", forget);
        return db;
    });
    return opening;
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
