// Scoring jobs on the page: starting, pausing, continuing and opening saved ones; one runs at a time.
import {resultLayout, JobRunner, type JobRecord, type JobSpec, type ResultStore, parseQuestionSet, questionInfos, type QuestionSet, type JobProgress, type ResultCounts} from "../../../../client/scoring/index.ts";
import {activeConnection, svcClientFor} from "../../gateway/gatewayState.ts";
import {newId} from "../../ui/browser.ts";
import {WorkerXlsxSource} from "./importSpreadsheet.ts";
import {notSavedNote, savedJobs} from "./savedJobs.ts";
import {memoryBatches} from "./scoringModel.ts";
import {keepOpenJob, useOpenJobStore} from "./openJob.ts";
import {busyMs} from "./jobFigures.ts";
import {keepJobNames} from "./jobNames.ts";
import {useScoringStore, type LoadedTable, type ScoringJob} from "./scoringStore.ts";

let runner: JobRunner | null = null;
/** Resolves when the current run has ended and its bookkeeping is written (a cancelled run still finishes its own). */
let runEnded: Promise<void> | null = null;
/** A job being set up (its table saved, or a saved one read back): nothing else may start meanwhile. */
let preparing = false;
let bumpTimer: ReturnType<typeof setTimeout> | null = null;

function scoringJob(id: string, spec: JobSpec, table: LoadedTable, store: ResultStore): ScoringJob {
    const infos = questionInfos(parseQuestionSet(spec.questionSet).normalized);
    return {id, spec, infos, layout: resultLayout(spec.questionSet, infos, table.columns), store, results: new Array(table.rows.length), table};
}

/** Shows on the screen that a job's results stopped being saved (its later results live in the page only). */
function savingFailed(jobId: string) {
    return (error: unknown) => {
        if (useScoringStore.getState().job?.id === jobId) useScoringStore.getState().set({saveNote: notSavedNote(error)});
    };
}

/** Scores every row of the loaded table with `questionSet` on the active connection, as a new job. */
export async function startScoring(questionSet: QuestionSet) {
    const state = useScoringStore.getState();
    const table = state.table;
    if (table === null || runner !== null || preparing) return;
    const spec: JobSpec = {questionSet, input: state.mapping, columns: table.columns, source: {name: table.fileName, sheet: table.sheet}};
    try {
        questionInfos(parseQuestionSet(questionSet).normalized);
    } catch (error) {
        state.set({jobError: (error as Error).message});
        return;
    }
    preparing = true;
    // The last job's figures go at once: the new job shows its own once its table is saved.
    state.set({progress: null, jobError: null});
    let job: ScoringJob;
    try {
        // The table and the job are saved before the first row is scored, so every result has a home.
        const id = `job-${newId()}`;
        const now = Date.now();
        const record: JobRecord = {jobId: id, spec, status: "running", totalRows: table.rows.length, error: null, createdAt: now, updatedAt: now};
        const {store, note} = await savedJobs.create(record, table, savingFailed(id));
        job = scoringJob(id, spec, table, store);
        useScoringStore.getState().set({job, progress: null, jobError: null, saveNote: note, resultsVersion: useScoringStore.getState().resultsVersion + 1});
        // A job whose table the data folder did not take cannot be opened again after a reload.
        keepOpenJob(note === null ? id : null);
    } catch (error) {
        useScoringStore.getState().set({jobError: (error as Error).message});
        return;
    } finally {
        preparing = false;
    }
    void refreshSavedJobs();
    await run(job);
}

/** Re-reads the list of saved jobs for the Scoring screen. */
export async function refreshSavedJobs() {
    try {
        const list = await savedJobs.list();
        useScoringStore.getState().set({savedJobs: list});
        keepJobNames(new Set(list.map((entry) => entry.jobId)));
    } catch {
        useScoringStore.getState().set({savedJobs: []});
    }
}

/** Opens a saved job: its table, input mapping, results and progress, ready to be looked at, exported or continued. */
export async function openSavedJob(jobId: string) {
    await openJob(jobId, false);
}

/**
 * Opens a saved job; returns the status it was stored with, or null when it could not be opened (said on the screen,
 * unless `quiet`).
 */
