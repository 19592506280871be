// Test-only: the run history, scoring jobs and experiments as the earlier plain-file stores of electron/appData left
// them in a data folder, written the way those stores wrote them, so a test can upgrade from that layout.
//   history/<createdAt>-<id>.json                  one run, the JSON the page sent
//   scoring-jobs/<jobId>/job.json                  the job's record (experiments/ the same, one folder per experiment)
//   scoring-jobs/<jobId>/table.json                the table it scores, written before the record
//   scoring-jobs/<jobId>/results.jsonl             one result per line, appended (the first line of a row counts)
import {appendFile, mkdir, writeFile} from "node:fs/promises";
import path from "node:path";

/** Writes one run as the old history store did. */
export async function writeOldRun(dataDir: string, run: {id: string, createdAt: number, [field: string]: unknown}): Promise<string> {
    const dir = path.join(dataDir, "history");
    await mkdir(dir, {recursive: true});
    const file = path.join(dir, `${run.createdAt}-${run.id}.json`);
    await writeFile(file, JSON.stringify(run), {mode: 0o600});
    return file;
}

/** Writes one job (`folder`: "scoring-jobs" or "experiments") as the old job store did: table, then record, then results. */
export async function writeOldJob(dataDir: string, folder: "scoring-jobs" | "experiments", record: {jobId: string, [field: string]: unknown}, table: unknown, results: unknown[]): Promise<string> {
    const dir = path.join(dataDir, folder, record.jobId);
    await mkdir(dir, {recursive: true});
    if (table !== undefined) await writeFile(path.join(dir, "table.json"), JSON.stringify(table), {mode: 0o600});
    await writeFile(path.join(dir, "job.json"), JSON.stringify(record), {mode: 0o600});
    for (const result of results) await appendFile(path.join(dir, "results.jsonl"), JSON.stringify(result) + "\n", {mode: 0o600});
    return dir;
}
