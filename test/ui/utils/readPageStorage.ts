import type {Page} from "playwright-core";

/** Everything the page keeps on this machine, as one string: localStorage, sessionStorage and every IndexedDB store. */
export async function readPageStorage(page: Page): Promise<string> {
    return page.evaluate(async () => {
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
        return JSON.stringify(dump);
    });
}
