import {parseArgs, type ParseArgsConfig} from "node:util";
import {formatDuration} from "../../../base/common/format.ts";
import type {JobProgress} from "../types.ts";

export class UsageError extends Error {}

/** The CLIs' flags (score, eval): strict, positionals allowed, and a refusal is a usage error (usage printed, exit 2). */
export function parseCliArgs<T extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: T) {
    try {
        return parseArgs({args: argv, allowPositionals: true, strict: true, options});
    } catch (error) {
        throw new UsageError(error instanceof Error ? error.message : String(error));
    }
}

export const scoreUsage = `usage: npm run score -- <in.csv|in.xlsx> --questions <set.json> --out <out.csv|out.xlsx> [options]
  --questions <file>     question set: {format: "decisions"|"systemone", questions: [...]|{...}, x_svc?}
  --out <file>           results: the input's columns plus answer columns (.csv or .xlsx)
  --base-url <url>       server root (default http://127.0.0.1:8080)
  --api-key-env <name>   environment variable holding the API key (default SVC_API_KEY, if set)
  --concurrency <n>      requests in flight at once (default 4)
  --resume               continue the job this input, question set and mapping started before
  --retry-errors         with --resume: score again the rows stored with an error
  --sheet <name>         XLSX sheet (default the first)
  --template <text>      input built from columns, e.g. "Review: {{text}}" (default: the whole row as JSON,
                         without its label columns)
  --label-columns <a,b>  columns holding the right answers, never sent to the model (default: guessed from
                         their names: each question's name, label, gold, truth, expected)
  --input-columns <a,b>  the columns the model sees (default: every column but the label columns); a label
                         column listed here is sent on purpose
  --header / --no-header force whether the first row names the columns (default: detected)
  --db <file>            job database (default <out>.scoring.sqlite)
  --cache <file>         response cache (default: responses.sqlite in the user's cache folder,
                         $XDG_CACHE_HOME/svc-studio or ~/.cache/svc-studio): a row whose request was
                         answered before (same endpoint, server and body) is answered from it and not
                         sent; only successful answers are kept, at most 256 MiB, least recently used
                         dropped first
  --no-cache             send every row's request, and keep no answer
  --timeout <seconds>    per-request timeout (default 120)
exit codes: 0 done (row errors are in the error column), 2 usage or bad input (nothing sent), 3 the job failed
  (resume with --resume), 70 internal error (a bug), 130 interrupted`;

export type ScoreArgs = {
    input: string,
    questions: string,
    out: string,
    baseUrl: string,
    apiKeyEnv: string | undefined,
    concurrency: number,
    resume: boolean,
    retryErrors: boolean,
    sheet: string | undefined,
    template: string | undefined,
    labelColumns: string[] | undefined,
    inputColumns: string[] | undefined,
    header: boolean | "auto",
    db: string,
    /** --cache (undefined: the default file) and --no-cache. */
    cache: string | undefined,
    noCache: boolean,
    timeoutMs: number
};

export function parseScoreArgs(argv: string[]): ScoreArgs {
    const {values, positionals} = parseCliArgs(argv, {
        "questions": {type: "string"},
        "out": {type: "string"},
        "base-url": {type: "string", default: "http://127.0.0.1:8080"},
        "api-key-env": {type: "string"},
        "concurrency": {type: "string", default: "4"},
        "resume": {type: "boolean", default: false},
        "retry-errors": {type: "boolean", default: false},
        "sheet": {type: "string"},
        "template": {type: "string"},
        "label-columns": {type: "string"},
        "input-columns": {type: "string"},
        "header": {type: "boolean"},
        "no-header": {type: "boolean"},
        "db": {type: "string"},
        "cache": {type: "string"},
        "no-cache": {type: "boolean", default: false},
        "timeout": {type: "string", default: "120"}
    });
    if (positionals.length !== 1) throw new UsageError(`expected one input file, got ${positionals.length}`);
    if (values.questions === undefined) throw new UsageError("--questions <set.json> is required");
    if (values.out === undefined) throw new UsageError("--out <out.csv|out.xlsx> is required");
    if (!/\.(csv|xlsx)$/i.test(values.out)) throw new UsageError(`--out must end in .csv or .xlsx, got ${JSON.stringify(values.out)}`);
    if (values.header && values["no-header"]) throw new UsageError("--header and --no-header exclude each other");
    if (values.cache !== undefined && values["no-cache"]) throw new UsageError("--cache and --no-cache exclude each other");
    try {
        new URL(values["base-url"]);
    } catch {
        throw new UsageError(`--base-url must be a URL, got ${JSON.stringify(values["base-url"])}`);
    }
    return {
        input: positionals[0],
        questions: values.questions,
        out: values.out,
        baseUrl: values["base-url"],
        apiKeyEnv: values["api-key-env"],
        concurrency: integerFlag("concurrency", values.concurrency, 1, 256),
        resume: values.resume,
        retryErrors: values["retry-errors"],
        sheet: values.sheet,
        template: values.template,
        labelColumns: columnList(values["label-columns"]),
        inputColumns: columnList(values["input-columns"]),
        header: values.header ? true : values["no-header"] ? false : "auto",
        db: values.db ?? `${values.out}.scoring.sqlite`,
        cache: values.cache,
        noCache: values["no-cache"],
        timeoutMs: integerFlag("timeout", values.timeout, 1, 3600) * 1000
    };
}

/** A comma-separated column list (names trimmed, empty ones dropped); undefined when the flag is absent. */
function columnList(text: string | undefined): string[] | undefined {
    return text === undefined ? undefined : text.split(",").map((name) => name.trim()).filter((name) => name !== "");
}

/** An integer flag's value within [min, max], else a UsageError naming the flag. */
export function integerFlag(name: string, text: string, min: number, max: number): number {
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
    return value;
}

/** One status line: `[#####.....] 52% 520/1000 rows | 12.3 rows/s | ETA 0:39 | 2 errors | 3 retries` (or cells). */
export function formatProgress(progress: JobProgress, barWidth = 24, unit = "rows"): string {
    const parts: string[] = [];
    if (progress.totalRows !== null && progress.totalRows > 0) {
        const share = Math.min(1, progress.done / progress.totalRows);
        const filled = Math.round(share * barWidth);
        parts.push(`[${"#".repeat(filled)}${".".repeat(barWidth - filled)}] ${Math.floor(share * 100)}% ${progress.done}/${progress.totalRows} ${unit}`);
    } else parts.push(`${progress.done} ${unit}`);
    if (progress.rowsPerSecond !== null) parts.push(`${progress.rowsPerSecond.toFixed(1)} ${unit}/s`);
    // Rate-limited before its pace is known, the ETA is unknown rather than the burst's.
    if (progress.status === "running" && (progress.etaSeconds !== null || progress.rateLimited))
        parts.push(`ETA ${progress.etaSeconds === null ? "?" : formatDuration(progress.etaSeconds)}${progress.rateLimited ? " (rate-limited)" : ""}`);
    if (progress.failed > 0) parts.push(`${progress.failed} error${progress.failed === 1 ? "" : "s"}`);
    if (progress.retries > 0) parts.push(`${progress.retries} retr${progress.retries === 1 ? "y" : "ies"}`);
    if (progress.status !== "running") parts.push(progress.status);
    return parts.join(" | ");
}
