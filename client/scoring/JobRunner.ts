import type {JobSpec, RowBatch, SheetRow, JobProgress, JobStatus, ResultStore, RowResult} from "./types.ts";
import {stableStringify} from "../../protocol/decisions/stableStringify.ts";
import {askQuestions, type DecisionCaller} from "./askQuestions.ts";
import {runSettings, TaskRunner, type RunSettings, type WorkUnit} from "./TaskRunner.ts";

export {classifyFailure} from "./TaskRunner.ts";

/**
 * What must not change for a job to be resumed: the questions, endpoint options, input mapping and columns.
 * A calibration, a name or a description may change (they do not change what the server is asked).
 */
export function jobFingerprint(spec: JobSpec): string {
    const {format, questions, x_svc} = spec.questionSet;
    const roles = spec.labelColumns === undefined && spec.inputColumns === undefined ? {} : {labelColumns: spec.labelColumns ?? null, inputColumns: spec.inputColumns ?? null};
    return stableStringify({format, questions, x_svc: x_svc ?? null, input: spec.input, columns: spec.columns, ...roles});
}

export type {DecisionCaller} from "./askQuestions.ts";

export type JobRunnerOptions = RunSettings & {
    jobId: string,
    spec: JobSpec,
    /** The table's data rows from the first, on every call (Table.batches). */
    rows: () => AsyncIterable<RowBatch>,
    /** Data rows in the table when known up front (Table.countRows), for the ETA. */
    totalRows?: number | null,
    client: DecisionCaller,
    store: ResultStore,
    /** Called on every change, at most every `progressIntervalMs` (default 250) for row completions. */
    onProgress?: (progress: JobProgress) => void,
    /** Called with each result once it is stored. */
    onResult?: (result: RowResult) => void
};

/** The job in the store was created for other questions, input mapping or columns. */
export class JobMismatchError extends Error {
    public constructor(jobId: string) {
        super(`job ${jobId} was started with other questions, input mapping or columns; start a new job instead of resuming this one`);
        this.name = "JobMismatchError";
    }
}

type Pending = WorkUnit & {row: SheetRow};

/**
 * Scores every row of a table with a question set: the scoring task of the one TaskRunner (see there for
 * durability, pause / resume / cancel, pacing and progress). Each row is one request; its answers are checked
 * against the questions before they are stored.
 */
export class JobRunner {
    private readonly runner: TaskRunner<Pending, RowResult, JobSpec>;

    public constructor(options: JobRunnerOptions) {
        const ask = askQuestions(options.spec.questionSet, options.spec.input, options.spec);
        this.runner = new TaskRunner<Pending, RowResult, JobSpec>({
            jobId: options.jobId,
            spec: options.spec,
            store: options.store,
            checkResumable(stored) {
                if (jobFingerprint(stored) !== jobFingerprint(options.spec)) throw new JobMismatchError(options.jobId);
            },
            units: (done, total) => pendingRows(options.rows, done, total),
            totalUnits: options.totalRows,
            async perform({key, row}, context) {
                const started = performance.now();
                const asked = await ask.send(options.client, ask.build(row), context);
                const durationMs = performance.now() - started;
                return asked.ok
                    ? {rowIndex: key, ok: true, response: asked.response, attempts: asked.attempts, durationMs, completedAt: Date.now()}
                    : {rowIndex: key, ok: false, error: asked.error, attempts: asked.attempts, durationMs, completedAt: Date.now()};
            },
            refused: ({key}, error, attempts, durationMs) => ({rowIndex: key, ok: false, error, attempts, durationMs, completedAt: Date.now()}),
            ...runSettings(options),
            failFastHint: "check the question set and input mapping",
            unitName: "rows",
            onProgress: options.onProgress,
            onResult: options.onResult
        });
    }

    public get status(): JobStatus | "idle" {
        return this.runner.status;
    }

    public progress(): JobProgress {
        return this.runner.progress();
    }

    public pause() {
        this.runner.pause();
    }

    public resume() {
        this.runner.resume();
    }

    public cancel() {
        this.runner.cancel("The scoring job was cancelled.");
    }

    /** Runs the job to its end (completed, cancelled or failed) and returns the final progress. */
    public run(): Promise<JobProgress> {
        return this.runner.run();
    }
}

/** The table's rows without a result, in order; the total once the end of the table is reached. */
async function* pendingRows(rows: () => AsyncIterable<RowBatch>, done: ReadonlySet<number>, total: (count: number) => void): AsyncGenerator<Pending, void, undefined> {
    let seen = 0;
    for await (const batch of rows()) {
        for (let offset = 0; offset < batch.rows.length; offset++) {
            const key = batch.start + offset;
            if (!done.has(key)) yield {key, row: batch.rows[offset]};
        }
        seen = batch.start + batch.rows.length;
    }
    total(seen);
}
