// `svc-studio import <promptfoo | openai-eval | openai-prompt> <file> [--out <experiment file>]` (Node only): reads a suite kept in another tool and
// writes an experiment file (its dataset inline) that `svc-studio eval` runs and the app opens. Every field the
// import leaves out is listed first; any input it cannot read (a YAML or JSONL line that does not parse, a file
// that is missing, nothing importable) is one message naming the file, line and field, and nothing is written.
import path from "node:path";
import {writeFileAtomic} from "../../../../base/node/writeFileAtomic.ts";
import {parseCliArgs, UsageError} from "../../../scoring/cli/scoreArgs.ts";
import {serializeExperimentSpec} from "../../experimentFile.ts";
import {serializeExperimentResults, type ExperimentResults} from "../../resultsFile.ts";
import {outputPathProblem} from "../../node/experimentFiles.ts";
import {ImportError, type ImportReport} from "../importProblems.ts";
import {nodeSourceFiles} from "../node/nodeSourceFiles.ts";
import {importPromptfooConfig} from "../promptfoo/importPromptfoo.ts";
import {importOpenAiEval} from "../openai/importOpenAiEval.ts";
import {importPromptExperiment} from "../node/promptExperimentFile.ts";
import type {ExperimentSpec} from "../../types.ts";

export const importUsage = `usage: svc-studio import promptfoo <promptfooconfig.yaml> [options]
       svc-studio import openai-eval <eval.json> --run <run.json> [--data <items.jsonl>] [options]
       svc-studio import openai-prompt <prompt.json> --dataset <rows.csv> [options]
  reads a suite kept elsewhere and writes an experiment file with its dataset inline, which svc-studio eval
  runs; every field not imported is listed first
  promptfoo: prompts, OpenAI-compatible providers, tests and assertions of a promptfoo config
  openai-eval: an OpenAI eval object (its testing_criteria become checks) with one or more of its runs
  (each run's prompt template, model and sampling parameters a variant)
  openai-prompt: the versions of an OpenAI prompt object (pmpt_...; one version, a list, or the API's list),
  a variant each, compared at once on a dataset with a column per {{variable}}
  --run <run.json>    openai-eval: a run of the eval as the API returns it; repeat for several variants
  --data <file>       openai-eval: the data source JSONL, one {"item": {...}} per line (default: the first
                      run's inline file_content)
  --output-items <file>  openai-eval: the first run's output items (the API's list): written beside the
                      experiment as <name>.previous.svc-results.json, the results of that run's variant, for
                      svc-studio eval --baseline
  --dataset <file>    openai-prompt: the rows (CSV or XLSX) the versions are compared on, written inline
  --out <file>        the experiment file (default: <input name>.svc-experiment.json beside the input)
  --base-url <url>    send every variant to this server (e.g. http://127.0.0.1:8080) instead of the
                      connections the import gives them
  exit codes: 0 written, 2 bad input or usage (nothing written), 70 internal error (a bug)`;

export const importExitCodes = {written: 0, badInput: 2, internalError: 70} as const;

