import {ApiError} from "../../protocol/errors.ts";
import type {JobProgress, JobRecord, JobStatus, ResultStore, RowError, StoredResult} from "./types.ts";
import type {RequestPacer} from "../sdk/retry.ts";
import {PauseGate, ProgressThrottle, RateMeter, RatePacer} from "./jobPacing.ts";
import {classifyFailure, type CallContext, type RunSettings, type WorkUnit} from "./runSettings.ts";

export {classifyFailure, runSettings, type CallContext, type RunSettings, type WorkUnit} from "./runSettings.ts";

/** How a task's units are listed, sent and stored; the runner owns concurrency, pacing, pause, resume and progress. */
export type TaskRunnerOptions<U extends WorkUnit, R extends StoredResult, S> = RunSettings & {
    jobId: string,
    spec: S,
    store: ResultStore<R, S>,
    /** Throws when the job in the store was started with another spec (so it must not be resumed). */
    checkResumable(stored: S): void,
    /** Units in the order to send them, skipping the keys in `done`; `total` is called when the end is known. */
    units(done: ReadonlySet<number>, total: (count: number) => void): AsyncIterable<U>,
    /** Units in the job when known up front, for the ETA. */
    totalUnits?: number | null,
    /**
     * The keys this run is about, when the job's record holds others too (an experiment run again on a smaller
     * sample): progress counts only results within it. Default: every key of the job.
     */
    inScope?: (key: number) => boolean,
    /** Builds a unit's request(s), calls, validates; returns the result to store. Throws what the calls threw. */
    perform(unit: U, context: CallContext): Promise<R>,
    /** The result stored for a unit whose request the server refused (classifyFailure `row`). */
    refused(unit: U, error: RowError, attempts: number, durationMs: number): R,
    /** Called once before the first unit of each non-null group is sent, after every unit of the previous group ended. */
    beforeGroup?: (group: string, signal: AbortSignal) => Promise<void>,
    /** What to check when fail-fast stops the job ("check the question set and input mapping"). */
    failFastHint?: string,
    /** "rows" or "cells", in messages. */
    unitName?: string,
    onProgress?: (progress: JobProgress) => void,
    onResult?: (result: R) => void
};

/**
 * The one durable runner behind spreadsheet scoring and experiments (browser-safe: the task makes its calls
 * through SvcClient, results go to a ResultStore). Up to `concurrency` units are in flight at once, each request
 * retried by the spec §7 policy. A server's rate limit slows the run and never fails it: a 429 with Retry-After is
 * waited out however often it comes, and the run's requests keep to the pace the limit allows (RatePacer); every result is stored as it arrives, so stopping at any
 * point (cancel, crash, kill) loses nothing stored, and running the same job again sends only the units without a
 * result. A store keeps the first result of a key, so no finished unit is ever stored twice.
 *
 * pause() lets the requests in flight finish and takes no new units until resume(); cancel() aborts the requests
 * in flight (their units stay unsent) and ends run() with status `cancelled`. `progress()` counts units: rows for
 * scoring, cells for experiments (`totalRows` then holds the number of cells).
 */
export class TaskRunner<U extends WorkUnit, R extends StoredResult, S> {
    private readonly options: TaskRunnerOptions<U, R, S>;
    private readonly gate = new PauseGate();
    private readonly abort = new AbortController();
    private readonly meter = new RateMeter();
    /** Every request of the run goes through it: a server's rate limit slows the run instead of failing it. */
    private readonly pacer = new RatePacer();
    private state: JobStatus | "idle" = "idle";
    private ran = false;
    private counts = {done: 0, succeeded: 0, failed: 0, scoredThisRun: 0, alreadyDone: 0, inFlight: 0, retries: 0};
    private total: number | null;
    private lastError: RowError | null = null;
    private fatal: string | null = null;
    private successesThisRun = 0;
    private errorsBeforeFirstSuccess = 0;
    private activeMs = 0;
    private activeSince: number | null = null;
    private readonly reporter: ProgressThrottle;
    /** The group whose units may be sent now, and the switch to the next one while it is under way. */
    private group: string | null | undefined = undefined;
    private switching: Promise<void> | null = null;
    private readonly inFlight = new Set<Promise<void>>();
    /**
     * One abort signal per worker, aborted with the run's: each request listens on its worker's signal, so the number
     * of listeners on any one signal stays small however high the concurrency (Node warns past 10).
     */
    private readonly workerAborts: AbortController[] = [];

    public constructor(options: TaskRunnerOptions<U, R, S>) {
        this.options = options;
        this.total = options.totalUnits ?? null;
        this.reporter = new ProgressThrottle(options.onProgress === undefined ? undefined : () => options.onProgress!(this.progress()), options.progressIntervalMs ?? 250);
    }

