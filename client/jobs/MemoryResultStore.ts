import type {JobRecord, ResultCounts, ResultStore, RowResult} from "./types.ts";

/** A ResultStore in memory, for browser sessions and tests: same semantics as the SQLite one, no durability. */
export class MemoryResultStore implements ResultStore {
    private readonly jobs = new Map<string, JobRecord>();
    private readonly results = new Map<string, Map<number, RowResult>>();

    public async getJob(jobId: string): Promise<JobRecord | null> {
        const job = this.jobs.get(jobId);
        return job === undefined ? null : structuredClone(job);
    }

    public async createJob(record: JobRecord): Promise<void> {
        if (this.jobs.has(record.jobId)) throw new Error(`job ${record.jobId} exists`);
        this.jobs.set(record.jobId, structuredClone(record));
        this.results.set(record.jobId, new Map());
    }

    public async updateJob(jobId: string, patch: Partial<Pick<JobRecord, "status" | "totalRows" | "error">>): Promise<void> {
        const job = this.job(jobId);
        Object.assign(job, patch, {updatedAt: Date.now()});
    }

    public async putResult(jobId: string, result: RowResult): Promise<boolean> {
        this.job(jobId);
        const rows = this.results.get(jobId)!;
        if (rows.has(result.rowIndex)) return false;
        rows.set(result.rowIndex, structuredClone(result));
        return true;
    }

    public async doneRowIndexes(jobId: string): Promise<Set<number>> {
        return new Set(this.results.get(jobId)?.keys() ?? []);
    }

    public async countResults(jobId: string): Promise<ResultCounts> {
        let ok = 0, errors = 0;
        for (const result of this.results.get(jobId)?.values() ?? []) {
            if (result.ok) ok++;
            else errors++;
        }
        return {ok, errors};
    }

    public async readResults(jobId: string, fromIndex = 0, limit = Number.MAX_SAFE_INTEGER): Promise<RowResult[]> {
        return [...this.results.get(jobId)?.values() ?? []]
            .filter((result) => result.rowIndex >= fromIndex)
            .sort((a, b) => a.rowIndex - b.rowIndex)
            .slice(0, limit)
            .map((result) => structuredClone(result));
    }

    public async deleteErrors(jobId: string): Promise<number> {
        const rows = this.results.get(jobId);
        let deleted = 0;
        for (const [index, result] of rows ?? []) if (!result.ok && rows!.delete(index)) deleted++;
        return deleted;
    }

    public async deleteJob(jobId: string): Promise<void> {
        this.jobs.delete(jobId);
        this.results.delete(jobId);
    }

    public async close(): Promise<void> {}

    private job(jobId: string): JobRecord {
        const job = this.jobs.get(jobId);
        if (job === undefined) throw new Error(`no job ${jobId}`);
        return job;
    }
}
