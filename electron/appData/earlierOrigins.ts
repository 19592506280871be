import {randomBytes} from "node:crypto";
import {readdir, readFile, stat} from "node:fs/promises";
import {createServer, type Server} from "node:http";
import path from "node:path";
import type {JobRecord, RowResult} from "../../client/scoring/types.ts";
import type {EarlierOrigin, EarlierStorage, SavedRun} from "../../protocol/gateway/contract.ts";
import {GatewayError} from "../api/answers.ts";
import type {AppDatabase} from "./AppDatabase.ts";
import type {DocumentStore} from "./DocumentStore.ts";
import type {JobStore} from "./JobStore.ts";
import type {RunHistory} from "./RunHistory.ts";

/**
 * The http://127.0.0.1:<port> origins that hold storage in a Chromium profile (Electron's user data folder, or a
 * browser's user data folder), oldest first by when their storage last changed. Earlier versions of the app kept their
 * data in the page's storage, per origin, and the desktop app's origin had a new port at every launch. IndexedDB has a
 * folder per origin; localStorage is one LevelDB whose keys start with `_<origin>\0`, read here as bytes.
 */
export async function findEarlierOrigins(profileDir: string): Promise<Array<{port: number, modifiedAt: number}>> {
    // When an origin last wrote: its IndexedDB folder says so; localStorage's files are shared by every origin, so
    // they date only the origins that have no IndexedDB folder.
    const indexed = new Map<number, number>();
    const local = new Map<number, number>();
    const note = (found: Map<number, number>, port: number, modifiedAt: number) => found.set(port, Math.max(found.get(port) ?? 0, modifiedAt));
    // Electron keeps its default profile in the user data folder itself; Chromium in its "Default" folder.
    for (const profile of [profileDir, path.join(profileDir, "Default")]) {
        for (const entry of await readdir(path.join(profile, "IndexedDB"), {withFileTypes: true}).catch(() => [])) {
            const match = /^http_127\.0\.0\.1_(\d+)\.indexeddb\.leveldb$/.exec(entry.name);
            if (match !== null) note(indexed, Number(match[1]), (await stat(path.join(profile, "IndexedDB", entry.name))).mtimeMs);
        }
        const levelDb = path.join(profile, "Local Storage", "leveldb");
        for (const name of await readdir(levelDb).catch(() => [] as string[])) {
            if (!/\.(log|ldb)$/.test(name)) continue;
            const file = path.join(levelDb, name);
            const [bytes, info] = await Promise.all([readFile(file), stat(file)]);
            for (const match of bytes.toString("latin1").matchAll(/_http:\/\/127\.0\.0\.1:(\d{1,5})\0/g)) note(local, Number(match[1]), info.mtimeMs);
        }
    }
    const found = new Map([...local, ...indexed]);
    return [...found].filter(([port]) => port > 0 && port < 65536).map(([port, modifiedAt]) => ({port, modifiedAt})).sort((a, b) => a.modifiedAt - b.modifiedAt);
}

/** How long a reading page is served on an earlier origin's port. */
const servedMs = 60_000;

type Stores = {database: () => Promise<AppDatabase>, documents: DocumentStore, history: RunHistory, jobs: JobStore};

/**
 * Moves an earlier version's data in from the browser storage of its origins, once per origin. The gateway lists the
 * origins not moved in yet and, for each, serves a small page on its port for a while (with a one-time nonce); the app's
 * page frames it (same site: the frame reads that origin's own storage) and sends what it read here, newest origin
 * first, so for a setting saved under several origins the newest wins. What the database already holds is kept.
 */
export class EarlierOrigins {
    private readonly profileDir: string | null;
    private readonly stores: Stores;
    private readonly servers = new Map<number, Server>();

    public constructor(profileDir: string | null, stores: Stores) {
        this.profileDir = profileDir;
        this.stores = stores;
    }

    /** The origins to move in (newest first), each with the address of its reading page; `ownPort`: the gateway's. */
    public async pending(ownPort: number): Promise<EarlierOrigin[]> {
        if (this.profileDir === null) return [];
        const db = await this.stores.database();
        const imported = new Set((db.statement("SELECT port FROM imported_origins").all() as Array<{port: number}>).map((row) => row.port));
        const origins = (await findEarlierOrigins(this.profileDir)).filter((origin) => origin.port !== ownPort && !imported.has(origin.port)).reverse();
        const pending: EarlierOrigin[] = [];
        for (const origin of origins) {
            const nonce = randomBytes(16).toString("hex");
            // A port another program holds now cannot be read this time: it is offered again at the next start.
            if (await this.serve(origin.port, nonce, ownPort)) pending.push({port: origin.port, url: `http://127.0.0.1:${origin.port}/svc-studio-earlier-storage?nonce=${nonce}`});
        }
        return pending;
    }

