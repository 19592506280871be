import type {JobSpec, RowBatch, SheetRow, JobProgress, JobStatus, ResultStore, RowResult} from "./types.ts";
import {stableStringify} from "../../protocol/decisions/stableStringify.ts";
import {askQuestions, type DecisionCaller} from "./askQuestions.ts";
import {CachedCalls, type CacheScope, type ResponseCache} from "./responseCache.ts";
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
    /**
     * Answers kept by what was sent (responseCache.ts), with the connection (and model) `client` reaches for their
     * keys: a row whose request it holds is answered from it, marked `cached`, and nothing is sent; a row that
     * succeeded keeps its answer there once stored. Without it every row is sent.
     */
    cache?: {cache: ResponseCache, scope: CacheScope},
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
    /** Answers being put in the response cache; run() ends once they are. */
    private readonly keeping = new Set<Promise<void>>();

    public constructor(options: JobRunnerOptions) {
        const ask = askQuestions(options.spec.questionSet, options.spec.input, options.spec);
        // A stored row's answer goes to the cache once it is stored, so the cache never holds a row the store lacks.
        const toKeep = new WeakMap<RowResult, CachedCalls>();
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
                const calls = options.cache === undefined ? undefined : new CachedCalls(options.cache.cache);
                const client = calls === undefined ? options.client : calls.wrap(options.client, options.cache!.scope);
                const asked = await ask.send(client, ask.build(row), context);
                // The call's own duration: from the cache, the one its answer first took.
                const durationMs = asked.durationMs;
                if (!asked.ok) return {rowIndex: key, ok: false, error: asked.error, attempts: asked.attempts, durationMs, completedAt: Date.now()};
                const result: RowResult = {rowIndex: key, ok: true, response: asked.response, attempts: asked.attempts, durationMs, ...(calls?.answeredFromCache ? {cached: true} : {}), completedAt: Date.now()};
                if (calls !== undefined) toKeep.set(result, calls);
                return result;
            },
            refused: ({key}, error, attempts, durationMs) => ({rowIndex: key, ok: false, error, attempts, durationMs, completedAt: Date.now()}),
            ...runSettings(options),
            failFastHint: "check the question set and input mapping",
            unitName: "rows",
            onProgress: options.onProgress,
            onResult: (result) => {
                const keeping = toKeep.get(result)?.keep();
                if (keeping !== undefined) {
                    this.keeping.add(keeping);
                    void keeping.finally(() => this.keeping.delete(keeping));
                }
                options.onResult?.(result);
            }
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
    public async run(): Promise<JobProgress> {
        const progress = await this.runner.run();
        await Promise.all(this.keeping);
        return progress;
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
