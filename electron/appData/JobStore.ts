import type {JobRecord, ResultCounts, ResultStore, RowResult} from "../../client/scoring/types.ts";
import {appDataLimits, type SavedJobInfo} from "../../protocol/gateway/contract.ts";
import {readBoolean, readEnum, readInteger, readObject, readString, rejectUnknownFields, type JsonObject} from "../../protocol/validation.ts";
import {GatewayError} from "../api/answers.ts";
import type {AppDatabase} from "./AppDatabase.ts";
import {keptAsideSentences, leftOutSentence, type ItemKind} from "./itemProblems.ts";
import {boundedJson, checkName, parsedJson} from "./storedNames.ts";

export type JobKind = Extract<ItemKind, "scoring" | "experiment">;
/** What changes as a job runs; an experiment's `baseline` too: the job id of the kept run it is compared with (null: none). */
type Patch = Partial<Pick<JobRecord, "status" | "totalRows" | "error">> & {baseline?: string | null};

/** A record as stored: an experiment's may carry its pinned baseline. */
export type StoredJobRecord = JobRecord & {baseline?: string | null};

/** A saved job whole, as its route answers it, with sentences about what of it could not be read. */
export type WholeJob = {record: JobRecord, table: unknown, results: RowResult[], problems: string[]};

const statuses: ReadonlyArray<JobRecord["status"]> = ["running", "paused", "completed", "cancelled", "failed"];

/**
 * Saved scoring jobs or experiments (`kind`) in the app's database: a row of `jobs` with the record, the table it
 * scores in `job_tables`, one row of `job_results` per row index (an experiment's cell), the first result kept. As every
 * ResultStore, `putResult` is committed (and synced) when it resolves. No bound on the number of jobs: none is ever
 * removed but by `deleteJob`, paused and interrupted ones included. A stored record or result that does not fit its
 * shape is left out of what is read, where it is, and the listing or the job's answer says so.
 */
export class JobStore implements ResultStore {
    public readonly kind: JobKind;
    private readonly database: () => Promise<AppDatabase>;

    public constructor(database: () => Promise<AppDatabase>, kind: JobKind) {
        this.database = database;
        this.kind = kind;
    }

    /** The list a screen shows, newest first: each job's record, result counts and whether its table is there. */
    public async list(): Promise<{jobs: SavedJobInfo[], problems: string[]}> {
        const db = await this.database();
        const rows = db.statement("SELECT id, job_id, record, EXISTS (SELECT 1 FROM job_tables WHERE job = jobs.id) AS has_table, " +
            "(SELECT count(*) FROM job_results WHERE job = jobs.id) AS done, (SELECT count(*) FROM job_results WHERE job = jobs.id AND ok = 0) AS failed " +
            "FROM jobs WHERE kind = ? ORDER BY created_at DESC, job_id DESC").all(this.kind) as Array<{job_id: string, record: string, has_table: number, done: number, failed: number}>;
        const jobs: SavedJobInfo[] = [];
        const leftOut: string[] = [];
        for (const row of rows) {
            const record = readRecord(row.record);
            if (record === null) leftOut.push(row.job_id);
            else jobs.push({record: record as SavedJobInfo["record"], done: Number(row.done), failed: Number(row.failed), hasTable: row.has_table === 1});
        }
        return {jobs, problems: [...leftOutSentence(db, this.kind, "jobs", leftOut), ...keptAsideSentences(db, this.kind)]};
    }

    public async getJob(jobId: string): Promise<StoredJobRecord | null> {
        const db = await this.database();
        const row = this.row(db, checkName("a job id", jobId));
        return row === undefined ? null : this.recordOf(db, row);
    }

    /** The job with its table (null when it has none or it could not be read) and its results; null when there is no job. */
    public async whole(jobId: string): Promise<WholeJob | null> {
        const db = await this.database();
        const row = this.row(db, checkName("a job id", jobId));
        if (row === undefined) return null;
        const record = this.recordOf(db, row);
        const tableText = db.statement("SELECT value FROM job_tables WHERE job = ?").pluck().get(row.id) as string | undefined;
        const table = tableText === undefined ? null : parsedJson(tableText);
        const {results, leftOut} = this.results(db, row.id, 0, -1);
        const problems = leftOutSentence(db, this.kind, "job_results", leftOut.map((rowIndex) => `${jobId}'s result of row ${rowIndex}`));
        if (table === undefined) problems.push(...leftOutSentence(db, this.kind, "job_tables", [`${jobId}'s table`]));
        return {record, table: table ?? null, results, problems};
    }

