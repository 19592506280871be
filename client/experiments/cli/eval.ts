// `svc-studio eval <experiment file> [--out report.html] [--csv rows.csv] [--fail-under metric=value ...]` (Node
// only): runs an experiment file with the same runner as the app, against the servers its variants name, storing
// every cell in a SQLite file as it arrives (a run again resumes), then prints the metrics, writes the report and
// exits 1 when a threshold is missed.
import {createHash} from "node:crypto";
import {formatDuration} from "../../../base/common/format.ts";
import {writeFileAtomic} from "../../../base/node/writeFileAtomic.ts";
import {SvcClient} from "../../sdk/SvcClient.ts";
import {progressDisplay, runInConsole} from "../../scoring/cli/jobConsole.ts";
import {SqliteResultStore} from "../../scoring/node/SqliteResultStore.ts";
import {checkExperimentInput, ExperimentInputError, sampleIndexes} from "../dataset.ts";
import {estimateExperiment} from "../estimate.ts";
import {ExperimentFileError} from "../experimentFile.ts";
import {ExperimentMismatchError, ExperimentRunner, experimentFingerprint, type ExperimentRunSpec, type StoredCell} from "../ExperimentRunner.ts";
import {readExperimentFile} from "../node/experimentFiles.ts";
import {summarizeExperiment} from "../summary.ts";
import {renderExperimentReport} from "../report.ts";
import {experimentExportTable, exportTableCsv} from "../exportCells.ts";
import {evaluateThresholds, parseThreshold, ThresholdError} from "../thresholds.ts";
import type {CellResult, ConnectionRef} from "../types.ts";
import {evalUsage, parseEvalArgs, UsageError} from "./evalArgs.ts";
import {formatSummary} from "./formatSummary.ts";

