// Promise wrappers for IndexedDB (browser only): opening a database, one request, one transaction.

/**
 * Opens (creating or upgrading) an IndexedDB database. The connection closes itself when another page asks
 * for a newer version, so an upgrade in another window is never blocked by this one.
 */
export async function openDatabase(name: string, version: number, upgrade: (db: IDBDatabase, oldVersion: number) => void, factory: IDBFactory = indexedDB): Promise<IDBDatabase> {
    // Absent where a browser or its settings turn IndexedDB off.
    if (!factory) throw new Error("IndexedDB is not available in this browser");
    const request = factory.open(name, version);
    request.onupgradeneeded = (event) => upgrade(request.result, event.oldVersion);
    const db = await requestResult(request);
    db.onversionchange = () => db.close();
    return db;
}

/** An IndexedDB request as a promise: its result on success, its error otherwise. */
export function requestResult<T>(request: IDBRequest<T>): Promise<T> {
    return new Promise((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
    });
}

/**
 * Resolves when the transaction has committed (for a `strict` one: flushed to disk), rejects when it aborts,
 * a quota error included. Call it right after creating the transaction, before its requests can settle.
 */
export function transactionDone(transaction: IDBTransaction): Promise<void> {
    const done = new Promise<void>((resolve, reject) => {
        transaction.oncomplete = () => resolve();
        transaction.onabort = () => reject(transaction.error ?? new DOMException("The IndexedDB transaction was aborted.", "AbortError"));
        // A failed request aborts the transaction unless handled: the abort event carries the error.
    });
    // Callers that throw before awaiting it must not leave an unhandled rejection behind.
    done.catch(() => undefined);
    return done;
}
