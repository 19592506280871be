import type {MemoryResultStore, JobRecord, ResultCounts, ResultStore, RowResult} from "../../../../client/scoring/index.ts";

/**
 * The scoring screen's ResultStore: everything lives in memory (the grid, the exports and the runner read it
 * there), and every write is copied to a durable store (the app's data folder, GatewayResultStore.ts) before it
 * resolves, so a reload loses nothing stored. When a durable write fails (the disk is full, the job's folder went
 * away), copying stops for good and `onFailure` says so: the job goes on in memory, and what the durable store holds stays as it was
 * (every result in it a real one, each row at most once), so that job can still be opened and continued.
 */
export class MirroredResultStore implements ResultStore {
    private readonly memory: MemoryResultStore;
    private durable: ResultStore | null;
    private readonly onFailure: (error: unknown) => void;

    public constructor(memory: MemoryResultStore, durable: ResultStore | null, onFailure: (error: unknown) => void) {
        this.memory = memory;
        this.durable = durable;
        this.onFailure = onFailure;
    }

    /** Whether writes are still copied to the durable store. */
    public get saving(): boolean {
        return this.durable !== null;
    }

    public getJob(jobId: string): Promise<JobRecord | null> {
        return this.memory.getJob(jobId);
    }

    public async createJob(record: JobRecord): Promise<void> {
        await this.memory.createJob(record);
        await this.copy((durable) => durable.createJob(record));
    }

    public async updateJob(jobId: string, patch: Partial<Pick<JobRecord, "status" | "totalRows" | "error">>): Promise<void> {
        await this.memory.updateJob(jobId, patch);
        await this.copy((durable) => durable.updateJob(jobId, patch));
    }

    public async putResult(jobId: string, result: RowResult): Promise<boolean> {
        // Memory decides whether the row is new; the durable copy keeps its own first result either way.
        if (!await this.memory.putResult(jobId, result)) return false;
        await this.copy((durable) => durable.putResult(jobId, result));
        return true;
    }

    public doneRowIndexes(jobId: string): Promise<Set<number>> {
        return this.memory.doneRowIndexes(jobId);
    }

    public countResults(jobId: string): Promise<ResultCounts> {
        return this.memory.countResults(jobId);
    }

    public readResults(jobId: string, fromIndex?: number, limit?: number): Promise<RowResult[]> {
        return this.memory.readResults(jobId, fromIndex, limit);
    }

    public async deleteErrors(jobId: string): Promise<number> {
        const deleted = await this.memory.deleteErrors(jobId);
        await this.copy((durable) => durable.deleteErrors(jobId));
        return deleted;
    }

    public async deleteJob(jobId: string): Promise<void> {
        await this.memory.deleteJob(jobId);
        await this.copy((durable) => durable.deleteJob(jobId));
    }

    /** Closes the memory side only: the durable store is shared by every job of the page. */
    public close(): Promise<void> {
        return this.memory.close();
    }

    private async copy(write: (durable: ResultStore) => Promise<unknown>) {
        const durable = this.durable;
        if (durable === null) return;
        try {
            await write(durable);
        } catch (error) {
            if (this.durable === null) return;
            this.durable = null;
            this.onFailure(error);
        }
    }
}
