import {ApiError} from "../../protocol/errors.ts";
import {TransportError} from "../sdk/errors.ts";
import type {RowError, JobSpec, RowBatch, SheetRow, JobProgress, JobRecord, JobStatus, ResultStore, RowResult} from "./types.ts";
import {stableStringify} from "../../protocol/decisions/stableStringify.ts";
import type {RetryOptions} from "../sdk/retry.ts";
import type {SvcClient} from "../sdk/SvcClient.ts";
import {parseQuestionSet, questionInfos, readAnswers, type QuestionInfo} from "./questions.ts";
import {requestBuilder, type ScoringRequest} from "./requests.ts";
import {PauseGate, RateMeter} from "./jobPacing.ts";

/**
 * What a request failure (after the spec §7 retries) means for a job:
 * - `row`: the server refused this row's request (400, 413, 422): stored as the row's error, the job goes on;
 * - `fatal`: every other row would fail the same way (401 key, 402 credit, 404 URL) or the service stayed
 *   unavailable through the retries (408, 429, 5xx, network, timeout): the job stops, resumable later.
 */
export function classifyFailure(error: unknown): {kind: "row" | "fatal", error: RowError} {
    if (error instanceof ApiError) {
        const rowError = {status: error.status, code: error.code, message: error.message};
        return {kind: error.status === 400 || error.status === 413 || error.status === 422 ? "row" : "fatal", error: rowError};
    }
    if (error instanceof TransportError) return {kind: "fatal", error: {status: null, code: error.kind, message: error.message}};
    return {kind: "fatal", error: {status: null, code: "client_error", message: error instanceof Error ? error.message : String(error)}};
}

/**
 * What must not change for a job to be resumed: the questions, endpoint options, input mapping and columns.
 * A calibration, a name or a description may change (they do not change what the server is asked).
 */
export function jobFingerprint(spec: JobSpec): string {
    const {format, questions, x_svc} = spec.questionSet;
    return stableStringify({format, questions, x_svc: x_svc ?? null, input: spec.input, columns: spec.columns});
}

/** The two calls a job makes; an SvcClient, or anything with the same shape. */
export type DecisionCaller = Pick<SvcClient, "decisions" | "systemone">;

