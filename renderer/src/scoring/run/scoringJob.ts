import {resultLayout} from "../../../../client/jobs/answers/flattenResult.ts";
import {JobRunner} from "../../../../client/jobs/JobRunner.ts";
import {MemoryResultStore} from "../../../../client/jobs/MemoryResultStore.ts";
import type {JobSpec} from "../../../../client/jobs/types.ts";
import {parseQuestionSet} from "../../../../client/questions/parseQuestionSet.ts";
import {questionInfos} from "../../../../client/questions/questionInfos.ts";
import type {QuestionSet} from "../../../../client/questions/types.ts";
import {activeConnection} from "../../gateway/activeConnection.ts";
import {svcClientFor} from "../../gateway/svcClientFor.ts";
import {newId} from "../../utils/newId.ts";
import {memoryBatches} from "../model/memoryBatches.ts";
import {useScoringStore, type ScoringJob} from "../state/useScoringStore.ts";

let runner: JobRunner | null = null;
let bumpTimer: ReturnType<typeof setTimeout> | null = null;

/** Scores every row of the loaded table with `questionSet` on the active connection, as a new job. */
export async function startScoring(questionSet: QuestionSet) {
    const state = useScoringStore.getState();
    const table = state.table;
    if (table === null || runner !== null) return;
    const spec: JobSpec = {questionSet, input: state.mapping, columns: table.columns, source: {name: table.fileName, sheet: table.sheet}};
    let infos;
    try {
        infos = questionInfos(parseQuestionSet(questionSet).normalized);
    } catch (error) {
        state.set({jobError: (error as Error).message});
        return;
    }
    const job: ScoringJob = {id: `job-${newId()}`, spec, infos, layout: resultLayout(questionSet, infos, table.columns), store: new MemoryResultStore(),
        results: new Array(table.rows.length), table};
    state.set({job, progress: null, jobError: null, resultsVersion: state.resultsVersion + 1});
    await run(job);
}

/** Runs the job again: only the rows without a result (a cancelled or failed job goes on where it stopped). */
export async function continueScoring(rescoreErrors: boolean) {
    const job = useScoringStore.getState().job;
    if (job === null || runner !== null) return;
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
    const store = useScoringStore.getState();
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
        if (bumpTimer !== null) clearTimeout(bumpTimer);
        bumpTimer = null;
        useScoringStore.getState().set({resultsVersion: useScoringStore.getState().resultsVersion + 1});
    }
}

/** Whether a job is running or paused right now (a new one cannot start). */
export function scoringActive(): boolean {
    return runner !== null;
}