async function openJob(jobId: string, quiet: boolean): Promise<JobRecord["status"] | null> {
    if (runner !== null || preparing) return null;
    preparing = true;
    try {
        const loaded = await savedJobs.load(jobId, savingFailed(jobId));
        const job = scoringJob(jobId, loaded.record.spec, loaded.table, loaded.store);
        for (const result of loaded.results) job.results[result.rowIndex] = result;
        job.interrupted = loaded.record.status === "running" || loaded.record.status === "paused";
        job.earlierMs = busyMs(job.results);
        const counts = await loaded.store.countResults(jobId);
        const state = useScoringStore.getState();
        // The file the screen had open is replaced by the saved table: its re-read source goes.
        if (state.source instanceof WorkerXlsxSource) state.source.close();
        state.set({source: null, table: loaded.table, loadError: null, mapping: loaded.record.spec.input, job, jobError: null, saveNote: null,
            progress: restoredProgress(loaded.record, counts, loaded.table.rows.length), resultsVersion: state.resultsVersion + 1});
        keepOpenJob(jobId);
        return loaded.record.status;
    } catch (error) {
        if (!quiet) useScoringStore.getState().set({jobError: `Could not open the saved job: ${(error as Error).message}`});
        return null;
    } finally {
        preparing = false;
    }
}

/**
 * After a reload or a restart: opens again the job that was open (on Scoring and Evaluation alike) and, when it was
 * running as the page went, goes on with the rows without a result, as Continue would. A paused job opens paused
 * (interrupted), to be continued by hand; a job that is no longer saved is forgotten.
 */
export async function restoreOpenJob() {
    const {jobId} = useOpenJobStore.getState();
    if (jobId === null || useScoringStore.getState().job !== null) return;
    const status = await openJob(jobId, true);
    if (status === null) {
        if (useScoringStore.getState().job === null) keepOpenJob(null);
        return;
    }
    if (status === "running" && useScoringStore.getState().job?.id === jobId) await continueScoring(false);
}

/** Deletes a saved job (not one that is running); the screen forgets it if it was open. */
export async function deleteSavedJob(jobId: string) {
    const state = useScoringStore.getState();
    if (state.job?.id === jobId && (runner !== null || preparing)) return;
    try {
        await savedJobs.remove(jobId);
        if (useScoringStore.getState().job?.id === jobId) useScoringStore.getState().set({job: null, progress: null, saveNote: null});
        if (useOpenJobStore.getState().jobId === jobId) keepOpenJob(null);
    } catch (error) {
        useScoringStore.getState().set({jobError: `Could not delete the saved job: ${(error as Error).message}`});
    }
    await refreshSavedJobs();
}

/** Runs the job again: only the rows without a result (a cancelled or failed job goes on where it stopped). */
export async function continueScoring(rescoreErrors: boolean) {
    // Continue right after Cancel: the cancelled run may still be ending; wait for it rather than ignore the click.
    if (runner !== null && (runner.status === "cancelled" || runner.status === "failed" || runner.status === "completed")) await runEnded;
    const job = useScoringStore.getState().job;
    if (job === null || runner !== null || preparing) return;
    if (rescoreErrors) job.results.forEach((result, index) => {
        if (result && !result.ok) job.results[index] = undefined;
    });
    await run(job, rescoreErrors);
}

export function pauseScoring() {
    runner?.pause();
}

export function resumeScoring() {
    runner?.resume();
}

export function cancelScoring() {
    runner?.cancel();
}

async function run(job: ScoringJob, rescoreErrors = false) {
    let ended = () => {};
    runEnded = new Promise((resolve) => ended = resolve);
    const store = useScoringStore.getState();
    job.interrupted = false;
    // The runs before this one (results already stored): elapsed and rows/s cover the whole job.
    job.earlierMs = busyMs(job.results);
    store.set({jobError: null});
    try {
        runner = new JobRunner({
            jobId: job.id,
            spec: job.spec,
            rows: () => memoryBatches(job.table.rows),
            totalRows: job.table.rows.length,
            client: svcClientFor(activeConnection(), {maxAttempts: 4}),
            store: job.store,
            concurrency: store.concurrency,
            rescoreErrors,
            progressIntervalMs: 200,
            onProgress: (progress) => useScoringStore.getState().set({progress}),
            onResult: (result) => {
                job.results[result.rowIndex] = result;
                // The grid and histograms re-read the results a few times a second, not once per row.
                bumpTimer ??= setTimeout(() => {
                    bumpTimer = null;
                    useScoringStore.getState().set({resultsVersion: useScoringStore.getState().resultsVersion + 1});
                }, 250);
            }
        });
        useScoringStore.getState().set({progress: await runner.run()});
    } catch (error) {
        useScoringStore.getState().set({jobError: (error as Error).message});
    } finally {
        runner = null;
        ended();
        if (bumpTimer !== null) clearTimeout(bumpTimer);
        bumpTimer = null;
        useScoringStore.getState().set({resultsVersion: useScoringStore.getState().resultsVersion + 1});
        void refreshSavedJobs();
    }
}

/** Whether a job is running or paused right now, or being set up (a new one cannot start). */
export function scoringActive(): boolean {
    return runner !== null || preparing;
}

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
        rateLimited: false,
        elapsedMs: 0,
        lastError: null,
        fatalError: record.error
    };
}
