// What the app saved, read straight from its data folder (electron/appData/), as a person or a backup would find it.
import {existsSync} from "node:fs";
import {readdir, readFile} from "node:fs/promises";
import path from "node:path";
import {openSqlite} from "../../../base/node/sqlite.ts";
import type {JobRecord, RowResult} from "../../../client/scoring/index.ts";

/** Every result line of every saved job (duplicates and all), by job and row; the records and which jobs have a table. */
export type SavedJobFiles = {jobs: JobRecord[], results: Array<{jobId: string, rowIndex: number, result: RowResult}>, tables: Array<{jobId: string}>};

export async function readSavedJobs(dataDir: string): Promise<SavedJobFiles> {
    const root = path.join(dataDir, "scoring-jobs");
    const saved: SavedJobFiles = {jobs: [], results: [], tables: []};
    for (const jobId of (await readdir(root).catch(() => [] as string[])).sort()) {
        const read = (name: string) => readFile(path.join(root, jobId, name), "utf8").catch(() => null);
        const [record, table, results] = await Promise.all([read("job.json"), read("table.json"), read("results.jsonl")]);
        if (record !== null) saved.jobs.push(JSON.parse(record) as JobRecord);
        if (table !== null) saved.tables.push({jobId});
        for (const line of (results ?? "").split("\n").filter(Boolean)) {
            const result = JSON.parse(line) as RowResult;
            saved.results.push({jobId, rowIndex: result.rowIndex, result});
        }
    }
    saved.jobs.sort((a, b) => b.createdAt - a.createdAt);
    saved.results.sort((a, b) => a.jobId.localeCompare(b.jobId) || a.rowIndex - b.rowIndex);
    return saved;
}

/**
 * A saved document (`svc-studio-theme`, `svc-studio-question-set` ...) as the app's database holds it, read through a
 * connection of its own while the app may be writing; undefined when there is none.
 */
export async function readDocument(dataDir: string, key: string): Promise<unknown> {
    const file = path.join(dataDir, "app.sqlite");
    if (!existsSync(file)) return undefined;
    const db = openSqlite(file);
    try {
        db.pragma("busy_timeout = 5000");
        const text = db.prepare("SELECT value FROM documents WHERE key = ?").pluck().get(key) as string | undefined;
        return text === undefined ? undefined : JSON.parse(text);
    } catch (error) {
        // Created by the app but not yet given its tables: nothing saved yet.
        if (/no such table/.test((error as Error).message)) return undefined;
        throw error;
    } finally {
        db.close();
    }
}

/** The saved runs, oldest first (their file names start with their creation time). */
export async function readHistory(dataDir: string): Promise<Array<{id: string, kind: string, request: unknown}>> {
    const dir = path.join(dataDir, "history");
    const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(".json"));
    names.sort((a, b) => Number(a.split("-")[0]) - Number(b.split("-")[0]));
    return Promise.all(names.map(async (name) => JSON.parse(await readFile(path.join(dir, name), "utf8"))));
}

/** The saved datasets as the app's database holds them, newest first, each with its rows in order. */
export async function readDatasets(dataDir: string): Promise<Array<{id: string, name: string, rowCount: number, labelColumns: string[], inputColumns: string[], columns: string[], rows: unknown[][]}>> {
    const file = path.join(dataDir, "app.sqlite");
    if (!existsSync(file)) return [];
    const db = openSqlite(file);
    try {
        db.pragma("busy_timeout = 5000");
        const datasets = db.prepare("SELECT id, name, info, row_count FROM datasets ORDER BY updated_at DESC").all() as Array<{id: string, name: string, info: string, row_count: number}>;
        const rows = db.prepare("SELECT cells FROM dataset_rows WHERE dataset_id = ? ORDER BY position").pluck();
        return datasets.map((dataset) => ({id: dataset.id, name: dataset.name, rowCount: dataset.row_count, ...JSON.parse(dataset.info) as {labelColumns: string[], inputColumns: string[], columns: string[]},
            rows: (rows.all(dataset.id) as string[]).map((cells) => JSON.parse(cells) as unknown[])}));
    } catch (error) {
        if (/no such table/.test((error as Error).message)) return [];
        throw error;
    } finally {
        db.close();
    }
}