export type JobRunnerOptions = {
    jobId: string,
    spec: JobSpec,
    /** The table's data rows from the first, on every call (Table.batches). */
    rows: () => AsyncIterable<RowBatch>,
    /** Data rows in the table when known up front (Table.countRows), for the ETA. */
    totalRows?: number | null,
    client: DecisionCaller,
    store: ResultStore,
    /** Requests in flight at once; default 4. */
    concurrency?: number,
    /** Spec §7 retry settings for each request (client/retry); the client's own settings otherwise. */
    retry?: RetryOptions,
    /** Per-attempt timeout; default 120 s. A timeout is transient and retried. */
    timeoutMs?: number,
    /** Score again the rows stored with an error by an earlier run. */
    rescoreErrors?: boolean,
    /** Stop the job when the first N rows this run scores all fail (a bad question set); default 5, 0 = never. */
    failFast?: number,
    /** Called on every change, at most every `progressIntervalMs` (default 250) for row completions. */
    onProgress?: (progress: JobProgress) => void,
    progressIntervalMs?: number,
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

type Pending = {rowIndex: number, row: SheetRow};

/**
 * Scores every row of a table with a question set (browser-safe: fetch through SvcClient, storage through a
 * ResultStore). Up to `concurrency` requests run at once, each retried by the spec §7 policy; every result
 * is stored as it arrives, so stopping at any point (cancel, crash, kill) loses nothing that was stored, and
 * running the same job again scores only the rows that have no result yet.
 *
 * pause() lets the requests in flight finish and takes no new rows until resume(); cancel() aborts the
 * requests in flight (their rows stay unscored) and ends run() with status `cancelled`.
 */
export class JobRunner {
    private readonly options: JobRunnerOptions;
    private readonly gate = new PauseGate();
    private readonly abort = new AbortController();
    private readonly meter = new RateMeter();
    private readonly infos: QuestionInfo[];
    private readonly build: (row: SheetRow) => ScoringRequest;
    private state: JobStatus | "idle" = "idle";
    private ran = false;
    private counts = {done: 0, succeeded: 0, failed: 0, scoredThisRun: 0, alreadyDone: 0, inFlight: 0, retries: 0};
    private totalRows: number | null;
    private lastError: RowError | null = null;
    private fatal: string | null = null;
    private successesThisRun = 0;
    private errorsBeforeFirstSuccess = 0;
    private activeMs = 0;
    private activeSince: number | null = null;
    private lastEmit = 0;
    private emitTimer: ReturnType<typeof setTimeout> | null = null;

    public constructor(options: JobRunnerOptions) {
        this.options = options;
        this.totalRows = options.totalRows ?? null;
        // The same checks the server makes, so a broken set fails here once, not on every row.
        this.infos = questionInfos(parseQuestionSet(options.spec.questionSet).normalized);
        this.build = requestBuilder(options.spec.questionSet, options.spec.input, options.spec.columns);
    }

    public get status(): JobStatus | "idle" {
        return this.state;
    }

    public progress(): JobProgress {
        const rate = this.state === "running" ? this.meter.rate() : null;
        const remaining = this.totalRows === null ? null : Math.max(0, this.totalRows - this.counts.done);
        return {
            jobId: this.options.jobId,
            status: this.state === "idle" ? "running" : this.state,
            totalRows: this.totalRows,
            done: this.counts.done,
            succeeded: this.counts.succeeded,
            failed: this.counts.failed,
            scoredThisRun: this.counts.scoredThisRun,
            alreadyDone: this.counts.alreadyDone,
            inFlight: this.counts.inFlight,
            retries: this.counts.retries,
            rowsPerSecond: rate,
            etaSeconds: remaining === null ? null : remaining === 0 ? 0 : rate === null ? null : remaining / rate,
            rateLimited: this.state === "running" && this.meter.rateLimited(),
            elapsedMs: this.activeMs + (this.activeSince === null ? 0 : performance.now() - this.activeSince),
            lastError: this.lastError,
            fatalError: this.fatal
        };
    }

    public pause() {
        if (this.state !== "running") return;
        this.gate.close();
        this.setState("paused");
    }

    public resume() {
        if (this.state !== "paused") return;
        this.meter.restart();
        this.setState("running");
        this.gate.open();
    }

    public cancel() {
        if (this.state === "completed" || this.state === "failed" || this.state === "cancelled") return;
        this.abort.abort(new DOMException("The scoring job was cancelled.", "AbortError"));
        this.setState("cancelled");
        this.gate.open();
    }

    /** Runs the job to its end (completed, cancelled or failed) and returns the final progress. */
    public async run(): Promise<JobProgress> {
        if (this.ran) throw new Error("JobRunner.run() may be called once; create a new runner to resume");
        this.ran = true;
        const {store, jobId} = this.options;
        await this.openJob();
        if (this.options.rescoreErrors) await store.deleteErrors(jobId);
        const done = await store.doneRowIndexes(jobId);
        const counts = await store.countResults(jobId);
        this.counts = {...this.counts, done: done.size, succeeded: counts.ok, failed: counts.errors, alreadyDone: done.size};
        if (this.abort.signal.aborted) return this.finish();
        this.meter.restart();
        this.setState("running");
        await store.updateJob(jobId, {status: "running", error: null, ...(this.totalRows === null ? {} : {totalRows: this.totalRows})});

        const pending = this.pendingRows(done);
        const concurrency = Math.max(1, Math.floor(this.options.concurrency ?? 4));
        await Promise.all(Array.from({length: concurrency}, () => this.work(pending)));
        return this.finish();
    }

    private async openJob() {
        const {store, jobId, spec} = this.options;
        const existing = await store.getJob(jobId);
        if (existing === null) {
            const now = Date.now();
            const record: JobRecord = {jobId, spec, status: "running", totalRows: this.totalRows, error: null, createdAt: now, updatedAt: now};
            await store.createJob(record);
            return;
        }
        if (jobFingerprint(existing.spec) !== jobFingerprint(spec)) throw new JobMismatchError(jobId);
        this.totalRows ??= existing.totalRows;
    }

    /** Rows without a result, in order; learns the total when it reaches the end of the table. */
    private async *pendingRows(done: Set<number>): AsyncGenerator<Pending, void, undefined> {
        let seen = 0;
        for await (const batch of this.options.rows()) {
            for (let offset = 0; offset < batch.rows.length; offset++) {
                const rowIndex = batch.start + offset;
                if (!done.has(rowIndex)) yield {rowIndex, row: batch.rows[offset]};
            }
            seen = batch.start + batch.rows.length;
            if (this.stopped()) return;
        }
        if (this.totalRows !== seen) {
            this.totalRows = seen;
            await this.options.store.updateJob(this.options.jobId, {totalRows: seen});
        }
    }

    private async work(pending: AsyncGenerator<Pending, void, undefined>) {
        for (;;) {
            await this.gate.passed();
            if (this.stopped()) return;
            // Generators queue concurrent next() calls, so workers never get the same row.
            let next: IteratorResult<Pending, void>;
            try {
                next = await pending.next();
            } catch (error) {
                // The source could not be read (a file removed or broken mid-run): the job stops, resumable.
                this.fail(`reading the rows failed: ${error instanceof Error ? error.message : String(error)}`);
                return;
            }
            if (next.done || this.stopped()) return;
            // A pause that came while the row was being read (the first batch of a file takes a moment) holds it
            // here: pause means nothing new is sent, and this row was not in flight yet.
            await this.gate.passed();
            if (this.stopped()) return;
            await this.score(next.value);
        }
    }

    private async score({rowIndex, row}: Pending) {
        const started = performance.now();
        this.counts.inFlight++;
        let attempts = 0;
        // Refused for the server's rate limit at least once: its completion measures the pace the limit allows.
        let refused = false;
        try {
            const request = this.build(row);
            const callOptions = {
                signal: this.abort.signal,
                timeoutMs: this.options.timeoutMs ?? 120_000,
                retry: {
                    ...this.options.retry,
                    onRetry: (info: {attempt: number, delayMs: number, error: unknown}) => {
                        this.counts.retries++;
                        if (info.error instanceof ApiError && info.error.status === 429) {
                            refused = true;
                            this.meter.throttled();
                        }
                        this.lastError = classifyFailure(info.error).error;
                        this.options.retry?.onRetry?.(info);
                        this.emit();
                    }
                }
            };
            const {data, meta} = request.format === "decisions"
                ? await this.options.client.decisions(request.body, callOptions)
                : await this.options.client.systemone(request.body, callOptions);
            attempts = meta.attempts;
            const response = {answers: data.answers, ...(data.x_svc === undefined ? {} : {x_svc: data.x_svc})};
            let result: RowResult;
            try {
                readAnswers(request.format, this.infos, response);
                result = {rowIndex, ok: true, response, attempts, durationMs: performance.now() - started, completedAt: Date.now()};
            } catch (error) {
                // An answer that does not fit the questions would write wrong numbers: kept as the row's error.
                const message = `the response does not fit the question set: ${error instanceof Error ? error.message : String(error)}`;
                result = {rowIndex, ok: false, error: {status: meta.status, code: "invalid_response", message}, attempts, durationMs: performance.now() - started, completedAt: Date.now()};
            }
            await this.store(result, refused);
        } catch (error) {
            if (this.abort.signal.aborted) return;
            const failure = classifyFailure(error);
            this.lastError = failure.error;
            if (failure.kind === "fatal") {
                const status = failure.error.status === null ? "" : `${failure.error.status} `;
                this.fail(`row ${rowIndex}: ${status}${failure.error.code}: ${failure.error.message}`);
                return;
            }
            await this.store({rowIndex, ok: false, error: failure.error, attempts: Math.max(1, attempts), durationMs: performance.now() - started, completedAt: Date.now()}, refused);
        } finally {
            this.counts.inFlight--;
            this.emit();
        }
    }

    private async store(result: RowResult, refused: boolean) {
        const stored = await this.options.store.putResult(this.options.jobId, result);
        if (!stored) return;
        this.counts.done++;
        this.counts.scoredThisRun++;
        this.meter.record(refused);
        if (result.ok) {
            this.counts.succeeded++;
            this.successesThisRun++;
        } else {
            this.counts.failed++;
            this.lastError = result.error ?? null;
            if (this.successesThisRun === 0) this.errorsBeforeFirstSuccess++;
        }
        this.options.onResult?.(result);
        const failFast = this.options.failFast ?? 5;
        if (failFast > 0 && this.successesThisRun === 0 && this.errorsBeforeFirstSuccess >= failFast)
            this.fail(`the first ${this.errorsBeforeFirstSuccess} rows all failed (last: ${result.error?.code}: ${result.error?.message}); check the question set and input mapping`);
    }

    private fail(message: string) {
        if (this.fatal !== null || this.state === "cancelled") return;
        this.fatal = message;
        this.abort.abort(new DOMException("The scoring job failed.", "AbortError"));
        this.setState("failed");
        this.gate.open();
    }

    private stopped(): boolean {
        return this.abort.signal.aborted;
    }

    private async finish(): Promise<JobProgress> {
        if (this.state === "running" || this.state === "paused" || this.state === "idle") this.setState("completed");
        const status = this.state as JobStatus;
        await this.options.store.updateJob(this.options.jobId, {status, error: this.fatal, ...(this.totalRows === null ? {} : {totalRows: this.totalRows})});
        if (this.emitTimer !== null) clearTimeout(this.emitTimer);
        this.emitTimer = null;
        const progress = this.progress();
        this.options.onProgress?.(progress);
        return progress;
    }

    private setState(state: JobStatus) {
        const now = performance.now();
        if (this.activeSince !== null && state !== "running") {
            this.activeMs += now - this.activeSince;
            this.activeSince = null;
        } else if (this.activeSince === null && state === "running") this.activeSince = now;
        this.state = state;
        if (state === "paused" || state === "running") void this.options.store.updateJob(this.options.jobId, {status: state}).catch(() => undefined);
        this.emit(true);
    }

    /** Progress to the listener: state changes at once, row completions at most every progressIntervalMs. */
    private emit(now = false) {
        const listener = this.options.onProgress;
        if (listener === undefined || this.emitTimer !== null && !now) return;
        const interval = this.options.progressIntervalMs ?? 250;
        const wait = this.lastEmit + interval - performance.now();
        if (now || wait <= 0) {
            if (this.emitTimer !== null) clearTimeout(this.emitTimer);
            this.emitTimer = null;
            this.lastEmit = performance.now();
            listener(this.progress());
            return;
        }
        this.emitTimer = setTimeout(() => {
            this.emitTimer = null;
            this.lastEmit = performance.now();
            listener(this.progress());
        }, wait);
    }
}
