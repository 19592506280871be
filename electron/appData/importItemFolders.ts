// Moving the old folders of the run history (`history/`), scoring jobs (`scoring-jobs/`) and experiments
// (`experiments/`) into the app's database, once, at the first open. The old layout: a run per file
// `<createdAt>-<id>.json`; a job per folder `<jobId>/` with `job.json` (its record), `table.json` and `results.jsonl`
// (one result per line, appended; the first of a row counts).
import {existsSync, readdirSync, readFileSync} from "node:fs";
import {readdir, rename} from "node:fs/promises";
import path from "node:path";
import type {AppDatabase} from "./AppDatabase.ts";
import type {ItemKind} from "./itemProblems.ts";
import {recordUnreadable} from "./itemProblems.ts";
import {checkRecord, checkResult} from "./JobStore.ts";
import {isRun} from "./RunHistory.ts";
import {isName, parsedJson} from "./storedNames.ts";

/** The old folders, each with the kind of what it holds. */
export const itemFolders: ReadonlyArray<{name: string, kind: ItemKind}> = [
    {name: "history", kind: "run"},
    {name: "scoring-jobs", kind: "scoring"},
    {name: "experiments", kind: "experiment"}
];

/** What one folder's import moved in and what it kept aside, unreadable. */
type Imported = {items: number, unreadable: number};

/**
 * Moves the old folders into the database. Each folder is first renamed aside (`<name>.migrated-<time>`), never
 * deleted; then each folder moved aside and not yet imported is copied in one transaction, recorded in
 * `imported_item_folders` in the same one. So a crash anywhere leaves either the folder to import at the next open or its
 * items in the database, never both half. A file that cannot be read stays in the folder moved aside and is recorded in
 * `items_unreadable`, which the list of its kind reports. A run or job the database holds already keeps its value.
 */
export async function importItemFolders(db: AppDatabase, dataDir: string, now = new Date()): Promise<void> {
    const stamp = now.toISOString().replace(/[:.]/g, "-");
    for (const {name} of itemFolders) {
        try {
            await rename(path.join(dataDir, name), path.join(dataDir, `${name}.migrated-${stamp}`));
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
    }
    const entries = await readdir(dataDir, {withFileTypes: true});
    const imported = new Set((db.statement("SELECT folder FROM imported_item_folders").all() as Array<{folder: string}>).map((row) => row.folder));
    for (const {name, kind} of itemFolders) {
        const folders = entries.filter((entry) => entry.isDirectory() && entry.name.startsWith(`${name}.migrated-`) && !imported.has(entry.name)).map((entry) => entry.name).sort();
        for (const folder of folders) {
            // Files are read inside the transaction, one at a time, so a big history is never in memory whole.
            db.transaction(() => {
                if (db.statement("SELECT 1 FROM imported_item_folders WHERE folder = ?").get(folder) !== undefined) return;
                const dir = path.join(dataDir, folder);
                const found = kind === "run" ? importRuns(db, dir, folder, now.getTime()) : importJobs(db, kind, dir, folder, now.getTime());
                db.statement("INSERT INTO imported_item_folders (folder, imported_at, items, unreadable) VALUES (?, ?, ?, ?)")
                    .run(folder, now.getTime(), found.items, found.unreadable);
            });
        }
    }
}

function importRuns(db: AppDatabase, dir: string, folder: string, now: number): Imported {
    const found: Imported = {items: 0, unreadable: 0};
    // Temporary files a crash left (`.tmp`) are not runs.
    for (const name of readdirSync(dir).filter((file) => file.endsWith(".json")).sort()) {
        const text = readFileSync(path.join(dir, name), "utf8");
        const run = parsedJson(text);
        if (!isRun(run)) {
            recordUnreadable(db, "run", `${folder}/${name}`, run === undefined ? "not JSON" : "not a run (no id or creation time)", now);
            found.unreadable++;
            continue;
        }
        found.items += Number(db.statement("INSERT INTO runs (id, created_at, value) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING")
            .run(run.id, run.createdAt, JSON.stringify(run)).changes);
    }
    return found;
}

function importJobs(db: AppDatabase, kind: ItemKind, dir: string, folder: string, now: number): Imported {
    const found: Imported = {items: 0, unreadable: 0};
    const unreadable = (file: string, reason: string) => {
        recordUnreadable(db, kind, `${folder}/${file}`, reason, now);
        found.unreadable++;
    };
    for (const jobId of readdirSync(dir).filter(isName).sort()) {
        const file = (name: string) => path.join(dir, jobId, name);
        // A folder with no record is what a creation cut short by a crash left: nothing to move in (it stays aside).
        if (!existsSync(file("job.json"))) continue;
        let record;
        try {
            record = checkRecord(JSON.parse(readFileSync(file("job.json"), "utf8")));
        } catch (error) {
            unreadable(`${jobId}/job.json`, error instanceof SyntaxError ? "not JSON" : `not a job's record (${(error as Error).message})`);
            continue;
        }
        if (record.jobId !== jobId || db.statement("SELECT 1 FROM jobs WHERE kind = ? AND job_id = ?").get(kind, jobId) !== undefined) {
            if (record.jobId !== jobId) unreadable(`${jobId}/job.json`, `its record names job ${record.jobId}`);
            continue;
        }
        const id = Number(db.statement("INSERT INTO jobs (kind, job_id, created_at, record) VALUES (?, ?, ?, ?) RETURNING id").pluck()
            .get(kind, jobId, record.createdAt, JSON.stringify(record)));
        found.items++;
        if (existsSync(file("table.json"))) {
            const table = readFileSync(file("table.json"), "utf8");
            if (parsedJson(table) === undefined) unreadable(`${jobId}/table.json`, "not JSON (the job is listed without its table)");
            else db.statement("INSERT INTO job_tables (job, value) VALUES (?, ?)").run(id, table);
        }
        const lines = existsSync(file("results.jsonl")) ? readFileSync(file("results.jsonl"), "utf8").split("\n").filter((line) => line !== "") : [];
        let badLines = 0;
        for (const line of lines) {
            let result;
            try {
                result = checkResult(JSON.parse(line));
            } catch {
                // A line cut short by a crash mid-append is one of these too: the row is scored again.
                badLines++;
                continue;
            }
            db.statement("INSERT INTO job_results (job, row_index, ok, value) VALUES (?, ?, ?, ?) ON CONFLICT (job, row_index) DO NOTHING")
                .run(id, result.rowIndex, result.ok ? 1 : 0, line);
        }
        if (badLines > 0) unreadable(`${jobId}/results.jsonl`, `${badLines} of its ${lines.length} lines are no result (their rows are scored again)`);
    }
    return found;
}
