// `svc-studio eval <experiment file> [--out report.html] [--csv rows.csv] [--fail-under metric=value ...]` (Node
// only): runs an experiment file with the same runner as the app, against the servers its variants name, storing
// every cell in a SQLite file as it arrives (a run again resumes), then prints the metrics, writes the report and
// exits 1 when a gate is missed. Everything that can be checked before a request is sent is checked first: the
// file, its dataset, the gates and every output path.
import {repeatsOf} from "../repeats.ts";
import {formatDuration} from "../../../base/common/format.ts";
import {writeFileAtomic} from "../../../base/node/writeFileAtomic.ts";
import {SvcClient} from "../../sdk/SvcClient.ts";
import {progressDisplay, runInConsole} from "../../scoring/cli/jobConsole.ts";
import {SqliteResultStore} from "../../scoring/node/SqliteResultStore.ts";
import {openCliResponseCache, type SqliteResponseCache} from "../../scoring/node/SqliteResponseCache.ts";
import {checkExperimentInput, ExperimentInputError, sampleIndexes} from "../dataset.ts";
import {estimateExperiment} from "../estimate.ts";
import {ExperimentFileError, serializeExperimentSpec} from "../experimentFile.ts";
import {ExperimentMismatchError, ExperimentRunner, type ExperimentRunSpec, type StoredCell} from "../ExperimentRunner.ts";
import {outputPathProblem, readExperimentFile} from "../node/experimentFiles.ts";
import {summarizeExperiment} from "../summary.ts";
import {assumedDiscordance, comparesVariants, describeDetectable, measuredDiscordance} from "../power.ts";
import {renderExperimentReport} from "../report.ts";
import {experimentExportTable, exportTableCsv} from "../exportCells.ts";
import {describeScope, ThresholdError} from "../thresholds.ts";
import {describeRowMatching} from "../baselineText.ts";
import type {ConnectionRef} from "../types.ts";
import {serializeExperimentResults} from "../resultsFile.ts";
import {evalUsage, parseEvalArgs, UsageError} from "./evalArgs.ts";
import {formatSummary} from "./formatSummary.ts";
import {checkGates, planGates} from "./evalGates.ts";
import {calibratedGraders, fitGraderCalibrations} from "./evalCalibration.ts";
import {experimentJobId, onLocalServer, readStoredCells} from "./evalRuns.ts";
import {evalJunit, evalMarkdown, evalReport, evalReportJson} from "./evalReports.ts";

/**
 * Exit codes (evalUsage says them too): 0 every gate met, 1 a gate missed, 2 bad input or usage (nothing was sent),
 * 3 the run failed (resumable), 70 an unexpected error (a bug: its stack is printed), 130 interrupted.
 */
export const evalExitCodes = {met: 0, missed: 1, badInput: 2, runFailed: 3, internalError: 70, interrupted: 130} as const;

