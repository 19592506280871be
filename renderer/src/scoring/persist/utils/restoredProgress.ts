import type {JobProgress, JobRecord, ResultCounts} from "../../../../../client/scoring/index.ts";

/**
 * The progress a saved job shows when it is opened again, before anything runs: its counts as stored. A job
 * stored as running or paused was interrupted (the page closed mid-run), so it shows as stopped, never running.
 */
export function restoredProgress(record: JobRecord, counts: ResultCounts, tableRows: number): JobProgress {
    const done = counts.ok + counts.errors;
    const interrupted = record.status === "running" || record.status === "paused";
    return {
        jobId: record.jobId,
        status: interrupted ? "cancelled" : record.status,
        totalRows: record.totalRows ?? tableRows,
        done,
        succeeded: counts.ok,
        failed: counts.errors,
        scoredThisRun: 0,
        alreadyDone: done,
        inFlight: 0,
        retries: 0,
        rowsPerSecond: null,
        etaSeconds: null,
        elapsedMs: 0,
        lastError: null,
        fatalError: record.error
    };
}
