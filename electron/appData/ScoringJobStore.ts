import {readdir, readFile, rm, stat} from "node:fs/promises";
import path from "node:path";
import type {JobRecord, ResultCounts, ResultStore, RowResult} from "../../client/scoring/types.ts";
import {appDataLimits, type SavedJobInfo} from "../../protocol/gateway/contract.ts";
import {readBoolean, readEnum, readInteger, readObject, readString, rejectUnknownFields, type JsonObject} from "../../protocol/validation.ts";
import {writeFileAtomic} from "../../base/node/writeFileAtomic.ts";
import {GatewayError} from "../api/answers.ts";
import {AppendLog} from "./AppendLog.ts";
import {SerialQueue} from "./serialQueue.ts";
import {boundedJson, checkName, isName} from "./storedNames.ts";

/** A loaded job: its record, which rows have a result (ok or not) and the log its results are appended to. */
type JobState = {record: JobRecord, done: Map<number, boolean>, log: AppendLog};

const statuses: ReadonlyArray<JobRecord["status"]> = ["running", "paused", "completed", "cancelled", "failed"];
/** A folder without its record this long is the leftover of a creation a crash cut short, not one under way. */
const orphanGraceMs = 60_000;

/**
 * Saved scoring jobs, one folder each under `dir`: `table.json` (the table it scores, written once), `job.json` (its
 * record, replaced atomically when its status changes) and `results.jsonl` (one line per scored row, appended: see
 * AppendLog). A job is created table first, so a listed job has its table; creating one deletes the oldest beyond
 * `maxSavedJobs`. As every ResultStore, it keeps the first result of a row, and `putResult` is on disk when it resolves.
 */
export class ScoringJobStore implements ResultStore {
    private readonly dir: string;
    /** The newest jobs kept; creating one deletes the oldest beyond it. */
    private readonly maxJobs: number;
    private readonly loaded = new Map<string, Promise<JobState | null>>();
    /** Creations, deletions and listings one at a time; a record's writes one at a time per job. */
    private readonly jobs = new SerialQueue();
    private readonly recordWrites = new SerialQueue();

    public constructor(dir: string, maxJobs: number = appDataLimits.maxSavedJobs) {
        this.dir = dir;
        this.maxJobs = maxJobs;
    }

    /** Every saved job, the newest first (by creation). */
    public listJobs(): Promise<JobRecord[]> {
        return this.jobs.run("jobs", async () => (await this.loadAll()).map((state) => state.record));
    }

    /** The list the Scoring screen shows: each job's record, result counts and whether its table is there. */
    public listInfo(): Promise<SavedJobInfo[]> {
        return this.jobs.run("jobs", async () => Promise.all((await this.loadAll()).map(async (state): Promise<SavedJobInfo> => {
            const counts = countsOf(state.done);
            const hasTable = await stat(this.file(state.record.jobId, "table.json")).then(() => true, () => false);
            return {record: state.record, done: counts.ok + counts.errors, failed: counts.errors, hasTable};
        })));
    }

    public async getJob(jobId: string): Promise<JobRecord | null> {
        return (await this.state(checkName("a job id", jobId)))?.record ?? null;
    }

    /** The table the job scores, as the renderer saved it; null when the job or its table is missing. */
    public async getTable(jobId: string): Promise<unknown> {
        try {
            return JSON.parse(await readFile(this.file(checkName("a job id", jobId), "table.json"), "utf8"));
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
            throw error;
        }
    }

    /** A new job with its table, table first; answers the ids of the oldest jobs deleted to keep `maxSavedJobs`. */
    public async create(record: JobRecord, table: unknown): Promise<string[]> {
        const checked = checkRecord(record);
        const tableText = boundedJson("the job's table", table, appDataLimits.maxJobTableBytes);
        return this.jobs.run("jobs", async () => {
            await this.refuseExisting(checked.jobId);
            await writeFileAtomic(this.file(checked.jobId, "table.json"), tableText, 0o600);
            await this.writeRecord(checked);
            const old = (await this.loadAll()).slice(this.maxJobs);
            for (const state of old) await this.removeFolder(state.record.jobId);
            return old.map((state) => state.record.jobId);
        });
    }

    /** A job without a table (ResultStore's contract); the app creates its jobs with `create`. */
    public async createJob(record: JobRecord): Promise<void> {
        const checked = checkRecord(record);
        await this.jobs.run("jobs", async () => {
            await this.refuseExisting(checked.jobId);
            await this.writeRecord(checked);
        });
    }

    public async updateJob(jobId: string, patch: Partial<Pick<JobRecord, "status" | "totalRows" | "error">>): Promise<void> {
        await this.update(jobId, patch);
    }

