// `npm run score -- <in.csv|in.xlsx> --questions <set.json> --out <out.csv|out.xlsx> [options]` (Node only):
// scores every row of a sheet against a running svc server over HTTP, storing each result in a SQLite job
// database as it arrives, then writes the input's columns plus the answer columns. Killed or interrupted,
// it is resumed with --resume and scores only the rows that have no result yet.
import {createHash} from "node:crypto";
import {open, readFile, rm, stat} from "node:fs/promises";
import path from "node:path";
import {stableStringify} from "../../../protocol/decisions/stableStringify.ts";
import {exportRows, resultLayout} from "../results.ts";
import {JobMismatchError, JobRunner, jobFingerprint} from "../JobRunner.ts";
import {SqliteResultStore} from "../node/SqliteResultStore.ts";
import {openCliResponseCache, type SqliteResponseCache} from "../node/SqliteResponseCache.ts";
import {connectionCacheId} from "../responseCache.ts";
import type {InputMapping, JobSpec} from "../types.ts";
import {requestBuilder, TemplateError} from "../requests.ts";
import {labelColumns} from "../labelColumns.ts";
import {LabelColumnError, modelColumns} from "../modelColumns.ts";
import {parseQuestionSet, QuestionSetError, questionInfos} from "../questions.ts";
import {openTable} from "../table.ts";
import {openSpreadsheetFile, writeCsvFile, writeXlsxFile} from "../node/spreadsheetFiles.ts";
import {SvcClient} from "../../sdk/SvcClient.ts";
import {formatDuration} from "../../../base/common/format.ts";
import {parseScoreArgs, scoreUsage, UsageError, type ScoreArgs} from "./scoreArgs.ts";
import {progressDisplay, runInConsole} from "./jobConsole.ts";

/** Exit codes: 0 done (row errors are in the error column), 2 usage, 3 job failed, 70 internal error, 130 interrupted. */
async function main(argv: string[]): Promise<number> {
    if (argv.includes("--help") || argv.includes("-h")) {
        console.log(scoreUsage);
        return 0;
    }
    const args = parseScoreArgs(argv);
    const {questionSet, normalized} = parseQuestionSet(JSON.parse(await readFile(args.questions, "utf8")));
    const source = openSpreadsheetFile(args.input);
    if (source.format === "csv" && args.sheet !== undefined) throw new UsageError("--sheet applies to .xlsx input only");
    const table = await openTable(source, {sheet: args.sheet, header: args.header});
    const input: InputMapping = args.template === undefined ? {kind: "row"} : {kind: "template", template: args.template};
    const roles = columnRoles(args, table.columns, questionInfos(normalized).map((info) => info.name));
    const spec: JobSpec = {questionSet, input, columns: table.columns, ...roles, source: {name: path.resolve(args.input), sheet: table.sheet}};
    // The input is checked against the columns and their roles before anything is sent (a label column named by the
    // template is refused here).
    requestBuilder(questionSet, input, spec);
    if (input.kind === "row") log(`the model sees ${modelColumns(spec).join(", ") || "no column"}${roles.labelColumns.length > 0 ? `; label columns left out: ${roles.labelColumns.join(", ")}` : ""}`);
    const jobId = createHash("sha256").update(stableStringify({input: path.resolve(args.input), sheet: table.sheet, job: jobFingerprint(spec)})).digest("hex").slice(0, 16);

    await checkOutputPaths(args);
    let cache: SqliteResponseCache | null;
    try {
        cache = await openCliResponseCache(args, log);
    } catch (error) {
        throw new CacheFileError(`--cache ${args.cache}: cannot be opened as a response cache: ${error instanceof Error ? error.message : String(error)}`);
    }
    const store = new SqliteResultStore(args.db);
    try {
        const existing = await store.getJob(jobId);
        const stored = existing === null ? 0 : (await store.doneRowIndexes(jobId)).size;
        if (!args.resume && stored > 0)
            throw new JobExistsError(`${args.db} already holds ${stored} results of this job: pass --resume to continue it, or delete the file to start over`);
        if (args.resume && existing === null) log(`nothing to resume in ${args.db}; starting a new job`);
        const totalRows = await table.countRows();
        const apiKey = readApiKey(args);
        const client = new SvcClient({baseUrl: args.baseUrl, apiKey, timeoutMs: args.timeoutMs});
        const display = progressDisplay();
        let fromCache = 0;
        const runner = new JobRunner({
            jobId, spec, rows: table.batches, totalRows, client, store,
            ...(cache === null ? {} : {cache: {cache, scope: {connection: connectionCacheId({baseUrl: args.baseUrl}), model: null}}}),
            onResult: (result) => {
                if (result.cached) fromCache++;
            },
            concurrency: args.concurrency,
            rescoreErrors: args.retryErrors,
            onProgress: display.update
        });
        const final = await runInConsole(runner, display);
        if (final.status === "cancelled") {
            log(`interrupted: ${final.done} of ${final.totalRows} rows are stored in ${args.db}; run again with --resume to finish`);
            return 130;
        }
        if (final.status === "failed") {
            log(`failed: ${final.fatalError}`);
            log(`${final.done} of ${final.totalRows} rows are stored in ${args.db}; fix the cause and run again with --resume`);
            return 3;
        }
        const layout = resultLayout(questionSet, questionInfos(normalized), table.columns);
        const columns = [...table.columns, ...layout.columns];
        const rows = exportRows(table.batches(), store, jobId, layout);
        if (/\.xlsx$/i.test(args.out)) await writeXlsxFile(args.out, columns, rows);
        else await writeCsvFile(args.out, columns, rows);
        const cached = cache === null ? "" : `; ${final.scoredThisRun - fromCache} sent, ${fromCache} from the cache`;
        log(`scored ${final.totalRows} rows (${final.scoredThisRun} this run, ${final.failed} with errors) in ${formatDuration(final.elapsedMs / 1000)}${cached}: wrote ${args.out}`);
        return 0;
    } finally {
        cache?.close();
        await store.close();
    }
}