    public get status(): JobStatus | "idle" {
        return this.state;
    }

    public get signal(): AbortSignal {
        return this.abort.signal;
    }

    private stopAll(reason: DOMException) {
        this.abort.abort(reason);
        for (const worker of this.workerAborts) worker.abort(reason);
    }

    public progress(): JobProgress {
        const rate = this.state === "running" ? this.meter.rate() : null;
        const remaining = this.total === null ? null : Math.max(0, this.total - this.counts.done);
        return {
            jobId: this.options.jobId,
            status: this.state === "idle" ? "running" : this.state,
            totalRows: this.total,
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

    public cancel(reason = "The job was cancelled.") {
        if (this.state === "completed" || this.state === "failed" || this.state === "cancelled") return;
        this.stopAll(new DOMException(reason, "AbortError"));
        this.setState("cancelled");
        this.gate.open();
    }

    /** Stops the job as failed with `message` (kept in the store's record); resumable later. */
    public fail(message: string) {
        if (this.fatal !== null || this.state === "cancelled") return;
        this.fatal = message;
        this.stopAll(new DOMException("The job failed.", "AbortError"));
        this.setState("failed");
        this.gate.open();
    }

    /** Runs the job to its end (completed, cancelled or failed) and returns the final progress. */
    public async run(): Promise<JobProgress> {
        if (this.ran) throw new Error("run() may be called once; create a new runner to resume");
        this.ran = true;
        const {store, jobId} = this.options;
        await this.openJob();
        if (this.options.rescoreErrors) await store.deleteErrors(jobId);
        const inScope = this.options.inScope;
        const stored = await store.doneRowIndexes(jobId);
        const done = inScope === undefined ? stored : new Set([...stored].filter(inScope));
        const counts = inScope === undefined ? await store.countResults(jobId) : await this.countInScope(inScope);
        this.counts = {...this.counts, done: done.size, succeeded: counts.ok, failed: counts.errors, alreadyDone: done.size};
        if (this.abort.signal.aborted) return this.finish();
        this.meter.restart();
        this.setState("running");
        await store.updateJob(jobId, {status: "running", error: null, ...(this.total === null ? {} : {totalRows: this.total})});

        const pending = this.pendingUnits(done);
        const concurrency = Math.max(1, Math.floor(this.options.concurrency ?? 4));
        await Promise.all(Array.from({length: concurrency}, () => this.work(pending)));
        return this.finish();
    }

    /** Stored results within the scope, ok and not, read page by page. */
    private async countInScope(inScope: (key: number) => boolean): Promise<{ok: number, errors: number}> {
        const counts = {ok: 0, errors: 0};
        for (let from = 0; ;) {
            const page = await this.options.store.readResults(this.options.jobId, from, 1000);
            for (const result of page) if (inScope(result.rowIndex)) counts[result.ok ? "ok" : "errors"]++;
            if (page.length < 1000) return counts;
            from = page[page.length - 1].rowIndex + 1;
        }
    }

    private async openJob() {
        const {store, jobId, spec} = this.options;
        const existing = await store.getJob(jobId);
        if (existing === null) {
            const now = Date.now();
            const record: JobRecord<S> = {jobId, spec, status: "running", totalRows: this.total, error: null, createdAt: now, updatedAt: now};
            await store.createJob(record);
            return;
        }
        this.options.checkResumable(existing.spec);
        this.total ??= existing.totalRows;
    }

    /** Units without a result, in order; learns the total when the source says it. */
    private async *pendingUnits(done: ReadonlySet<number>): AsyncGenerator<U, void, undefined> {
        let learned: number | null = null;
        for await (const unit of this.options.units(done, (count) => learned = count)) {
            yield unit;
            if (this.stopped()) return;
        }
        if (learned !== null && this.total !== learned) {
            this.total = learned;
            await this.options.store.updateJob(this.options.jobId, {totalRows: learned});
        }
    }

    private async work(pending: AsyncGenerator<U, void, undefined>) {
        const worker = new AbortController();
        this.workerAborts.push(worker);
        for (;;) {
            await this.gate.passed();
            if (this.stopped()) return;
            // Generators queue concurrent next() calls, so workers never get the same unit.
            let next: IteratorResult<U, void>;
            try {
                next = await pending.next();
            } catch (error) {
                // The source could not be read (a file removed or broken mid-run): the job stops, resumable.
                this.fail(`reading the ${this.options.unitName ?? "rows"} failed: ${error instanceof Error ? error.message : String(error)}`);
                return;
            }
            if (next.done || this.stopped()) return;
            await this.enterGroup(next.value.group ?? null);
            // A pause that came while the unit was being read holds it here: pause means nothing new is sent.
            await this.gate.passed();
            if (this.stopped()) return;
            const running = this.send(next.value, worker.signal);
            this.inFlight.add(running);
            await running;
            this.inFlight.delete(running);
        }
    }

    /**
     * Units of a new group wait until every unit of the previous group has ended, then for `beforeGroup` (the app
     * loads that group's model into its engine), once, whichever worker reaches the group first.
     */
    private async enterGroup(group: string | null) {
        for (;;) {
            if (this.switching !== null) {
                await this.switching;
                continue;
            }
            if (group === null || group === this.group) return;
            this.switching = (async () => {
                await Promise.allSettled([...this.inFlight]);
                if (this.stopped()) return;
                try {
                    await this.options.beforeGroup?.(group, this.abort.signal);
                    this.group = group;
                    this.meter.restart();
                } catch (error) {
                    if (!this.stopped()) this.fail(`preparing ${group} failed: ${error instanceof Error ? error.message : String(error)}`);
                }
            })();
            await this.switching;
            this.switching = null;
            if (this.stopped()) return;
        }
    }

    private async send(unit: U, signal: AbortSignal) {
        const started = performance.now();
        this.counts.inFlight++;
        // Refused for the server's rate limit, or held to its pace: its completion measures the pace the limit allows.
        let paced = false;
        const pacer: RequestPacer = {
            ready: async (lane, waitSignal) => {
                const ticket = await this.pacer.ready(lane, waitSignal);
                if (ticket.waited) paced = true;
                return ticket;
            },
            admitted: (ticket) => this.pacer.admitted(ticket),
            refused: (ticket, retryAfterMs) => this.pacer.refused(ticket, retryAfterMs)
        };
        try {
            const context: CallContext = {
                signal,
                timeoutMs: this.options.timeoutMs ?? 120_000,
                retry: {
                    ...this.options.retry,
                    waitOutRateLimits: true,
                    pacer,
                    onRetry: (info) => {
                        this.counts.retries++;
                        if (info.error instanceof ApiError && info.error.status === 429) {
                            paced = true;
                            this.meter.throttled();
                        }
                        this.lastError = classifyFailure(info.error).error;
                        this.options.retry?.onRetry?.(info);
                        this.reporter.report();
                    }
                }
            };
            // A result that arrived is stored even when a cancel came meanwhile: it need not be sent again.
            await this.store(await this.options.perform(unit, context), paced);
        } catch (error) {
            if (this.abort.signal.aborted) return;
            const failure = classifyFailure(error);
            this.lastError = failure.error;
            if (failure.kind === "fatal") {
                const status = failure.error.status === null ? "" : `${failure.error.status} `;
                this.fail(`${this.describe(unit)}: ${status}${failure.error.code}: ${failure.error.message}`);
                return;
            }
            await this.store(this.options.refused(unit, failure.error, 1, performance.now() - started), paced);
        } finally {
            this.counts.inFlight--;
            this.reporter.report();
        }
    }

    private describe(unit: U): string {
        return `${(this.options.unitName ?? "rows").replace(/s$/, "")} ${unit.key}`;
    }

    private async store(result: R, paced: boolean) {
        const stored = await this.options.store.putResult(this.options.jobId, result);
        if (!stored) return;
        this.counts.done++;
        this.counts.scoredThisRun++;
        this.meter.record(paced);
        const error = (result as {error?: RowError}).error;
        if (result.ok) {
            this.counts.succeeded++;
            this.successesThisRun++;
        } else {
            this.counts.failed++;
            this.lastError = error ?? null;
            if (this.successesThisRun === 0) this.errorsBeforeFirstSuccess++;
        }
        this.options.onResult?.(result);
        const failFast = this.options.failFast ?? 5;
        if (failFast > 0 && this.successesThisRun === 0 && this.errorsBeforeFirstSuccess >= failFast)
            this.fail(`the first ${this.errorsBeforeFirstSuccess} ${this.options.unitName ?? "rows"} all failed (last: ${error?.code}: ${error?.message}); ${this.options.failFastHint ?? "check the request"}`);
    }

    private stopped(): boolean {
        return this.abort.signal.aborted;
    }

    private async finish(): Promise<JobProgress> {
        if (this.state === "running" || this.state === "paused" || this.state === "idle") this.setState("completed");
        const status = this.state as JobStatus;
        await this.options.store.updateJob(this.options.jobId, {status, error: this.fatal, ...(this.total === null ? {} : {totalRows: this.total})});
        this.reporter.stop();
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
        this.reporter.report(true);
    }
}
