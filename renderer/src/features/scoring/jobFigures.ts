// What a scoring job's progress line says beside its counts: why it failed.
import type {JobProgress} from "../../../../client/scoring/index.ts";

/**
 * Why a job stopped as failed, shown beside its status: the error that stopped it (a row's errors count only the rows
 * the server refused, so "failed" beside "errors 0" says nothing on its own), or that none was kept. Null unless failed.
 */
export function failureNote(progress: Pick<JobProgress, "status" | "fatalError">): string | null {
    if (progress.status !== "failed") return null;
    return progress.fatalError?.trim() || "the job stopped, and why was not saved; Continue where it stopped sends the rows without a result";
}