/**
 * The table's label columns (given, else guessed from the questions' names and label-like names) and the columns the
 * model sees (given, else every column but the labels); a listed column the table lacks is a usage error.
 */
function columnRoles(args: ScoreArgs, columns: string[], questionNames: string[]): {labelColumns: string[], inputColumns: string[]} {
    for (const [flag, names] of [["--label-columns", args.labelColumns], ["--input-columns", args.inputColumns]] as const) {
        const missing = (names ?? []).filter((name) => !columns.includes(name));
        if (missing.length > 0) throw new UsageError(`${flag}: no column named ${missing.map((name) => JSON.stringify(name)).join(", ")}; columns: ${columns.map((name) => JSON.stringify(name)).join(", ")}`);
    }
    const guessed = labelColumns(questionNames, columns);
    const labels = args.labelColumns ?? columns.filter((column) => guessed.has(column));
    return {labelColumns: labels, inputColumns: args.inputColumns ?? columns.filter((column) => !labels.includes(column))};
}

/** Results of this job exist and --resume was not given: said in one line, without the usage text. */
class JobExistsError extends Error {}

/** A --cache file that cannot be opened: refused before anything is sent. */
class CacheFileError extends Error {}

function readApiKey(args: ScoreArgs): string | undefined {
    if (args.apiKeyEnv === undefined) return process.env.SVC_API_KEY || undefined;
    const key = process.env[args.apiKeyEnv];
    if (!key) throw new UsageError(`--api-key-env ${args.apiKeyEnv}: that environment variable is not set`);
    return key;
}

function log(line: string) {
    process.stderr.write(`score: ${line}\n`);
}

/** An --out or --db that could not be written: refused before anything is sent. */
class OutputPathError extends Error {}

/**
 * Refuses, before anything is sent, an --out or --db that could not be written: neither may be a folder, and each
 * one's folder must exist and take a new file (probed by creating and removing one, which also answers for
 * read-only disks and for root, whom permission bits do not stop).
 */
async function checkOutputPaths(args: ScoreArgs): Promise<void> {
    for (const [flag, file] of [["--out", args.out], ["--db", args.db]] as const) {
        if ((await stat(file).catch(() => null))?.isDirectory()) throw new OutputPathError(`${flag} ${file}: is a folder`);
        const folder = path.dirname(path.resolve(file));
        const probe = path.join(folder, `.${path.basename(file)}.${process.pid}.probe`);
        try {
            await (await open(probe, "wx")).close();
        } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            const why = code === "ENOENT" ? "no such folder" : code === "ENOTDIR" ? "a file on its path is not a folder" : `no file can be created there (${code ?? String(error)})`;
            throw new OutputPathError(`${flag} ${file}: cannot write in ${folder}: ${why}`);
        }
        await rm(probe, {force: true});
    }
}

/** Exit code of an unexpected error (EX_SOFTWARE): a fault of score itself, told apart from bad input (2). */
const internalErrorExitCode = 70;

main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
}, (error: unknown) => {
    const known = error instanceof UsageError || error instanceof JobExistsError || error instanceof QuestionSetError || error instanceof TemplateError || error instanceof LabelColumnError || error instanceof JobMismatchError || error instanceof OutputPathError || error instanceof CacheFileError || error instanceof SyntaxError || error instanceof RangeError;
    const errno = error as NodeJS.ErrnoException | null;
    if (errno?.code === "ENOENT" && typeof errno.path === "string") {
        log(`no such file: ${errno.path}`);
        process.exitCode = 2;
        return;
    }
    const message = error instanceof Error ? error.message : String(error);
    log(known ? message : `internal error: ${message}`);
    if (error instanceof UsageError) process.stderr.write(`${scoreUsage}\n`);
    else if (!known && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.exitCode = known ? 2 : internalErrorExitCode;
});