    /** A new job with its table, in one transaction; a 409 when the id is taken. Nothing else is touched. */
    public async create(record: JobRecord, table: unknown): Promise<void> {
        const checked = checkRecord(record);
        const recordText = boundedJson("the job's record", checked, appDataLimits.maxJobRecordBytes, "appDataLimits.maxJobRecordBytes");
        const tableText = boundedJson("the job's table", table, appDataLimits.maxJobTableBytes, "appDataLimits.maxJobTableBytes");
        const db = await this.database();
        db.transaction(() => {
            const id = this.insert(db, checked, recordText);
            db.statement("INSERT INTO job_tables (job, value) VALUES (?, ?)").run(id, tableText);
        });
    }

    /** A job without a table (ResultStore's contract); the app creates its jobs with `create`. */
    public async createJob(record: JobRecord): Promise<void> {
        const checked = checkRecord(record);
        const recordText = boundedJson("the job's record", checked, appDataLimits.maxJobRecordBytes, "appDataLimits.maxJobRecordBytes");
        const db = await this.database();
        db.transaction(() => this.insert(db, checked, recordText));
    }

    public async updateJob(jobId: string, patch: Patch): Promise<void> {
        await this.update(jobId, patch);
    }

    /** updateJob, answering the record as written. A record that could not be read is not written over (a 500 that says so). */
    public async update(jobId: string, patch: Patch): Promise<StoredJobRecord> {
        const fields = checkPatch(patch, this.kind);
        checkName("a job id", jobId);
        const db = await this.database();
        return db.transaction(() => {
            const row = this.existing(db, jobId);
            const current = this.recordOf(db, row);
            // Only the fields the interface allows to change, whatever else the patch object carries.
            const {status = current.status, totalRows = current.totalRows, error = current.error} = fields;
            const record = {...current, status, totalRows, error, ...fields.baseline === undefined ? {} : {baseline: fields.baseline}, updatedAt: Date.now()};
            db.statement("UPDATE jobs SET record = ? WHERE id = ?").run(boundedJson("the job's record", record, appDataLimits.maxJobRecordBytes, "appDataLimits.maxJobRecordBytes"), row.id);
            return record;
        });
    }

    public async putResult(jobId: string, result: RowResult): Promise<boolean> {
        const checked = checkResult(result);
        const text = boundedJson(`the result of row ${checked.rowIndex}`, checked, appDataLimits.maxRowResultBytes, "appDataLimits.maxRowResultBytes");
        checkName("a job id", jobId);
        const db = await this.database();
        return db.transaction(() => {
            const row = this.existing(db, jobId);
            return Number(db.statement("INSERT INTO job_results (job, row_index, ok, value) VALUES (?, ?, ?, ?) ON CONFLICT (job, row_index) DO NOTHING")
                .run(row.id, checked.rowIndex, checked.ok ? 1 : 0, text).changes) > 0;
        });
    }

    /** Rows with a stored result, one that could not be read included (the row keeps it: it is not scored again). */
    public async doneRowIndexes(jobId: string): Promise<Set<number>> {
        const db = await this.database();
        const row = this.row(db, checkName("a job id", jobId));
        if (row === undefined) return new Set();
        return new Set((db.statement("SELECT row_index FROM job_results WHERE job = ?").pluck().all(row.id) as number[]).map(Number));
    }

    public async countResults(jobId: string): Promise<ResultCounts> {
        const db = await this.database();
        const row = this.row(db, checkName("a job id", jobId));
        if (row === undefined) return {ok: 0, errors: 0};
        const counts = db.statement("SELECT count(*) AS done, count(*) FILTER (WHERE ok = 0) AS failed FROM job_results WHERE job = ?").get(row.id) as {done: number, failed: number};
        return {ok: Number(counts.done) - Number(counts.failed), errors: Number(counts.failed)};
    }

    /** Results in row order from `fromIndex` on; `limit` < 0 or absent: all of them (as the other ResultStores). */
    public async readResults(jobId: string, fromIndex = 0, limit = -1): Promise<RowResult[]> {
        const db = await this.database();
        const row = this.row(db, checkName("a job id", jobId));
        if (row === undefined || limit === 0) return [];
        return this.results(db, row.id, fromIndex, limit).results;
    }

    /** Drops the job's error results, in one transaction; answers how many. */
    public async deleteErrors(jobId: string): Promise<number> {
        checkName("a job id", jobId);
        const db = await this.database();
        return db.transaction(() => Number(db.statement("DELETE FROM job_results WHERE job = ? AND ok = 0").run(this.existing(db, jobId).id).changes));
    }

    public async deleteJob(jobId: string): Promise<void> {
        await this.remove(jobId);
    }

