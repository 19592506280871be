import type {StoredResponse, QuestionSet} from "./questions.ts";

// Shapes shared by the CSV and XLSX readers and writers, so the job runner and the UI never care which it was.

/** One cell as read: CSV cells are always strings; XLSX keeps numbers and booleans, dates become ISO strings. */
export type CellValue = string | number | boolean | null;

export type SheetRow = CellValue[];

/** Consecutive data rows; `start` is the 0-based index of the first one among the sheet's data rows. */
export type RowBatch = {start: number, rows: SheetRow[]};

/**
 * A file to read rows from. `readRows` can be called again and again: each call reads the sheet from its first
 * row (the header included), so a job can re-read its source on resume without keeping it in memory.
 * Rows whose cells are all empty are skipped by every reader, so row indexes agree across CSV and XLSX.
 */
export interface SpreadsheetSource {
    readonly format: "csv" | "xlsx";
    /** Sheet names in workbook order; empty for CSV, which has none (a UI hides its sheet picker). */
    sheetNames(): Promise<string[]>;
    /** Every non-blank row of `sheet` (default: the first sheet) in chunks of about `chunkRows` rows. */
    readRows(sheet?: string, chunkRows?: number): AsyncIterable<SheetRow[]>;
}

/** Bytes or text in pieces: `Blob.stream()`, a Node file stream, or a whole string / Uint8Array as one piece. */
export type TextChunks = AsyncIterable<Uint8Array | string>;

/**
 * How a row becomes the request's input: a template (see input/compileTemplate.ts) rendered to text, or the
 * row as a JSON object {column: cell} (systemone: `state` as is; decisions: `input` as stable JSON) over
 * `columns` (every column when absent), so that label columns need not go to the model with the row.
 */
export type InputMapping = {kind: "template", template: string} | {kind: "row", columns?: string[]};

/** What a job scores: it must not change between a run and its resumption (checked on resume). */
export type JobSpec = {
    questionSet: QuestionSet,
    input: InputMapping,
    /** The table's column names, in order. */
    columns: string[],
    /** Columns holding expected values: whole-row input leaves them out and a template may not name them, unless
     * `inputColumns` (the columns the model sees) ticks them (modelColumns.ts). */
    labelColumns?: string[],
    inputColumns?: string[],
    /** Where the rows came from, for display: a file name and sheet. Not part of the identity check. */
    source?: {name?: string, sheet?: string | null}
};

export type JobStatus = "running" | "paused" | "completed" | "cancelled" | "failed";

/** A job's record; `S` is what the job runs (a scoring JobSpec by default; an experiment's fingerprint record). */
export type JobRecord<S = JobSpec> = {
    jobId: string,
    spec: S,
    status: JobStatus,
    /** Data rows of the source once known (counted up front, or when a run has read it to the end). */
    totalRows: number | null,
    /** Why the last run failed; null otherwise. */
    error: string | null,
    createdAt: number,
    updatedAt: number
};

export type RowError = {
    /** HTTP status; null when no HTTP answer came (or the answer could not be read). */
    status: number | null,
    code: string,
    message: string
};

/** The outcome of one row, stored once per (job, row index). */
export type RowResult = {
    /** 0-based index among the table's data rows. */
    rowIndex: number,
    ok: boolean,
    /** ok: the answers (and explanations) exactly as the server sent them. */
    response?: StoredResponse,
    /** Not ok: why the server refused this row (400, 413, 422: the row's input is at fault). */
    error?: RowError,
    /** HTTP attempts, retries included; 0 for a row answered from the response cache. */
    attempts: number,
    /** The request's duration; for a row from the response cache, the time its answer first took. */
    durationMs: number,
    /** The row was answered from the response cache: nothing was sent. */
    cached?: true,
    /** Epoch ms. */
    completedAt: number
};

export type ResultCounts = {ok: number, errors: number};

/**
 * What every stored result has: the store's key (`rowIndex`: a scoring row, or an experiment's cell key), whether
 * it succeeded, and when. A store keeps the rest as it was given.
 */
export type StoredResult = {rowIndex: number, ok: boolean, completedAt: number};

/**
 * Where a job and its results live. The runner is written against this interface only, so it runs in a
 * browser (MemoryResultStore; the app mirrors it into its data folder through the gateway) and in Node
 * (node/SqliteResultStore, durable).
 * `putResult` must be atomic and durable when it resolves, and must keep the first result of a row.
 * The type parameters let the same stores hold an experiment's cells (client/experiments) beside scoring rows.
 */
export interface ResultStore<R extends StoredResult = RowResult, S = JobSpec> {
    getJob(jobId: string): Promise<JobRecord<S> | null>;
    createJob(record: JobRecord<S>): Promise<void>;
    updateJob(jobId: string, patch: Partial<Pick<JobRecord<S>, "status" | "totalRows" | "error">>): Promise<void>;
    /** Stores a row's result unless the row already has one; true when it was stored. */
    putResult(jobId: string, result: R): Promise<boolean>;
    /** Indexes of the rows that have a result (ok or error). */
    doneRowIndexes(jobId: string): Promise<Set<number>>;
    countResults(jobId: string): Promise<ResultCounts>;
    /** Results in row order, from `fromIndex` on, at most `limit` of them. */
    readResults(jobId: string, fromIndex?: number, limit?: number): Promise<R[]>;
    /** Removes the job's error results so the next run scores those rows again; returns how many. */
    deleteErrors(jobId: string): Promise<number>;
    deleteJob(jobId: string): Promise<void>;
    close(): Promise<void>;
}

export type JobProgress = {
    jobId: string,
    status: JobStatus,
    totalRows: number | null,
    /** Rows with a result, earlier runs included. */
    done: number,
    succeeded: number,
    /** Rows stored with an error. */
    failed: number,
    /** Rows this run scored (ok or error). */
    scoredThisRun: number,
    /** Rows that had a result when this run started. */
    alreadyDone: number,
    inFlight: number,
    /** Retries this run made after 408 / 429 / 5xx / network failures. */
    retries: number,
    /** Over the last 20 s of running (at most the rate limit's pace); null while paused or before two rows finished. */
    rowsPerSecond: number | null,
    /**
     * Null when the total or the rate is unknown. While the server refuses requests for its rate limit (429 with
     * `Retry-After`), from the pace the limit allows rather than the burst before it (jobPacing.ts RateMeter).
     */
    etaSeconds: number | null,
    /** The server refused a request for its rate limit within the last 20 s of running: it sets the pace. */
    rateLimited: boolean,
    /** Time spent running (pauses excluded). */
    elapsedMs: number,
    lastError: RowError | null,
    /** Why the run failed (status `failed`). */
    fatalError: string | null
};
