import {openSqlite, type SqliteDatabase, type SqliteStatement} from "../../../base/node/sqlite.ts";
import type {JobRecord, JobSpec, ResultCounts, ResultStore, RowResult, StoredResult} from "../types.ts";

const schema = `
CREATE TABLE IF NOT EXISTS jobs (
    job_id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    status TEXT NOT NULL,
    total_rows INTEGER,
    error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    job_id TEXT NOT NULL REFERENCES jobs(job_id) ON DELETE CASCADE,
    row_index INTEGER NOT NULL,
    ok INTEGER NOT NULL,
    result TEXT NOT NULL,
    completed_at INTEGER NOT NULL,
    UNIQUE (job_id, row_index)
);
`;

export type SqliteResultStoreOptions = {
    /**
     * `full` (default): every result is on disk when putResult resolves, even through a power cut.
     * `normal`: safe against a killed or crashed process (WAL), may lose the last results on a power cut.
     */
    synchronous?: "full" | "normal"
};

type JobRow = {job_id: string, spec: string, status: string, total_rows: number | null, error: string | null, created_at: number, updated_at: number};

/**
 * ResultStore in a SQLite file (Node only): WAL journal, one row per (job, row index) under a UNIQUE
 * constraint, each result inserted in its own transaction as it arrives. A process killed at any point loses
 * no stored result, and a second insert of a row is ignored, so a resumed job never duplicates a row.
 * Scoring rows by default; an experiment's cells with its own type parameters (the file's tables are the same).
 */
export class SqliteResultStore<R extends StoredResult = RowResult, S = JobSpec> implements ResultStore<R, S> {
    public readonly filePath: string;
    private readonly db: SqliteDatabase;
    private readonly insertResult: SqliteStatement;

    public constructor(filePath: string, options: SqliteResultStoreOptions = {}) {
        this.filePath = filePath;
        this.db = openSqlite(filePath);
        this.db.pragma("journal_mode = WAL");
        this.db.pragma(`synchronous = ${options.synchronous === "normal" ? "NORMAL" : "FULL"}`);
        this.db.pragma("foreign_keys = ON");
        this.db.pragma("busy_timeout = 5000");
        this.db.exec(schema);
        this.insertResult = this.db.prepare("INSERT INTO results (job_id, row_index, ok, result, completed_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (job_id, row_index) DO NOTHING");
    }

    public async getJob(jobId: string): Promise<JobRecord<S> | null> {
        const row = this.db.prepare("SELECT * FROM jobs WHERE job_id = ?").get(jobId) as JobRow | undefined;
        if (row === undefined) return null;
        return {
            jobId: row.job_id,
            spec: JSON.parse(row.spec) as S,
            status: row.status as JobRecord<S>["status"],
            totalRows: row.total_rows,
            error: row.error,
            createdAt: row.created_at,
            updatedAt: row.updated_at
        };
    }

    public async createJob(record: JobRecord<S>): Promise<void> {
        this.db.prepare("INSERT INTO jobs (job_id, spec, status, total_rows, error, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
            .run(record.jobId, JSON.stringify(record.spec), record.status, record.totalRows, record.error, record.createdAt, record.updatedAt);
    }

    public async updateJob(jobId: string, patch: Partial<Pick<JobRecord<S>, "status" | "totalRows" | "error">>): Promise<void> {
        const current = await this.getJob(jobId);
        if (current === null) throw new Error(`no job ${jobId}`);
        const next = {...current, ...patch};
        this.db.prepare("UPDATE jobs SET status = ?, total_rows = ?, error = ?, updated_at = ? WHERE job_id = ?")
            .run(next.status, next.totalRows, next.error, Date.now(), jobId);
    }

    public async putResult(jobId: string, result: R): Promise<boolean> {
        // One transaction per result: committed (and, with synchronous = FULL, synced) before we report it done.
        const write = this.db.transaction(() => this.insertResult.run(jobId, result.rowIndex, result.ok ? 1 : 0, JSON.stringify(result), result.completedAt).changes);
        return write() === 1;
    }

    public async doneRowIndexes(jobId: string): Promise<Set<number>> {
        const rows = this.db.prepare("SELECT row_index FROM results WHERE job_id = ?").pluck().all(jobId) as number[];
        return new Set(rows);
    }

    public async countResults(jobId: string): Promise<ResultCounts> {
        const row = this.db.prepare("SELECT COALESCE(SUM(ok), 0) AS ok, COUNT(*) - COALESCE(SUM(ok), 0) AS errors FROM results WHERE job_id = ?").get(jobId) as ResultCounts;
        return {ok: row.ok, errors: row.errors};
    }

    public async readResults(jobId: string, fromIndex = 0, limit = -1): Promise<R[]> {
        const rows = this.db.prepare("SELECT result FROM results WHERE job_id = ? AND row_index >= ? ORDER BY row_index LIMIT ?").pluck().all(jobId, fromIndex, limit) as string[];
        return rows.map((text) => JSON.parse(text) as R);
    }

    public async deleteErrors(jobId: string): Promise<number> {
        return this.db.prepare("DELETE FROM results WHERE job_id = ? AND ok = 0").run(jobId).changes;
    }

    public async deleteJob(jobId: string): Promise<void> {
        this.db.transaction(() => {
            this.db.prepare("DELETE FROM results WHERE job_id = ?").run(jobId);
            this.db.prepare("DELETE FROM jobs WHERE job_id = ?").run(jobId);
        })();
    }

    public async close(): Promise<void> {
        if (this.db.isOpen) this.db.close();
    }
}
