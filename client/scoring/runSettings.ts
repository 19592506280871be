import {ApiError} from "../../protocol/errors.ts";
import {TransportError} from "../sdk/errors.ts";
import type {RetryOptions} from "../sdk/retry.ts";
import type {RowError} from "./types.ts";

// What a run is told and what its failures mean, for the runner (TaskRunner) and the tasks it runs.

/**
 * What a request failure (after the spec §7 retries) means for a job:
 * - `row`: the server refused this unit's request (400, 413, 422): stored as its error, the job goes on;
 * - `fatal`: every other unit would fail the same way (401 key, 402 credit, 404 URL) or the service stayed
 *   unavailable through the retries (408, a 429 without Retry-After, 5xx, network, timeout): the job stops,
 *   resumable later. A 429 with Retry-After never comes here from a run: the runner waits it out.
 */
export function classifyFailure(error: unknown): {kind: "row" | "fatal", error: RowError} {
    if (error instanceof ApiError) {
        const rowError = {status: error.status, code: error.code, message: error.message};
        return {kind: error.status === 400 || error.status === 413 || error.status === 422 ? "row" : "fatal", error: rowError};
    }
    if (error instanceof TransportError) return {kind: "fatal", error: {status: null, code: error.kind, message: error.message}};
    return {kind: "fatal", error: {status: null, code: "client_error", message: error instanceof Error ? error.message : String(error)}};
}

/** One unit of work: `key` is its result's key in the store; units of one `group` run together (see beforeGroup). */
export type WorkUnit = {key: number, group?: string | null};

/** What a task passes to each request it makes: the run's abort signal, timeout and retry settings (pacing wired in). */
export type CallContext = {signal: AbortSignal, timeoutMs: number, retry: RetryOptions};

/** How a run goes, whatever its task: the settings scoring jobs and experiments take alike. */
export type RunSettings = {
    /** Requests in flight at once; default 4. */
    concurrency?: number,
    /** Spec §7 retry settings for each request (client/retry); the client's own settings otherwise. */
    retry?: RetryOptions,
    /** Per-attempt timeout; default 120 s. A timeout is transient and retried. */
    timeoutMs?: number,
    /** Send again the units (rows, cells) stored with an error by an earlier run. */
    rescoreErrors?: boolean,
    /** Stop when the first N units this run sends all fail (a bad question set or prompt); default 5, 0 = never. */
    failFast?: number,
    /** Progress is reported on every state change, and at most this often for completions; default 250 ms. */
    progressIntervalMs?: number
};

/** The run settings out of a wider options object (a runner's own), to hand on to TaskRunner. */
export function runSettings(options: RunSettings): RunSettings {
    const {concurrency, retry, timeoutMs, rescoreErrors, failFast, progressIntervalMs} = options;
    return {concurrency, retry, timeoutMs, rescoreErrors, failFast, progressIntervalMs};
}