    /** Moves in what the page read at `port`, in one transaction per kind, and records the origin as moved in. */
    public async importFrom(port: number, storage: EarlierStorage): Promise<string> {
        const counts = {settings: 0, runs: 0, jobs: 0};
        for (const [key, text] of Object.entries(storage.localStorage ?? {})) {
            if (!/^svc-studio-[A-Za-z0-9._-]+$/.test(key) || typeof text !== "string") continue;
            let value: unknown;
            try {
                value = JSON.parse(text);
            } catch {
                continue;
            }
            counts.settings += await this.stores.documents.put(key, value, {revision: 0}).then(() => 1, () => 0);
        }
        for (const run of storage.runs ?? []) counts.runs += await this.stores.history.add(run as SavedRun).then(() => 1, () => 0);
        const tables = new Map((storage.tables ?? []).map((entry) => [(entry as {jobId?: unknown}).jobId, (entry as {table?: unknown}).table]));
        for (const record of (storage.jobs ?? []) as JobRecord[]) {
            const table = tables.get(record?.jobId);
            if (table === undefined || await this.stores.jobs.getJob(record.jobId).catch(() => null) !== null) continue;
            try {
                await this.stores.jobs.create(record, table);
            } catch {
                continue;
            }
            counts.jobs++;
            for (const result of (storage.results ?? []) as Array<RowResult & {jobId?: string}>) {
                if (result?.jobId !== record.jobId) continue;
                const {jobId: _job, ...row} = result;
                await this.stores.jobs.putResult(record.jobId, row as RowResult).catch(() => false);
            }
        }
        const summary = [counts.settings > 0 ? `${counts.settings} setting${counts.settings === 1 ? "" : "s"}` : null,
            counts.runs > 0 ? `${counts.runs} run${counts.runs === 1 ? "" : "s"}` : null,
            counts.jobs > 0 ? `${counts.jobs} scoring job${counts.jobs === 1 ? "" : "s"}` : null].filter(Boolean).join(", ") || "nothing new";
        const db = await this.stores.database();
        db.transaction(() => db.statement("INSERT OR REPLACE INTO imported_origins (port, imported_at, summary) VALUES (?, ?, ?)").run(port, Date.now(), summary));
        this.stop(port);
        return summary;
    }

    public close(): void {
        for (const port of [...this.servers.keys()]) this.stop(port);
    }

    private stop(port: number) {
        this.servers.get(port)?.close();
        this.servers.delete(port);
    }

    /** Serves the reading page on `port` for a while; false when the port is taken. */
    private serve(port: number, nonce: string, ownPort: number): Promise<boolean> {
        this.stop(port);
        const parent = `http://127.0.0.1:${ownPort}`;
        const server = createServer((req, res) => {
            const url = new URL(req.url ?? "/", "http://127.0.0.1");
            if (url.pathname !== "/svc-studio-earlier-storage" || url.searchParams.get("nonce") !== nonce) {
                res.writeHead(404).end();
                return;
            }
            res.writeHead(200, {
                "Content-Type": "text/html; charset=utf-8",
                "Cache-Control": "no-store",
                "Content-Security-Policy": `default-src 'none'; script-src 'unsafe-inline'; frame-ancestors ${parent}`
            }).end(readingPage(parent));
        });
        return new Promise((resolve) => {
            server.once("error", () => resolve(false));
            server.listen(port, "127.0.0.1", () => {
                this.servers.set(port, server);
                setTimeout(() => this.stop(port), servedMs).unref();
                resolve(true);
            });
        });
    }
}

/** The page that reads an earlier origin's storage (never creating a database it lacks) and hands it to the app's page. */
function readingPage(parent: string): string {
    return `<!doctype html><meta charset="utf-8"><title>Svc Studio</title><script>
(async () => {
    const read = (name, store) => new Promise((resolve) => {
        const request = indexedDB.open(name);
        request.onupgradeneeded = () => request.transaction.abort();
        request.onerror = () => resolve([]);
        request.onsuccess = () => {
            const db = request.result;
            if (!db.objectStoreNames.contains(store)) { db.close(); return resolve([]); }
            const all = db.transaction(store).objectStore(store).getAll();
            all.onsuccess = () => { db.close(); resolve(all.result); };
            all.onerror = () => { db.close(); resolve([]); };
        };
    });
    const local = {};
    for (let index = 0; index < localStorage.length; index++) {
        const key = localStorage.key(index);
        if (key.startsWith("svc-studio")) local[key] = localStorage.getItem(key);
    }
    const storage = {localStorage: local, runs: await read("svc-studio", "runs"), jobs: await read("svc-studio-jobs", "jobs"),
        results: await read("svc-studio-jobs", "results"), tables: await read("svc-studio-scoring-tables", "tables")};
    parent.postMessage({svcStudioEarlierStorage: storage}, ${JSON.stringify(parent)});
})();
</script>`;
}

/** A port in a route's path. */
export function portParam(text: string | undefined): number {
    const port = Number(text);
    if (!/^\d{1,5}$/.test(text ?? "") || port < 1 || port > 65535) throw new GatewayError(400, "invalid_request", "invalid_request_error", "port: must be a port number");
    return port;
}