export async function runImport(argv: string[]): Promise<number> {
    try {
        if (argv.includes("--help") || argv.includes("-h")) {
            console.log(importUsage);
            return 0;
        }
        return await importCommand(argv);
    } catch (error) {
        if (error instanceof ImportError || error instanceof UsageError) {
            if (error instanceof ImportError && error.report !== undefined) for (const line of error.report.lines()) log(line);
            log(error.message);
            if (error instanceof UsageError) process.stderr.write(`${importUsage}\n`);
            return importExitCodes.badInput;
        }
        log(`internal error: ${error instanceof Error ? error.message : String(error)}`);
        if (error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
        return importExitCodes.internalError;
    }
}

async function importCommand(argv: string[]): Promise<number> {
    const {values, positionals} = parseCliArgs(argv, {out: {type: "string"}, "base-url": {type: "string"}, run: {type: "string", multiple: true}, data: {type: "string"}, "output-items": {type: "string"}, dataset: {type: "string"}});
    const [format, file, ...extra] = positionals;
    if (format !== "promptfoo" && format !== "openai-eval" && format !== "openai-prompt") throw new UsageError(format === undefined ? "name the format to import: promptfoo, openai-eval or openai-prompt" : `unknown format ${JSON.stringify(format)} (known: promptfoo, openai-eval, openai-prompt)`);
    if (file === undefined) throw new UsageError(format === "promptfoo" ? "name the promptfoo config to import" : `name the ${format === "openai-eval" ? "eval" : "prompt"} (its JSON as the API returns it) to import`);
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    if (format !== "openai-eval" && (values.run !== undefined || values.data !== undefined || values["output-items"] !== undefined)) throw new UsageError("--run, --data and --output-items are for openai-eval");
    if (format !== "openai-prompt" && values.dataset !== undefined) throw new UsageError("--dataset is for openai-prompt");
    const baseUrl = values["base-url"];
    if (baseUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL such as http://127.0.0.1:8080, got ${JSON.stringify(baseUrl)}`);
    const configFile = file;
    const out = values.out ?? path.join(path.dirname(configFile), `${path.basename(configFile).replace(/\.(ya?ml|json)$/i, "")}.svc-experiment.json`);
    const previousFile = values["output-items"] === undefined ? undefined : out.replace(/(\.svc-experiment)?\.json$/i, "") + ".previous.svc-results.json";
    for (const [flag, target] of [["--out", out], ["--output-items", previousFile]] as const) {
        const problem = target === undefined ? null : await outputPathProblem(target, {createsFolders: true});
        if (problem !== null) throw new ImportError({file: target!, field: flag}, problem);
    }
    const id = path.basename(out).replace(/\.svc-experiment\.json$|\.json$/i, "") || "imported";
    const imported = format === "promptfoo" ? await importPromptfooConfig(configFile, nodeSourceFiles, {id, createdAt: Date.now()})
        : format === "openai-prompt" ? await importPromptExperiment(configFile, values.dataset, {id, createdAt: Date.now()})
        : await importOpenAiEval({evalFile: configFile, runFiles: values.run ?? [], ...(values.data === undefined ? {} : {dataFile: values.data}),
            ...(values["output-items"] === undefined ? {} : {outputItemsFile: values["output-items"]}), id, createdAt: Date.now()}, nodeSourceFiles);
    const spec = baseUrl === undefined ? imported.spec : onServer(imported.spec, baseUrl);
    printReport(imported.report);
    await writeFileAtomic(out, serializeExperimentSpec(spec));
    const dataset = spec.dataset as {rows: unknown[], columns: string[]};
    log(`wrote ${out}: ${spec.variants.length} variant${spec.variants.length === 1 ? "" : "s"}, ${dataset.rows.length} rows, ${spec.checks.length} check${spec.checks.length === 1 ? "" : "s"}`);
    const previous = (imported as {previous?: ExperimentResults}).previous;
    if (previous !== undefined && previousFile !== undefined) {
        await writeFileAtomic(previousFile, serializeExperimentResults(previous));
        log(`wrote ${previousFile}: the previous run's ${previous.cells.length} outputs as the results of ${previous.experiment.variants[0].name}; compare a new run with svc-studio eval ${out} --baseline ${previousFile}`);
    }
    return importExitCodes.written;
}

/** The report, before the file is written: every field not imported (or exported), then the notes; `say` writes a line. */
export function printReport(report: ImportReport, say: (line: string) => void = log, verb = "imported"): void {
    const lines = report.lines(verb);
    if (lines.length === 0) say(`every field was ${verb}`);
    for (const line of lines) say(line);
}

/** Every variant's connection replaced by `baseUrl` (graders ask the variant's connection). */
function onServer(spec: ExperimentSpec, baseUrl: string): ExperimentSpec {
    return {...spec, variants: spec.variants.map((variant) => ({...variant, connection: {baseUrl: baseUrl.replace(/\/+$/, "")}}))};
}

function log(line: string) {
    process.stderr.write(`import: ${line}\n`);
}
