import {openDatabase, requestResult, transactionDone} from "../../../base/browser/indexedDb.ts";
import type {JobRecord, ResultCounts, ResultStore, RowResult} from "../types.ts";

export const defaultJobDatabase = "svc-studio-jobs";

export type IndexedDbResultStoreOptions = {
    /** The database's name; default `svc-studio-jobs`. */
    name?: string,
    /** Default `strict`: a write resolves once it is flushed to disk, not merely handed to the OS. */
    durability?: IDBTransactionDurability,
    /** Default: the page's `indexedDB`. */
    factory?: IDBFactory
};

/** A result as stored: keyed by [jobId, rowIndex]; `ok` as 0 / 1 because booleans cannot be index keys. */
type ResultEntry = {jobId: string, rowIndex: number, ok: 0 | 1, result: RowResult};

const jobsStore = "jobs";
const resultsStore = "results";
const okIndex = "byJobOk";

/** Every key [jobId, rowIndex] of a job from row `from` on. */
const rowRange = (jobId: string, from = -Infinity) => IDBKeyRange.bound([jobId, from], [jobId, Infinity]);

/**
 * ResultStore in IndexedDB (browser only), the SqliteResultStore's twin: a `jobs` store keyed by job id and a
 * `results` store keyed by [jobId, rowIndex], so a row has one result at most. Each write is one transaction,
 * and it resolves only once the transaction has committed (durability `strict` where the browser supports
 * it), so a page that is reloaded or closed at any point loses no stored result and a resumed job never
 * duplicates a row. Open it with `IndexedDbResultStore.open()`.
 */
export class IndexedDbResultStore implements ResultStore {
    public readonly name: string;
    private readonly db: IDBDatabase;
    private readonly durability: IDBTransactionDurability;
    private open = true;

    private constructor(db: IDBDatabase, name: string, durability: IDBTransactionDurability) {
        this.db = db;
        this.name = name;
        this.durability = durability;
        // The browser closes the connection when the site's data is cleared; another page's upgrade or
        // deletion of the database closes it too (openDatabase). Either way this store is done.
        const closed = () => this.open = false;
        db.addEventListener("close", closed);
        db.addEventListener("versionchange", closed);
    }

    /** False once closed, by close() or by the browser: every call then rejects, and a new store must be opened. */
    public get isOpen(): boolean {
        return this.open;
    }

    /** Opens (or creates) the database; rejects where IndexedDB is unavailable or refused. */
    public static async open(options: IndexedDbResultStoreOptions = {}): Promise<IndexedDbResultStore> {
        const name = options.name ?? defaultJobDatabase;
        const db = await openDatabase(name, 1, (upgraded) => {
            upgraded.createObjectStore(jobsStore, {keyPath: "jobId"});
            const results = upgraded.createObjectStore(resultsStore, {keyPath: ["jobId", "rowIndex"]});
            results.createIndex(okIndex, ["jobId", "ok"]);
        }, options.factory ?? indexedDB);
        return new IndexedDbResultStore(db, name, options.durability ?? "strict");
    }

    /** Every stored job, the newest first (by creation). */
    public async listJobs(): Promise<JobRecord[]> {
        const jobs = await requestResult(this.read(jobsStore).objectStore(jobsStore).getAll() as IDBRequest<JobRecord[]>);
        return jobs.sort((a, b) => b.createdAt - a.createdAt);
    }

    public async getJob(jobId: string): Promise<JobRecord | null> {
        const job = await requestResult(this.read(jobsStore).objectStore(jobsStore).get(jobId) as IDBRequest<JobRecord | undefined>);
        return job ?? null;
    }

    public async createJob(record: JobRecord): Promise<void> {
        await this.write([jobsStore], async (transaction) => {
            const jobs = transaction.objectStore(jobsStore);
            if (await requestResult(jobs.getKey(record.jobId)) !== undefined) throw new Error(`job ${record.jobId} exists`);
            jobs.add(record);
        });
    }