/** Exit codes: 0 every threshold met, 1 one missed, 2 bad input, 3 the run failed, 130 interrupted. */
export async function runEval(argv: string[]): Promise<number> {
    try {
        return await evaluate(argv);
    } catch (error) {
        const known = error instanceof UsageError || error instanceof ExperimentFileError || error instanceof ExperimentInputError || error instanceof ThresholdError
            || error instanceof ExperimentMismatchError || (error as NodeJS.ErrnoException)?.code === "ENOENT";
        if (error instanceof ExperimentInputError) for (const problem of error.problems) log(`${problem.path}: ${problem.message}`);
        else log(error instanceof Error ? error.message : String(error));
        if (error instanceof UsageError) process.stderr.write(`${evalUsage}\n`);
        else if (!known && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
        return known ? 2 : 1;
    }
}

async function evaluate(argv: string[]): Promise<number> {
    if (argv.includes("--help") || argv.includes("-h")) {
        console.log(evalUsage);
        return 0;
    }
    const args = parseEvalArgs(argv);
    const {spec, dataset} = await readExperimentFile(args.file);
    const thresholds = args.failUnder.map((text) => parseThreshold(text, spec));
    let rows: number[];
    try {
        rows = sampleIndexes(dataset, spec.sample);
    } catch (error) {
        throw new ExperimentInputError([{path: "sample", message: error instanceof Error ? error.message : String(error)}]);
    }
    const input = checkExperimentInput(spec, dataset, rows);
    const connections = [...spec.variants.map((variant, index) => ({path: `variants[${index}].connection`, connection: variant.connection})),
        ...spec.checks.flatMap((check, index) => check.kind === "grader" && check.connection !== undefined ? [{path: `checks[${index}].connection`, connection: check.connection}] : [])];
    for (const {path, connection} of connections) {
        if ("profile" in connection) input.errors.push({path, message: `the app's connection ${JSON.stringify(connection.profile)} is not reachable from the command line: give the server's "baseUrl" (and "apiKeyEnv") instead`});
        else if (connection.apiKeyEnv !== undefined && !process.env[connection.apiKeyEnv]) input.errors.push({path: `${path}.apiKeyEnv`, message: `the environment variable ${connection.apiKeyEnv} is not set`});
    }
    if (input.errors.length > 0) throw new ExperimentInputError(input.errors);
    for (const warning of input.warnings) log(`warning: ${warning.path}: ${warning.message}`);

    const store = new SqliteResultStore<StoredCell, ExperimentRunSpec>(args.db);
    try {
        const jobId = createHash("sha256").update(`${spec.id}\n${experimentFingerprint(spec, dataset)}`).digest("hex").slice(0, 16);
        const stored = (await store.getJob(jobId)) === null ? 0 : (await store.doneRowIndexes(jobId)).size;
        // A resumed run estimates its time from the latency its first cells had, not the assumed pace.
        const earlier = stored === 0 ? [] : (await store.readResults(jobId, 0, 200)).filter((cell) => cell.ok).map((cell) => cell.cell.latencyMs / 1000);
        const pace = earlier.length === 0 ? undefined : earlier.reduce((sum, seconds) => sum + seconds, 0) / earlier.length;
        const estimate = estimateExperiment(spec, dataset, rows, {concurrency: args.concurrency, ...(pace === undefined ? {} : {secondsPerRequest: pace})});
        const left = Math.max(0, estimate.cells - stored);
        log(`${rows.length} rows x ${spec.variants.length} variants: ${estimate.requests.toLocaleString("en-US")} requests, about ` +
            `${estimate.promptTokens.toLocaleString("en-US")} prompt tokens and at most ${estimate.outputTokens.toLocaleString("en-US")} output tokens, ` +
            `roughly ${formatDuration((estimate.seconds ?? 0) * left / Math.max(1, estimate.cells))}` +
            `${stored > 0 ? ` for the ${left} cells left (${stored} already stored in ${args.db} are not sent again)` : ""}`);
        const display = progressDisplay("cells");
        const runner = new ExperimentRunner({
            spec, dataset, rows, jobId, store,
            clientFor: clientFor(args.timeoutMs),
            concurrency: args.concurrency,
            timeoutMs: args.timeoutMs,
            rescoreErrors: args.retryErrors,
            onProgress: display.update
        });
        const final = await runInConsole(runner, display);
        if (final.status === "cancelled") {
            log(`interrupted: ${final.done} of ${final.totalRows} cells are stored in ${args.db}; run the same command again to finish`);
            return 130;
        }
        if (final.status === "failed") {
            log(`failed: ${final.fatalError}`);
            log(`${final.done} of ${final.totalRows} cells are stored in ${args.db}; fix the cause and run the same command again`);
            return 3;
        }
        const cells = await readCells(store, jobId);
        const summary = summarizeExperiment(spec, dataset, cells, {rowIndexes: rows});
        console.log(formatSummary(spec, summary));
        if (args.out !== undefined) await writeFileAtomic(args.out, renderExperimentReport(spec, summary, {dataset}));
        if (args.csv !== undefined) await writeFileAtomic(args.csv, exportTableCsv(experimentExportTable(spec, dataset, cells, rows)));
        for (const written of [args.out, args.csv]) if (written !== undefined) log(`wrote ${written}`);
        log(`${final.totalRows} cells (${final.scoredThisRun} this run, ${final.failed} with errors) in ${formatDuration(final.elapsedMs / 1000)}; results in ${args.db}`);
        const results = evaluateThresholds(thresholds, summary);
        for (const result of results) log(result.message);
        return results.every((result) => result.ok) ? 0 : 1;
    } finally {
        await store.close();
    }
}

/** Every stored cell of the run, in (row, variant) order. */
async function readCells(store: SqliteResultStore<StoredCell, ExperimentRunSpec>, jobId: string): Promise<CellResult[]> {
    return (await store.readResults(jobId)).map((stored) => stored.cell);
}

/** One SvcClient per server: the key from the connection's environment variable, else SVC_API_KEY when set. */
function clientFor(timeoutMs: number): (connection: ConnectionRef) => SvcClient {
    return (connection) => {
        if ("profile" in connection) throw new Error(`the app's connection ${connection.profile} is not reachable from the command line`);
        const apiKey = connection.apiKeyEnv === undefined ? process.env.SVC_API_KEY || undefined : process.env[connection.apiKeyEnv];
        return new SvcClient({baseUrl: connection.baseUrl, apiKey, timeoutMs});
    };
}

function log(line: string) {
    process.stderr.write(`eval: ${line}\n`);
}

