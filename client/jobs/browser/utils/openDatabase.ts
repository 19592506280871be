import {requestResult} from "./requestResult.ts";

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