    /** updateJob, answering the record as written. */
    public async update(jobId: string, patch: Partial<Pick<JobRecord, "status" | "totalRows" | "error">>): Promise<JobRecord> {
        const fields = checkPatch(patch);
        const state = await this.existing(jobId);
        return this.recordWrites.run(jobId, async () => {
            // Only the fields the interface allows to change, whatever else the patch object carries.
            const {status = state.record.status, totalRows = state.record.totalRows, error = state.record.error} = fields;
            const record = {...state.record, status, totalRows, error, updatedAt: Date.now()};
            await writeFileAtomic(this.file(jobId, "job.json"), boundedJson("the job's record", record, appDataLimits.maxJobRecordBytes), 0o600);
            state.record = record;
            return record;
        });
    }

    public async putResult(jobId: string, result: RowResult): Promise<boolean> {
        const checked = checkResult(result);
        const text = boundedJson(`the result of row ${checked.rowIndex}`, checked, appDataLimits.maxRowResultBytes);
        const state = await this.existing(jobId);
        // Marked before the append starts: a second result for the row, even one arriving meanwhile, is refused.
        if (state.done.has(checked.rowIndex)) return false;
        state.done.set(checked.rowIndex, checked.ok);
        try {
            await state.log.append(text);
        } catch (error) {
            state.done.delete(checked.rowIndex);
            throw this.goneOr(jobId, error);
        }
        return true;
    }

    public async doneRowIndexes(jobId: string): Promise<Set<number>> {
        return new Set((await this.existingOrEmpty(jobId)).keys());
    }

    public async countResults(jobId: string): Promise<ResultCounts> {
        return countsOf(await this.existingOrEmpty(jobId));
    }

    /** Results in row order from `fromIndex` on; `limit` < 0 or absent: all of them (as the other ResultStores). */
    public async readResults(jobId: string, fromIndex = 0, limit = -1): Promise<RowResult[]> {
        const state = await this.state(checkName("a job id", jobId));
        if (state === null || limit === 0) return [];
        const results = [...firstResults((await state.log.readLines()).lines).values()]
            .filter((result) => result.rowIndex >= fromIndex)
            .sort((a, b) => a.rowIndex - b.rowIndex);
        return limit < 0 ? results : results.slice(0, Math.floor(limit));
    }

    /** Drops the job's error results (the log is rewritten once, atomically); answers how many. */
    public async deleteErrors(jobId: string): Promise<number> {
        const state = await this.existing(jobId);
        return state.log.exclusive(async () => {
            const kept: string[] = [];
            const dropped: number[] = [];
            for (const [rowIndex, {result, line}] of firstLines((await state.log.readLines()).lines)) {
                if (result.ok) kept.push(line);
                else dropped.push(rowIndex);
            }
            if (dropped.length > 0) await state.log.replace(kept);
            for (const rowIndex of dropped) state.done.delete(rowIndex);
            return dropped.length;
        });
    }

    /** Removes the job's folder: its record, table and results. */
    public async deleteJob(jobId: string): Promise<void> {
        checkName("a job id", jobId);
        await this.jobs.run("jobs", () => this.removeFolder(jobId));
    }

    /** Nothing to release: files are opened per write. */
    public async close(): Promise<void> {}