    /** Deletes the job, its table and its results, in one transaction; true when there was one. */
    public async remove(jobId: string): Promise<boolean> {
        checkName("a job id", jobId);
        const db = await this.database();
        return db.transaction(() => {
            const row = this.row(db, jobId);
            if (row === undefined) return false;
            db.statement("DELETE FROM job_results WHERE job = ?").run(row.id);
            db.statement("DELETE FROM job_tables WHERE job = ?").run(row.id);
            db.statement("DELETE FROM jobs WHERE id = ?").run(row.id);
            return true;
        });
    }

    /** Nothing to release: the app's database is closed with the app-data store. */
    public async close(): Promise<void> {}

    private insert(db: AppDatabase, record: JobRecord, recordText: string): number {
        if (this.row(db, record.jobId) !== undefined) throw new GatewayError(409, "job_exists", "invalid_request_error", `job ${record.jobId} exists`);
        return Number(db.statement("INSERT INTO jobs (kind, job_id, created_at, record) VALUES (?, ?, ?, ?) RETURNING id").pluck().get(this.kind, record.jobId, record.createdAt, recordText));
    }

    private row(db: AppDatabase, jobId: string): {id: number, record: string} | undefined {
        return db.statement("SELECT id, record FROM jobs WHERE kind = ? AND job_id = ?").get(this.kind, jobId) as {id: number, record: string} | undefined;
    }

    private existing(db: AppDatabase, jobId: string): {id: number, record: string} {
        const row = this.row(db, jobId);
        if (row === undefined) throw new GatewayError(404, "job_not_found", "invalid_request_error", `no job ${jobId}`);
        return row;
    }

    private recordOf(db: AppDatabase, row: {record: string}): JobRecord {
        const record = readRecord(row.record);
        if (record === null) throw new GatewayError(500, "job_unreadable", "api_error", `${leftOutSentence(db, this.kind, "jobs", ["its record"])[0]} Nothing was changed.`);
        return record;
    }

    /** The results that parse, in row order, and the row indexes of those that do not. */
    private results(db: AppDatabase, id: number, fromIndex: number, limit: number): {results: RowResult[], leftOut: number[]} {
        const rows = db.statement("SELECT row_index, value FROM job_results WHERE job = ? AND row_index >= ? ORDER BY row_index LIMIT ?")
            .all(id, Math.max(0, Math.ceil(fromIndex)), limit < 0 ? -1 : Math.floor(limit)) as Array<{row_index: number, value: string}>;
        const results: RowResult[] = [];
        const leftOut: number[] = [];
        for (const row of rows) {
            const result = readResult(row.value);
            if (result === null) leftOut.push(Number(row.row_index));
            else results.push(result);
        }
        return {results, leftOut};
    }
}

/** A stored record when it parses and has a record's shape, else null. */
export function readRecord(text: string): JobRecord | null {
    try {
        return checkRecord(JSON.parse(text));
    } catch {
        return null;
    }
}

/** A stored result when it parses and has a result's shape, else null. */
export function readResult(text: string): RowResult | null {
    try {
        return checkResult(JSON.parse(text));
    } catch {
        return null;
    }
}

export function checkRecord(value: unknown): JobRecord {
    const record = readObject(value, ["record"]);
    checkName("a job id", record.jobId);
    for (const field of ["createdAt", "updatedAt"]) readInteger(record[field], ["record", field], {min: 0});
    readObject(record.spec, ["record", "spec"]);
    readEnum(record.status, ["record", "status"], statuses);
    if (record.totalRows !== null) readInteger(record.totalRows, ["record", "totalRows"], {min: 0});
    if (record.error !== null) readString(record.error, ["record", "error"]);
    if (record.baseline !== undefined && record.baseline !== null) checkName("a baseline job id", record.baseline);
    return record as JobRecord;
}

/** The fields of a record that change as the job runs (and an experiment's pinned baseline); anything else is refused. */
function checkPatch(value: unknown, kind: JobKind): Patch {
    const patch = readObject(value, []) as JsonObject;
    rejectUnknownFields(patch, [], ["status", "totalRows", "error", ...kind === "experiment" ? ["baseline"] : []]);
    if (patch.baseline !== undefined && patch.baseline !== null) checkName("a baseline job id", patch.baseline);
    if (patch.status !== undefined) readEnum(patch.status, ["status"], statuses);
    if (patch.totalRows !== undefined && patch.totalRows !== null) readInteger(patch.totalRows, ["totalRows"], {min: 0});
    if (patch.error !== undefined && patch.error !== null) readString(patch.error, ["error"]);
    return patch as Patch;
}

export function checkResult(value: unknown): RowResult {
    const result = readObject(value, []);
    readInteger(result.rowIndex, ["rowIndex"], {min: 0, max: Number.MAX_SAFE_INTEGER});
    readBoolean(result.ok, ["ok"]);
    return result as unknown as RowResult;
}
