// Where an experiment's cells live while it runs in the page: in memory (the screen and the summary read them there), and
// each one written to the experiment's file in the app's data folder before the runner counts it as stored, so a reload
// or a crash loses no finished cell and the next run never sends one twice.
import type {JobRecord, ResultCounts, ResultStore, StoredResult} from "../../../../client/scoring/index.ts";
import type {SavedJobRecord, SavedRowResult} from "../../../../protocol/gateway/contract.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";

type Patch<S> = Partial<Pick<JobRecord<S>, "status" | "totalRows" | "error">>;

/**
 * A ResultStore over one saved experiment: the gateway keeps the first result of each key, as every ResultStore.
 * When a durable write fails (disk full, the experiment deleted meanwhile), saving stops for good and `onFailure`
 * says so: the run goes on in memory, and what the folder holds stays a true record (each cell at most once).
 */
export class ExperimentCellStore<R extends StoredResult, S> implements ResultStore<R, S> {
    private record: JobRecord<S>;
    private readonly results = new Map<number, R>();
    private saving = true;
    private readonly onFailure: (error: unknown) => void;

    /** `record` is the saved experiment's; `results` what the folder already holds. */
    public constructor(record: JobRecord<S>, results: readonly R[], onFailure: (error: unknown) => void) {
        this.record = record;
        for (const result of results) if (!this.results.has(result.rowIndex)) this.results.set(result.rowIndex, result);
        this.onFailure = onFailure;
    }

    /** Whether writes still reach the app's data folder. */
    public get durable(): boolean {
        return this.saving;
    }

    /** Every stored result (the screen's view of the cells), in no particular order. */
    public all(): IterableIterator<R> {
        return this.results.values();
    }

    public async getJob(jobId: string): Promise<JobRecord<S> | null> {
        return jobId === this.record.jobId ? structuredClone(this.record) : null;
    }

    /** The experiment is saved with its dataset before it runs (savedExperiments.create). */
    public async createJob(record: JobRecord<S>): Promise<void> {
        throw new Error(`experiment ${record.jobId} must be saved with its dataset first`);
    }

    public async updateJob(jobId: string, patch: Patch<S>): Promise<void> {
        this.record = {...this.record, ...patch, updatedAt: Date.now()};
        await this.copy(() => gatewayApi.updateExperiment(jobId, patch as Partial<Pick<SavedJobRecord, "status" | "totalRows" | "error">>));
    }

    public async putResult(jobId: string, result: R): Promise<boolean> {
        if (this.results.has(result.rowIndex)) return false;
        this.results.set(result.rowIndex, result);
        await this.copy(() => gatewayApi.addExperimentCell(jobId, result as unknown as SavedRowResult));
        return true;
    }

    public async doneRowIndexes(): Promise<Set<number>> {
        return new Set(this.results.keys());
    }

    public async countResults(): Promise<ResultCounts> {
        let ok = 0;
        for (const result of this.results.values()) if (result.ok) ok++;
        return {ok, errors: this.results.size - ok};
    }

    public async readResults(_jobId: string, fromIndex = 0, limit = -1): Promise<R[]> {
        const results = [...this.results.values()].filter((result) => result.rowIndex >= fromIndex).sort((a, b) => a.rowIndex - b.rowIndex);
        return limit < 0 ? results : results.slice(0, limit);
    }

    /** Experiments keep their failed cells (each is a result the matrix counts); a re-run of errors is a new experiment. */
    public async deleteErrors(): Promise<number> {
        return 0;
    }

    public async deleteJob(jobId: string): Promise<void> {
        this.results.clear();
        await gatewayApi.deleteExperiment(jobId);
    }

    public async close(): Promise<void> {}

    private async copy(write: () => Promise<unknown>) {
        if (!this.saving) return;
        try {
            await write();
        } catch (error) {
            if (!this.saving) return;
            this.saving = false;
            this.onFailure(error);
        }
    }
}
