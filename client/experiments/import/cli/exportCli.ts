// `svc-studio export promptfoo <experiment file> [--out promptfooconfig.yaml] [--local <url>]` (Node only): an
// experiment file as a promptfoo config that promptfoo runs against the same servers. What promptfoo cannot say is
// listed first; a variant it cannot run (a question set, the app's connection without --local) stops the export
// with the field named, and nothing is written.
import path from "node:path";
import {writeFileAtomic} from "../../../../base/node/writeFileAtomic.ts";
import {parseCliArgs, UsageError} from "../../../scoring/cli/scoreArgs.ts";
import {ExperimentFileError} from "../../experimentFile.ts";
import {outputPathProblem, readExperimentFile} from "../../node/experimentFiles.ts";
import {ExperimentInputError} from "../../dataset.ts";
import type {ConnectionRef, ExperimentSpec} from "../../types.ts";
import {ImportError} from "../importProblems.ts";
import {exportPromptfooConfig} from "../promptfoo/exportPromptfoo.ts";
import {printReport} from "./importCli.ts";

export const exportUsage = `usage: svc-studio export promptfoo <experiment.svc-experiment.json> [options]
  writes the experiment as a promptfoo config: each variant a provider on its server running its prompt,
  each sampled row a test, each check an assertion (a grader as an llm-rubric with its question)
  --out <file>       the config (default: promptfooconfig.yaml beside the experiment file)
  --local <url>      the server that stands for the app's local engine, for variants whose connection is
                     {"profile": "local"} (e.g. http://127.0.0.1:8080)
  exit codes: 0 written, 2 bad input or usage (nothing written), 70 internal error (a bug)`;

export async function runExport(argv: string[]): Promise<number> {
    try {
        if (argv.includes("--help") || argv.includes("-h")) {
            console.log(exportUsage);
            return 0;
        }
        const {values, positionals} = parseCliArgs(argv, {out: {type: "string"}, local: {type: "string"}});
        const [format, file, ...extra] = positionals;
        if (format !== "promptfoo") throw new UsageError(format === undefined ? "name the format to export: promptfoo" : `unknown format ${JSON.stringify(format)} (known: promptfoo)`);
        if (file === undefined) throw new UsageError("name the experiment file to export");
        if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
        if (values.local !== undefined && !/^https?:\/\/[^\s/]+/.test(values.local)) throw new UsageError(`--local must be an http(s) URL such as http://127.0.0.1:8080, got ${JSON.stringify(values.local)}`);
        const out = values.out ?? path.join(path.dirname(file), "promptfooconfig.yaml");
        const problem = await outputPathProblem(out, {createsFolders: true});
        if (problem !== null) throw new ImportError({file: out, field: "--out"}, problem);
        const read = await readExperimentFile(file);
        const spec = values.local === undefined ? read.spec : onLocal(read.spec, values.local);
        const {yaml, report} = exportPromptfooConfig(spec, read.dataset, file);
        printReport(report, log, "exported");
        await writeFileAtomic(out, yaml);
        log(`wrote ${out}: ${spec.variants.length} provider${spec.variants.length === 1 ? "" : "s"}, the tests of ${read.dataset.rows.length} rows`);
        return 0;
    } catch (error) {
        if (error instanceof ImportError || error instanceof UsageError || error instanceof ExperimentFileError) {
            log(error.message);
            if (error instanceof UsageError) process.stderr.write(`${exportUsage}\n`);
            return 2;
        }
        if (error instanceof ExperimentInputError) {
            for (const found of error.problems) log(`${found.path}: ${found.message}`);
            return 2;
        }
        log(`internal error: ${error instanceof Error ? error.message : String(error)}`);
        if (error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
        return 70;
    }
}

function onLocal(spec: ExperimentSpec, baseUrl: string): ExperimentSpec {
    const local = (connection: ConnectionRef): ConnectionRef => "profile" in connection && connection.profile === "local" ? {baseUrl} : connection;
    return {...spec, variants: spec.variants.map((variant) => ({...variant, connection: local(variant.connection)}))};
}

function log(line: string) {
    process.stderr.write(`export: ${line}\n`);
}
