// What a scoring job's progress line says beside its counts: why it failed, and its elapsed time and rate over all its
// runs (a job continued after a reload or a cancel is one job).
import type {JobProgress, RowResult} from "../../../../client/scoring/index.ts";

/**
 * Why a job stopped as failed, shown beside its status: the error that stopped it (a row's errors count only the rows
 * the server refused, so "failed" beside "errors 0" says nothing on its own), or that none was kept. Null unless failed.
 */
export function failureNote(progress: Pick<JobProgress, "status" | "fatalError">): string | null {
    if (progress.status !== "failed") return null;
    return progress.fatalError?.trim() || "the job stopped, and why was not saved; Continue where it stopped sends the rows without a result";
}

/**
 * The time a job's requests were under way, all its runs together: the union of each sent row's request (from its
 * completion back by its duration, retries and waits for a rate limit included). Gaps between runs (the page closed,
 * the job cancelled) are not counted; a row answered from the response cache took none.
 */
export function busyMs(results: Iterable<RowResult | undefined>): number {
    const spans: Array<[number, number]> = [];
    for (const result of results) {
        if (result === undefined || result.cached || !(result.durationMs > 0)) continue;
        spans.push([result.completedAt - result.durationMs, result.completedAt]);
    }
    spans.sort((a, b) => a[0] - b[0]);
    let total = 0;
    let end = -Infinity;
    for (const [from, to] of spans) {
        if (to <= end) continue;
        total += to - Math.max(from, end);
        end = to;
    }
    return total;
}

/**
 * Elapsed time and rows per second over the whole job: the earlier runs' time (`earlierMs`, busyMs of the results
 * they stored) plus this run's. While running, the rate is the recent pace (what the ETA uses); once stopped, every
 * row with a result over that time.
 */
export function jobFigures(progress: Pick<JobProgress, "status" | "done" | "elapsedMs" | "rowsPerSecond">, earlierMs: number): {elapsedMs: number, rowsPerSecond: number | null} {
    const elapsedMs = earlierMs + progress.elapsedMs;
    if (progress.status === "running") return {elapsedMs, rowsPerSecond: progress.rowsPerSecond};
    return {elapsedMs, rowsPerSecond: progress.done > 0 && elapsedMs > 0 ? progress.done / (elapsedMs / 1000) : null};
}
