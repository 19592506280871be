import type {JobRecord, ResultCounts, ResultStore, RowResult} from "../../../../client/scoring/index.ts";
import type {SavedJobRecord} from "../../../../protocol/gateway/contract.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";

/**
 * The durable side of the scoring screen's MirroredResultStore: every write goes to the job in the app's database (the
 * gateway's `/app-data/scoring-jobs/...`) and resolves once it is committed, so a reload, a closed window or the next
 * launch loses no stored result. The gateway keeps the first result of a row, as every ResultStore.
 */
export class GatewayResultStore implements ResultStore {
    public async getJob(jobId: string): Promise<JobRecord | null> {
        return (await gatewayApi.scoringJobs()).jobs.find((info) => info.record.jobId === jobId)?.record as JobRecord | undefined ?? null;
    }

    /** A saved job is created with its table (savedJobs.create); the runner never creates one on this store. */
    public async createJob(record: JobRecord): Promise<void> {
        throw new Error(`job ${record.jobId} must be saved with its table`);
    }

    public async updateJob(jobId: string, patch: Partial<Pick<JobRecord, "status" | "totalRows" | "error">>): Promise<void> {
        await gatewayApi.updateScoringJob(jobId, patch as Partial<Pick<SavedJobRecord, "status" | "totalRows" | "error">>);
    }

    public async putResult(jobId: string, result: RowResult): Promise<boolean> {
        return (await gatewayApi.addScoringResult(jobId, result)).stored;
    }

    public async doneRowIndexes(jobId: string): Promise<Set<number>> {
        return new Set((await this.readResults(jobId)).map((result) => result.rowIndex));
    }

    public async countResults(jobId: string): Promise<ResultCounts> {
        const info = (await gatewayApi.scoringJobs()).jobs.find((item) => item.record.jobId === jobId);
        return info === undefined ? {ok: 0, errors: 0} : {ok: info.done - info.failed, errors: info.failed};
    }

    public async readResults(jobId: string, fromIndex = 0, limit = -1): Promise<RowResult[]> {
        const results = ((await gatewayApi.scoringJob(jobId)).results as unknown as RowResult[]).filter((result) => result.rowIndex >= fromIndex);
        return limit < 0 ? results : results.slice(0, Math.floor(limit));
    }

    public async deleteErrors(jobId: string): Promise<number> {
        return (await gatewayApi.deleteScoringErrors(jobId)).deleted;
    }

    public async deleteJob(jobId: string): Promise<void> {
        await gatewayApi.deleteScoringJob(jobId);
    }

    /** Nothing to release: each call is one request. */
    public async close(): Promise<void> {}
}
