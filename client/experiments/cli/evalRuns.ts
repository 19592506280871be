import {experimentCells} from "../repeats.ts";
import {createHash} from "node:crypto";
import {readFile, stat} from "node:fs/promises";
import {SqliteResultStore} from "../../scoring/node/SqliteResultStore.ts";
import {sampleIndexes, type InputProblem} from "../dataset.ts";
import {ExperimentFileError} from "../experimentFile.ts";
import {experimentFingerprint, type ExperimentRunSpec, type StoredCell} from "../ExperimentRunner.ts";
import {readExperimentFile} from "../node/experimentFiles.ts";
import {isResultsJson, parseExperimentResults} from "../resultsFile.ts";
import type {RunData} from "../rowOutcomes.ts";
import type {CellResult, ConnectionRef, Dataset, ExperimentSpec} from "../types.ts";

// The runs eval stores and reads back: the results database's job of an experiment (named by the experiment's id and
// content, so an edited experiment is another run), and an earlier run named by a file, as --baseline and
// --filter-failing take it: a results file (`--results`), or an experiment file, which names the run of exactly that
// experiment stored in a results database: its own (`<name>.results.sqlite` beside it, eval's default --db) or else
// this run's --db.

/** The results database's job id of an experiment: its id and its fingerprint (what is sent and checked). */
export function experimentJobId(spec: ExperimentSpec, dataset: Dataset): string {
    return createHash("sha256").update(`${spec.id}\n${experimentFingerprint(spec, dataset)}`).digest("hex").slice(0, 16);
}

/** The results database eval uses for an experiment file when no --db is given: `<name>.results.sqlite` beside it. */
export function defaultResultsDatabase(experimentFile: string): string {
    return `${experimentFile.replace(/\.json$/i, "")}.results.sqlite`;
}

/** The experiment with every `{"profile": "local"}` connection (variants' and graders') sent to `baseUrl` instead. */
export function onLocalServer(spec: ExperimentSpec, baseUrl: string): ExperimentSpec {
    const local = (connection: ConnectionRef): ConnectionRef => "profile" in connection && connection.profile === "local" ? {baseUrl} : connection;
    return {
        ...spec,
        variants: spec.variants.map((variant) => ({...variant, connection: local(variant.connection)})),
        checks: spec.checks.map((check) => check.kind === "grader" && check.connection !== undefined ? {...check, connection: local(check.connection)} : check)
    };
}

/** Every stored cell of a job, in (row, variant) order. */
export async function readStoredCells(store: SqliteResultStore<StoredCell, ExperimentRunSpec>, jobId: string): Promise<CellResult[]> {
    return (await store.readResults(jobId)).map((stored) => stored.cell);
}

/** Where an experiment file's run is looked for, and how its connections were sent (--local). */
export type StoredRunPlaces = {local: string | undefined, db: string};

/** A file that names an earlier run, read as the run; a problem under `flag` (and null) when it names none. */
export async function readRunFile(flag: string, file: string, places: StoredRunPlaces, problems: InputProblem[]): Promise<RunData | null> {
    let text: string;
    try {
        text = await readFile(file, "utf8");
    } catch (error) {
        const errno = error as NodeJS.ErrnoException;
        problems.push({path: flag, message: errno.code === "ENOENT" ? `no such file: ${file}` : `${file} cannot be read: ${errno.message}`});
        return null;
    }
    let json: unknown = null;
    try {
        json = JSON.parse(text);
    } catch {
        // Not JSON: the results reader says so, with its own words.
    }
    try {
        if (json === null || isResultsJson(json) || (json as {format?: unknown}).format !== "svc-experiment") {
            const results = parseExperimentResults(json ?? text);
            return {spec: results.experiment, dataset: results.experiment.dataset, rowIndexes: results.rowIndexes, cells: results.cells};
        }
        return await storedRun(file, places);
    } catch (error) {
        if (error instanceof StoredRunError) problems.push({path: flag, message: error.message});
        else if (error instanceof ExperimentFileError) problems.push({path: flag, message: `${file} is neither a results file nor an experiment file: ${error.message}`});
        else throw error;
        return null;
    }
}

class StoredRunError extends Error {}

/** The finished run of an experiment file, from the first results database that holds it. */
async function storedRun(file: string, places: StoredRunPlaces): Promise<RunData> {
    const read = await readExperimentFile(file);
    const spec = places.local === undefined ? read.spec : onLocalServer(read.spec, places.local);
    const dataset = read.dataset;
    let rowIndexes: number[];
    try {
        rowIndexes = sampleIndexes(dataset, spec.sample);
    } catch (error) {
        throw new StoredRunError(`${file}: its sample: ${error instanceof Error ? error.message : String(error)}`);
    }
    const jobId = experimentJobId(spec, dataset);
    const databases = [...new Set([defaultResultsDatabase(file), places.db])];
    for (const database of databases) {
        if (!(await stat(database).then((found) => found.isFile(), () => false))) continue;
        let store: SqliteResultStore<StoredCell, ExperimentRunSpec>;
        try {
            store = new SqliteResultStore<StoredCell, ExperimentRunSpec>(database);
        } catch (error) {
            throw new StoredRunError(`${database} cannot be opened as a results database: ${error instanceof Error ? error.message : String(error)}`);
        }
        try {
            if ((await store.getJob(jobId)) === null) continue;
            const inSample = new Set(rowIndexes);
            const cells = (await readStoredCells(store, jobId)).filter((cell) => inSample.has(cell.rowIndex));
            const expected = experimentCells(spec, rowIndexes.length);
            if (cells.length < expected)
                throw new StoredRunError(`${file}: its run in ${database} is not finished (${cells.length} of ${expected} cells stored); finish it with svc-studio eval ${file}` +
                    `${database === places.db && database !== defaultResultsDatabase(file) ? ` --db ${database}` : ""}, or give the results file it wrote`);
            return {spec, dataset, rowIndexes, cells};
        } finally {
            await store.close();
        }
    }
    throw new StoredRunError(`${file} is an experiment file, and no results database holds its run (looked in ${databases.join(" and ")}): ` +
        "run it with svc-studio eval first, or give the results file such a run wrote (--results); an edited experiment names another run");
}