    /** Every job folder with its record, the newest first; folders left without a record by a crash are removed. */
    private async loadAll(): Promise<JobState[]> {
        const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
            if (error.code === "ENOENT") return [] as string[];
            throw error;
        });
        // A folder deleted from outside is forgotten, so its job is not listed from memory.
        for (const jobId of this.loaded.keys()) if (!names.includes(jobId)) this.loaded.delete(jobId);
        const states: JobState[] = [];
        for (const name of names) {
            if (!isName(name)) continue;
            let state: JobState | null;
            try {
                state = await this.state(name);
            } catch (error) {
                // A record that cannot be read stays on disk, unlisted, for whoever wants to look at it.
                console.warn(`app data: scoring job ${name} left out:`, (error as Error).message);
                continue;
            }
            if (state !== null) states.push(state);
            else if (Date.now() - await stat(path.join(this.dir, name)).then((info) => info.mtimeMs, () => Date.now()) > orphanGraceMs)
                await rm(path.join(this.dir, name), {recursive: true, force: true});
        }
        return states.sort((a, b) => b.record.createdAt - a.record.createdAt || (a.record.jobId < b.record.jobId ? 1 : -1));
    }

    /** The job as loaded once per process (its results counted, a torn last line cut off); null when it has no record. */
    private state(jobId: string): Promise<JobState | null> {
        let loading = this.loaded.get(jobId);
        if (loading === undefined) {
            loading = this.load(jobId);
            this.loaded.set(jobId, loading);
            const forget = () => {
                if (this.loaded.get(jobId) === loading) this.loaded.delete(jobId);
            };
            loading.then((state) => state === null && forget(), forget);
        }
        return loading;
    }

    private async load(jobId: string): Promise<JobState | null> {
        let record: JobRecord;
        try {
            record = JSON.parse(await readFile(this.file(jobId, "job.json"), "utf8")) as JobRecord;
        } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            if (code === "ENOENT" || code === "ENOTDIR") return null;
            throw error;
        }
        const log = new AppendLog(this.file(jobId, "results.jsonl"));
        await log.repairTail();
        const done = new Map<number, boolean>();
        for (const [rowIndex, {result}] of firstLines((await log.readLines()).lines)) done.set(rowIndex, result.ok);
        return {record, done, log};
    }

    private async existing(jobId: string): Promise<JobState> {
        const state = await this.state(checkName("a job id", jobId));
        if (state === null) throw noJob(jobId);
        return state;
    }

    private async existingOrEmpty(jobId: string): Promise<Map<number, boolean>> {
        return (await this.state(checkName("a job id", jobId)))?.done ?? new Map();
    }

    private async refuseExisting(jobId: string) {
        if (await this.state(jobId) !== null) throw new GatewayError(409, "job_exists", "invalid_request_error", `job ${jobId} exists`);
    }

    private async writeRecord(record: JobRecord) {
        await writeFileAtomic(this.file(record.jobId, "job.json"), boundedJson("the job's record", record, appDataLimits.maxJobRecordBytes), 0o600);
        this.loaded.delete(record.jobId);
    }

    private async removeFolder(jobId: string) {
        this.loaded.delete(jobId);
        await rm(path.join(this.dir, jobId), {recursive: true, force: true});
    }

    /** An append that failed because the job's folder is gone (deleted meanwhile, or from outside) is a 404. */
    private goneOr(jobId: string, error: unknown): unknown {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") return error;
        this.loaded.delete(jobId);
        return noJob(jobId);
    }

    private file(jobId: string, name: string): string {
        return path.join(this.dir, jobId, name);
    }
}

function noJob(jobId: string) {
    return new GatewayError(404, "job_not_found", "invalid_request_error", `no job ${jobId}`);
}

function countsOf(done: Map<number, boolean>): ResultCounts {
    let ok = 0;
    for (const value of done.values()) if (value) ok++;
    return {ok, errors: done.size - ok};
}

/** Each row's first complete result line (a line that does not parse, or is no result, is skipped). */
function firstLines(lines: string[]): Map<number, {result: RowResult, line: string}> {
    const found = new Map<number, {result: RowResult, line: string}>();
    for (const line of lines) {
        let result: RowResult;
        try {
            result = JSON.parse(line) as RowResult;
        } catch {
            continue;
        }
        if (result === null || !Number.isSafeInteger(result.rowIndex) || result.rowIndex < 0 || typeof result.ok !== "boolean") continue;
        if (!found.has(result.rowIndex)) found.set(result.rowIndex, {result, line});
    }
    return found;
}

function firstResults(lines: string[]): Map<number, RowResult> {
    return new Map([...firstLines(lines)].map(([rowIndex, {result}]) => [rowIndex, result]));
}

function checkRecord(value: unknown): JobRecord {
    const record = readObject(value, ["record"]);
    checkName("a job id", record.jobId);
    for (const field of ["createdAt", "updatedAt"]) readInteger(record[field], ["record", field], {min: 0});
    readObject(record.spec, ["record", "spec"]);
    readEnum(record.status, ["record", "status"], statuses);
    if (record.totalRows !== null) readInteger(record.totalRows, ["record", "totalRows"], {min: 0});
    if (record.error !== null) readString(record.error, ["record", "error"]);
    return record as JobRecord;
}

/** The fields of a record that change as the job runs; anything else is refused. */
function checkPatch(value: unknown): Partial<Pick<JobRecord, "status" | "totalRows" | "error">> {
    const patch = readObject(value, []) as JsonObject;
    rejectUnknownFields(patch, [], ["status", "totalRows", "error"]);
    if (patch.status !== undefined) readEnum(patch.status, ["status"], statuses);
    if (patch.totalRows !== undefined && patch.totalRows !== null) readInteger(patch.totalRows, ["totalRows"], {min: 0});
    if (patch.error !== undefined && patch.error !== null) readString(patch.error, ["error"]);
    return patch as Partial<Pick<JobRecord, "status" | "totalRows" | "error">>;
}

function checkResult(value: unknown): RowResult {
    const result = readObject(value, []);
    readInteger(result.rowIndex, ["rowIndex"], {min: 0});
    readBoolean(result.ok, ["ok"]);
    return result as unknown as RowResult;
}