export async function runEval(argv: string[]): Promise<number> {
    try {
        return await evaluate(argv);
    } catch (error) {
        if (error instanceof ExperimentInputError) {
            for (const problem of error.problems) log(`${problem.path}: ${problem.message}`);
            return evalExitCodes.badInput;
        }
        if (error instanceof UsageError || error instanceof ExperimentFileError || error instanceof ThresholdError || error instanceof ExperimentMismatchError) {
            log(error.message);
            if (error instanceof UsageError) process.stderr.write(`${evalUsage}\n`);
            return evalExitCodes.badInput;
        }
        const errno = error as NodeJS.ErrnoException | null;
        if (errno?.code === "ENOENT" && typeof errno.path === "string") {
            log(`no such file: ${errno.path}`);
            return evalExitCodes.badInput;
        }
        // Anything else is a fault of eval itself, not of its input or of a missed gate (1): said apart, with its stack.
        log(`internal error: ${error instanceof Error ? error.message : String(error)}`);
        if (error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
        return evalExitCodes.internalError;
    }
}

async function evaluate(argv: string[]): Promise<number> {
    if (argv.includes("--help") || argv.includes("-h")) {
        console.log(evalUsage);
        return 0;
    }
    const args = parseEvalArgs(argv);
    const read = await readExperimentFile(args.file);
    const dataset = read.dataset;
    const spec = args.local === undefined ? read.spec : onLocalServer(read.spec, args.local);
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
        if ("profile" in connection) input.errors.push({path, message: connection.profile === "local"
            ? "the app's local engine: pass --local <url>, a running svc-studio serve (e.g. http://127.0.0.1:8080), to send these requests there"
            : `the app's connection ${JSON.stringify(connection.profile)} is not reachable from the command line: give the server's "baseUrl" (and "apiKeyEnv") instead`});
        else if (connection.apiKeyEnv !== undefined && !process.env[connection.apiKeyEnv]) input.errors.push({path: `${path}.apiKeyEnv`, message: `the environment variable ${connection.apiKeyEnv} is not set`});
    }
    const plan = await planGates(args, spec, dataset, rows, input.errors);
    const graders = args.fitGraderCalibration === undefined ? [] : calibratedGraders(spec, input.errors);
    const thresholds = plan.thresholds;
    // Every output is checked before anything is sent: a report that cannot be written is found now, not after the run.
    const outputs = [{flag: "--out", file: args.out, createsFolders: true}, {flag: "--csv", file: args.csv, createsFolders: true}, {flag: "--results", file: args.results, createsFolders: true},
        {flag: "--fit-grader-calibration", file: args.fitGraderCalibration, createsFolders: true},
        {flag: "--junit", file: args.junit, createsFolders: true}, {flag: "--json", file: args.json, createsFolders: true}, {flag: "--summary-md", file: args.summaryMd, createsFolders: true},
        {flag: "--db", file: args.db, createsFolders: false}];
    for (const {flag, file, createsFolders} of outputs) {
        const problem = file === undefined ? null : await outputPathProblem(file, {createsFolders});
        if (problem !== null) input.errors.push({path: flag, message: problem});
    }
    if (input.errors.length > 0) throw new ExperimentInputError(input.errors);
    for (const warning of input.warnings) log(`warning: ${warning.path}: ${warning.message}`);
    for (const threshold of thresholds) if (threshold.variant === null) log(describeScope(threshold, spec));
    if (thresholds.length > 0 && !thresholds.some((threshold) => threshold.metric === "error_rate"))
        log("with --fail-under, an errored cell fails the run; --fail-under error_rate=<max> allows some");
    if (plan.filtered !== null) {
        log(plan.filtered.note);
        if (plan.filtered.rows.length === 0) {
            log("nothing to run");
            return evalExitCodes.met;
        }
        rows = plan.filtered.rows;
    }

    let store: SqliteResultStore<StoredCell, ExperimentRunSpec>;
    try {
        store = new SqliteResultStore<StoredCell, ExperimentRunSpec>(args.db);
    } catch (error) {
        throw new ExperimentInputError([{path: "--db", message: `${args.db} cannot be opened as a results database: ${error instanceof Error ? error.message : String(error)}`}]);
    }
    let cache: SqliteResponseCache | null = null;
    try {
        try {
            cache = await openCliResponseCache(args, log);
        } catch (error) {
            throw new ExperimentInputError([{path: "--cache", message: `${args.cache} cannot be opened as a response cache: ${error instanceof Error ? error.message : String(error)}`}]);
        }
        const jobId = experimentJobId(spec, dataset);
        const {cells: storedCells, errored, latencies} = await storedCounts(store, jobId, new Set(rows));
        const erroredCells = `${errored} stored cell${errored === 1 ? "" : "s"} with an error`;
        if (args.retryErrors) log(errored === 0 ? "--retry-errors: no stored cell has an error, so none is sent again" : `--retry-errors: the ${erroredCells} will be sent again`);
        else if (errored > 0) log(`the ${erroredCells} ${errored === 1 ? "is" : "are"} kept; --retry-errors sends ${errored === 1 ? "it" : "them"} again`);
        const stored = storedCells - (args.retryErrors ? errored : 0);
        // A resumed run estimates its time from the latency its first cells had, not the assumed pace.
        const pace = latencies.length === 0 ? undefined : latencies.reduce((sum, seconds) => sum + seconds, 0) / latencies.length;
        const estimate = estimateExperiment(spec, dataset, rows, {concurrency: args.concurrency, ...(pace === undefined ? {} : {secondsPerRequest: pace})});
        const left = Math.max(0, estimate.cells - stored);
        log(`${rows.length} rows x ${spec.variants.length} variants${repeatsOf(spec) > 1 ? ` x ${repeatsOf(spec)} repeats` : ""}: ${estimate.requests.toLocaleString("en-US")} requests, about ` +
            `${estimate.promptTokens.toLocaleString("en-US")} prompt tokens and at most ${estimate.outputTokens.toLocaleString("en-US")} output tokens, ` +
            `roughly ${formatDuration((estimate.seconds ?? 0) * left / Math.max(1, estimate.cells))}` +
            `${stored > 0 ? ` for the ${left} cells left (${stored} already stored in ${args.db} are not sent again)` : ""}`);
        if (comparesVariants(spec)) {
            const measured = plan.baseline === null ? null : measuredDiscordance(summarizeExperiment(plan.baseline.run.spec, plan.baseline.run.dataset, plan.baseline.run.cells, {rowIndexes: plan.baseline.run.rowIndexes}));
            log(`power: ${describeDetectable(rows.length, measured ?? assumedDiscordance, measured === null ? "assumed" : "measured by the baseline run")}`);
        }
        const display = progressDisplay("cells");
        let fromCache = 0;
        const runner = new ExperimentRunner({
            spec, dataset, rows, jobId, store,
            clientFor: clientFor(args.timeoutMs),
            ...(cache === null ? {} : {cache}),
            onResult: (cell) => {
                if (cell.cached) fromCache++;
            },
            concurrency: args.concurrency,
            timeoutMs: args.timeoutMs,
            rescoreErrors: args.retryErrors,
            onProgress: display.update
        });
        const final = await runInConsole(runner, display);
        if (final.status === "cancelled") {
            log(`interrupted: ${final.done} of ${final.totalRows} cells are stored in ${args.db}; run the same command again to finish`);
            return evalExitCodes.interrupted;
        }
        if (final.status === "failed") {
            log(`failed: ${final.fatalError}`);
            log(`${final.done} of ${final.totalRows} cells are stored in ${args.db}; fix the cause and run the same command again`);
            return evalExitCodes.runFailed;
        }
        const cells = await readStoredCells(store, jobId);
        const summary = summarizeExperiment(spec, dataset, cells, {rowIndexes: rows});
        console.log(formatSummary(spec, summary));
        if (args.out !== undefined) await writeFileAtomic(args.out, renderExperimentReport(spec, summary, {dataset}));
        if (args.csv !== undefined) await writeFileAtomic(args.csv, exportTableCsv(experimentExportTable(spec, dataset, cells, rows)));
        // The results keep the file's own connections (the app's local engine stays `local`), so the app can run them again.
        if (args.results !== undefined) await writeFileAtomic(args.results, serializeExperimentResults({experiment: {...read.spec, dataset}, rowIndexes: rows, cells}));
        if (args.fitGraderCalibration !== undefined)
            await writeFileAtomic(args.fitGraderCalibration, serializeExperimentSpec(fitGraderCalibrations(read.spec, spec, dataset, cells, graders, log)));
        for (const written of [args.out, args.csv, args.results, args.fitGraderCalibration]) if (written !== undefined) log(`wrote ${written}`);
        const storedBefore = final.alreadyDone > 0 ? `, ${final.alreadyDone} stored by an earlier run` : "";
        log(`${final.totalRows} cells (${final.scoredThisRun - fromCache} sent, ${fromCache} from the cache${storedBefore}, ${final.failed} with errors) in ${formatDuration(final.elapsedMs / 1000)}; results in ${args.db}`);
        const gates = checkGates(plan, summary, {spec, dataset, rowIndexes: rows, cells});
        if (gates.baseline !== null) log(`--baseline ${plan.baseline!.file}: ${describeRowMatching(gates.baseline)}`);
        for (const result of gates.results) log(result.message);
        const exitCode = gates.results.every((result) => result.ok) ? evalExitCodes.met : evalExitCodes.missed;
        const report = evalReport(spec, summary, gates.results, gates.required, gates.baseline === null ? null : {...gates.baseline, file: plan.baseline!.file}, exitCode);
        if (args.json !== undefined) await writeFileAtomic(args.json, evalReportJson(report));
        if (args.junit !== undefined) await writeFileAtomic(args.junit, evalJunit(report));
        if (args.summaryMd !== undefined) await writeFileAtomic(args.summaryMd, evalMarkdown(report));
        for (const written of [args.json, args.junit, args.summaryMd]) if (written !== undefined) log(`wrote ${written}`);
        return exitCode;
    } finally {
        cache?.close();
        await store.close();
    }
}

/**
 * The cells of the sample's rows an earlier run stored, those with an error (what --retry-errors sends again), and
 * the latency in seconds of the first 200 that succeeded (a resumed run's pace), read page by page.
 */
async function storedCounts(store: SqliteResultStore<StoredCell, ExperimentRunSpec>, jobId: string, inSample: ReadonlySet<number>): Promise<{cells: number, errored: number, latencies: number[]}> {
    const counts = {cells: 0, errored: 0, latencies: [] as number[]};
    if ((await store.getJob(jobId)) === null) return counts;
    for (let from = 0; ;) {
        const page = await store.readResults(jobId, from, 1000);
        for (const stored of page) {
            if (!inSample.has(stored.cell.rowIndex)) continue;
            counts.cells++;
            if (!stored.ok) counts.errored++;
            else if (counts.latencies.length < 200) counts.latencies.push(stored.cell.latencyMs / 1000);
        }
        if (page.length < 1000) return counts;
        from = page[page.length - 1].rowIndex + 1;
    }
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

