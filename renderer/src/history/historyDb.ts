import type {HistoryEntry} from "./types.ts";

const dbName = "svc-studio";
const storeName = "runs";
/** Oldest runs beyond this many are dropped, so images in old requests do not fill the disk. */
export const maxHistoryEntries = 500;

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
    opening ??= new Promise((resolve, reject) => {
        const request = indexedDB.open(dbName, 1);
        request.onupgradeneeded = () => {
            const store = request.result.createObjectStore(storeName, {keyPath: "id"});
            store.createIndex("createdAt", "createdAt");
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
    });
    return opening;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
    return new Promise((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
    });
}

/** Run history in IndexedDB (it holds images and long replies, too big for localStorage). */
export const historyDb = {
    async add(entry: HistoryEntry): Promise<void> {
        const db = await open();
        const store = db.transaction(storeName, "readwrite").objectStore(storeName);
        await done(store.put(entry));
        const keys = await done(store.index("createdAt").getAllKeys());
        for (const key of keys.slice(0, Math.max(0, keys.length - maxHistoryEntries))) store.delete(key);
    },
    /** Newest first. */
    async list(): Promise<HistoryEntry[]> {
        const db = await open();
        const entries = await done(db.transaction(storeName).objectStore(storeName).index("createdAt").getAll() as IDBRequest<HistoryEntry[]>);
        return entries.reverse();
    },
    async remove(id: string): Promise<void> {
        const db = await open();
        await done(db.transaction(storeName, "readwrite").objectStore(storeName).delete(id));
    },
    async clear(): Promise<void> {
        const db = await open();
        await done(db.transaction(storeName, "readwrite").objectStore(storeName).clear());
    }
};