    public async updateJob(jobId: string, patch: Partial<Pick<JobRecord, "status" | "totalRows" | "error">>): Promise<void> {
        await this.write([jobsStore], async (transaction) => {
            const jobs = transaction.objectStore(jobsStore);
            const current = await requestResult(jobs.get(jobId) as IDBRequest<JobRecord | undefined>);
            if (current === undefined) throw new Error(`no job ${jobId}`);
            // Only the fields the interface allows to change, whatever else the patch object carries.
            const {status = current.status, totalRows = current.totalRows, error = current.error} = patch;
            jobs.put({...current, status, totalRows, error, updatedAt: Date.now()});
        });
    }

    public async putResult(jobId: string, result: RowResult): Promise<boolean> {
        // The check and the insert share one readwrite transaction: IndexedDB runs those one at a time, and
        // `add` refuses an existing key anyway, so the first result of a row is the one that stays.
        return this.write([jobsStore, resultsStore], async (transaction) => {
            if (await requestResult(transaction.objectStore(jobsStore).getKey(jobId)) === undefined) throw new Error(`no job ${jobId}`);
            const results = transaction.objectStore(resultsStore);
            if (await requestResult(results.getKey([jobId, result.rowIndex])) !== undefined) return false;
            const entry: ResultEntry = {jobId, rowIndex: result.rowIndex, ok: result.ok ? 1 : 0, result};
            results.add(entry);
            return true;
        });
    }

    public async doneRowIndexes(jobId: string): Promise<Set<number>> {
        const keys = await requestResult(this.read(resultsStore).objectStore(resultsStore).getAllKeys(rowRange(jobId)));
        return new Set(keys.map((key) => (key as [string, number])[1]));
    }

    public async countResults(jobId: string): Promise<ResultCounts> {
        const index = this.read(resultsStore).objectStore(resultsStore).index(okIndex);
        const [ok, errors] = await Promise.all([requestResult(index.count([jobId, 1])), requestResult(index.count([jobId, 0]))]);
        return {ok, errors};
    }

    /** Results in row order from `fromIndex` on; `limit` < 0 or absent: all of them (as SqliteResultStore). */
    public async readResults(jobId: string, fromIndex = 0, limit = -1): Promise<RowResult[]> {
        if (limit === 0) return [];
        const count = limit < 0 ? undefined : Math.min(Math.floor(limit), 2 ** 32 - 1);
        const entries = await requestResult(this.read(resultsStore).objectStore(resultsStore).getAll(rowRange(jobId, fromIndex), count) as IDBRequest<ResultEntry[]>);
        return entries.map((entry) => entry.result);
    }

    public async deleteErrors(jobId: string): Promise<number> {
        return this.write([resultsStore], async (transaction) => {
            const results = transaction.objectStore(resultsStore);
            // An index's getAllKeys gives the primary keys of the matching results.
            const keys = await requestResult(results.index(okIndex).getAllKeys([jobId, 0]));
            for (const key of keys) results.delete(key);
            return keys.length;
        });
    }

    /** Removes the job and all its results in one transaction. */
    public async deleteJob(jobId: string): Promise<void> {
        await this.write([jobsStore, resultsStore], async (transaction) => {
            transaction.objectStore(resultsStore).delete(rowRange(jobId));
            transaction.objectStore(jobsStore).delete(jobId);
        });
    }

    public async close(): Promise<void> {
        this.open = false;
        this.db.close();
    }

    private read(store: string): IDBTransaction {
        return this.db.transaction(store, "readonly");
    }

    /**
     * Runs `body` in one readwrite transaction and resolves with its value once the transaction committed.
     * A throw in `body` aborts the transaction, so nothing it wrote stays.
     */
    private async write<T>(stores: string[], body: (transaction: IDBTransaction) => Promise<T>): Promise<T> {
        const transaction = this.db.transaction(stores, "readwrite", {durability: this.durability});
        const committed = transactionDone(transaction);
        let value: T;
        try {
            value = await body(transaction);
        } catch (error) {
            try {
                transaction.abort();
            } catch {
                // Already finished or aborted (a failed request aborts it): nothing was committed.
            }
            throw error;
        }
        await committed;
        return value;
    }
}
