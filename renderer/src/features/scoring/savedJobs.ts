// Scoring jobs saved in the app's data folder through the gateway: each job with its results, and the table it scores.
import {MemoryResultStore, type JobRecord, type RowResult} from "../../../../client/scoring/index.ts";
import type {SavedJobRecord} from "../../../../protocol/gateway/contract.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import {reportSavedItemProblems} from "../../gateway/savedItemProblems.ts";
import {GatewayResultStore} from "./GatewayResultStore.ts";
import {MirroredResultStore} from "./MirroredResultStore.ts";
import type {LoadedTable, SavedJobSummary} from "./scoringStore.ts";

export type LoadedJob = {record: JobRecord, table: LoadedTable, results: RowResult[], store: MirroredResultStore};

// One operation at a time: a listing never sees a job this page is half way through creating or deleting.
let queue: Promise<unknown> = Promise.resolve();

function serial<T>(task: () => Promise<T>): Promise<T> {
    const next = queue.then(task, task);
    queue = next.catch(() => undefined);
    return next;
}

/** What the person reads when results are not being saved. */
export function notSavedNote(error: unknown): string {
    const why = error instanceof Error ? error.message : String(error);
    return `Results are not being saved in the app's data folder (${why}). They are kept in this window only: export them before you reload or close it.`;
}

/**
 * Scoring jobs saved by the gateway in the app's database (electron/appData/JobStore.ts): a job's record, table and
 * results, so they outlive the page, the window and the launch. A new job is saved with its table in one transaction,
 * and every job is kept until the user deletes it.
 */
export const savedJobs = {
    /** Every saved job, the newest first. */
    list(): Promise<SavedJobSummary[]> {
        return serial(async () => {
            const {jobs, problems} = await gatewayApi.scoringJobs();
            reportSavedItemProblems("scoring", problems);
            return jobs.map(({record, done, failed, hasTable}): SavedJobSummary => {
                const spec = record.spec as JobRecord["spec"];
                return {
                    jobId: record.jobId,
                    fileName: spec.source?.name ?? "table",
                    questionSetName: typeof spec.questionSet?.name === "string" && spec.questionSet.name.trim() !== "" ? spec.questionSet.name : null,
                    sheet: spec.source?.sheet ?? null,
                    status: record.status,
                    error: record.error,
                    interrupted: record.status === "running" || record.status === "paused",
                    done,
                    failed,
                    totalRows: record.totalRows,
                    createdAt: record.createdAt,
                    updatedAt: record.updatedAt,
                    hasTable
                };
            });
        });
    },

    /**
     * The store of a new job, already holding its record: in memory, and saved with its table when the gateway takes
     * them (`note` says why not otherwise).
     */
    create(record: JobRecord, table: LoadedTable, onFailure: (error: unknown) => void): Promise<{store: MirroredResultStore, note: string | null}> {
        return serial(async () => {
            const memory = new MemoryResultStore();
            await memory.createJob(record);
            let durable: GatewayResultStore | null = null;
            let note: string | null = null;
            try {
                await gatewayApi.createScoringJob(record as SavedJobRecord, table);
                durable = new GatewayResultStore();
            } catch (error) {
                note = notSavedNote(error);
            }
            return {store: new MirroredResultStore(memory, durable, onFailure), note};
        });
    },

    /** A saved job with its table and results, its store in memory again and still saving to the data folder. */
    load(jobId: string, onFailure: (error: unknown) => void): Promise<LoadedJob> {
        return serial(async () => {
            const saved = await gatewayApi.scoringJob(jobId).catch((error: {status?: number}) => {
                throw error.status === 404 ? new Error("this job is no longer saved") : error;
            });
            reportSavedItemProblems("scoring", saved.problems, `saved-scoring-job-${jobId}`);
            if (saved.table === null) throw new Error("the table of this job was not saved, or could not be read; delete the job");
            const record = saved.record as JobRecord;
            const results = saved.results as unknown as RowResult[];
            const memory = new MemoryResultStore();
            await memory.createJob(record);
            for (const result of results) await memory.putResult(jobId, result);
            return {record, table: saved.table as LoadedTable, results, store: new MirroredResultStore(memory, new GatewayResultStore(), onFailure)};
        });
    },

    /** Deletes the job, its results and its table. */
    remove(jobId: string): Promise<void> {
        return serial(async () => {
            await gatewayApi.deleteScoringJob(jobId);
        });
    }
};
