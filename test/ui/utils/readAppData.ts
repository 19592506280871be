// What the app saved, read straight from its data folder (electron/appData/), as a person or a backup would find it.
import {existsSync} from "node:fs";
import path from "node:path";
import {openSqlite} from "../../../base/node/sqlite.ts";
import type {JobRecord, RowResult} from "../../../client/scoring/index.ts";

/** Every stored result of every saved scoring job, by job and row; the records and which jobs have a table. */
export type SavedJobFiles = {jobs: JobRecord[], results: Array<{jobId: string, rowIndex: number, result: RowResult}>, tables: Array<{jobId: string}>};

export async function readSavedJobs(dataDir: string): Promise<SavedJobFiles> {
    const saved: SavedJobFiles = {jobs: [], results: [], tables: []};
    await readDatabase(dataDir, (db) => {
        const jobs = db.prepare("SELECT id, job_id, record, EXISTS (SELECT 1 FROM job_tables WHERE job = jobs.id) AS has_table FROM jobs WHERE kind = 'scoring'").all() as
            Array<{id: number, job_id: string, record: string, has_table: number}>;
        for (const job of jobs) {
            saved.jobs.push(JSON.parse(job.record) as JobRecord);
            if (job.has_table === 1) saved.tables.push({jobId: job.job_id});
            for (const value of db.prepare("SELECT value FROM job_results WHERE job = ?").pluck().all(job.id) as string[]) {
                const result = JSON.parse(value) as RowResult;
                saved.results.push({jobId: job.job_id, rowIndex: result.rowIndex, result});
            }
        }
    });
    saved.jobs.sort((a, b) => b.createdAt - a.createdAt);
    saved.tables.sort((a, b) => a.jobId.localeCompare(b.jobId));
    saved.results.sort((a, b) => a.jobId.localeCompare(b.jobId) || a.rowIndex - b.rowIndex);
    return saved;
}

/** Every stored result (an experiment's: every cell) of every saved job of `kind`, by job, in the order they were stored. */
export async function readSavedResults(dataDir: string, kind: "scoring" | "experiment"): Promise<Map<string, RowResult[]>> {
    const found = new Map<string, RowResult[]>();
    await readDatabase(dataDir, (db) => {
        const rows = db.prepare("SELECT jobs.job_id, job_results.value FROM job_results JOIN jobs ON jobs.id = job_results.job WHERE jobs.kind = ? ORDER BY job_results.rowid")
            .all(kind) as Array<{job_id: string, value: string}>;
        for (const job of db.prepare("SELECT job_id FROM jobs WHERE kind = ? ORDER BY created_at").pluck().all(kind) as string[]) found.set(job, []);
        for (const row of rows) found.get(row.job_id)?.push(JSON.parse(row.value) as RowResult);
    });
    return found;
}

/**
 * A saved document (`svc-studio-theme`, `svc-studio-question-set` ...) as the app's database holds it, read through a
 * connection of its own while the app may be writing; undefined when there is none.
 */
export async function readDocument(dataDir: string, key: string): Promise<unknown> {
    let text: string | undefined;
    await readDatabase(dataDir, (db) => {
        text = db.prepare("SELECT value FROM documents WHERE key = ?").pluck().get(key) as string | undefined;
    });
    return text === undefined ? undefined : JSON.parse(text);
}

/** The saved runs, oldest first. */
export async function readHistory(dataDir: string): Promise<Array<{id: string, kind: string, request: unknown}>> {
    let values: string[] = [];
    await readDatabase(dataDir, (db) => {
        values = db.prepare("SELECT value FROM runs ORDER BY created_at, id").pluck().all() as string[];
    });
    return values.map((value) => JSON.parse(value));
}

/**
 * Runs `read` on the app's database through a connection of its own, while the app may be writing; nothing when the
 * app has not made it, or not yet given it its tables (nothing saved yet).
 */
async function readDatabase(dataDir: string, read: (db: ReturnType<typeof openSqlite>) => void): Promise<void> {
    const file = path.join(dataDir, "app.sqlite");
    if (!existsSync(file)) return;
    const db = openSqlite(file);
    try {
        db.pragma("busy_timeout = 5000");
        read(db);
    } catch (error) {
        if (!/no such table/.test((error as Error).message)) throw error;
    } finally {
        db.close();
    }
}

/** The saved datasets as the app's database holds them, newest first, each with its rows in order. */
export async function readDatasets(dataDir: string): Promise<Array<{id: string, name: string, rowCount: number, labelColumns: string[], inputColumns: string[], columns: string[], rows: unknown[][]}>> {
    let datasets: Array<{id: string, name: string, info: string, row_count: number, rows: string[]}> = [];
    await readDatabase(dataDir, (db) => {
        const rows = db.prepare("SELECT cells FROM dataset_rows WHERE dataset_id = ? ORDER BY position").pluck();
        datasets = (db.prepare("SELECT id, name, info, row_count FROM datasets ORDER BY updated_at DESC").all() as typeof datasets)
            .map((dataset) => ({...dataset, rows: rows.all(dataset.id) as string[]}));
    });
    return datasets.map((dataset) => ({id: dataset.id, name: dataset.name, rowCount: dataset.row_count,
        ...JSON.parse(dataset.info) as {labelColumns: string[], inputColumns: string[], columns: string[]}, rows: dataset.rows.map((cells) => JSON.parse(cells) as unknown[])}));
}

/** The saved prompts and question sets as the app's database holds them, the most recently changed first. */
export async function readPromptItems(dataDir: string): Promise<Array<{id: string, name: string, kind: string, latest: number}>> {
    let items: Array<{id: string, name: string, kind: string, latest: number}> = [];
    await readDatabase(dataDir, (db) => {
        items = db.prepare("SELECT item_id AS id, name, kind, latest FROM prompt_items ORDER BY updated_at DESC").all() as typeof items;
    });
    return items;
}

/** A saved item's versions as the app's database holds them, oldest first, each body parsed. */
export async function readPromptVersions(dataDir: string, itemId: string): Promise<Array<{version: number, note: string, body: unknown}>> {
    let versions: Array<{version: number, note: string, body: unknown}> = [];
    await readDatabase(dataDir, (db) => {
        versions = (db.prepare("SELECT version, note, body FROM prompt_versions WHERE item_id = ? ORDER BY version").all(itemId) as Array<{version: number, note: string, body: string}>)
            .map((row) => ({...row, body: JSON.parse(row.body) as unknown}));
    });
    return versions;
}
