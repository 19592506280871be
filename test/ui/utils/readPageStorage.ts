import {readdir, readFile} from "node:fs/promises";
import path from "node:path";
import type {Page} from "playwright-core";

/**
 * Everything the app keeps on this machine, as one string: the page's localStorage, sessionStorage and every IndexedDB
 * store, and every file of the app's data folder (`dataDir`), where the gateway keeps what the app saves; but the files
 * whose path in the folder matches `except`.
 */
export async function readPageStorage(page: Page, dataDir: string, {except}: {except?: RegExp} = {}): Promise<string> {
    const inPage = await page.evaluate(async () => {
        const dump: Record<string, unknown> = {localStorage: {...localStorage}, sessionStorage: {...sessionStorage}};
        for (const info of await indexedDB.databases()) {
            if (!info.name) continue;
            const db = await new Promise<IDBDatabase>((resolve, reject) => {
                const request = indexedDB.open(info.name!);
                request.onsuccess = () => resolve(request.result);
                request.onerror = () => reject(request.error);
            });
            for (const storeName of db.objectStoreNames) {
                dump[`${info.name}/${storeName}`] = await new Promise((resolve, reject) => {
                    const request = db.transaction(storeName).objectStore(storeName).getAll();
                    request.onsuccess = () => resolve(request.result);
                    request.onerror = () => reject(request.error);
                });
            }
            db.close();
        }
        return dump;
    });
    const files: Record<string, string> = {};
    for (const entry of await readdir(dataDir, {recursive: true, withFileTypes: true}).catch(() => [])) {
        if (!entry.isFile()) continue;
        const file = path.join(entry.parentPath, entry.name);
        if (except?.test(path.relative(dataDir, file))) continue;
        files[path.relative(dataDir, file)] = await readFile(file, "utf8");
    }
    return JSON.stringify({...inPage, dataDir: files});
}
