import {integerFlag, parseCliArgs, UsageError} from "../../scoring/cli/scoreArgs.ts";
import {defaultResultsDatabase} from "./evalRuns.ts";

export {UsageError};

export const evalUsage = `usage: svc-studio eval <experiment.svc-experiment.json> [options]
  runs an experiment file (as the app exports it) against the servers its variants name and prints the metrics
  exit codes: 0 every gate met, 1 a gate missed, 2 bad input or usage (nothing sent), 3 the run failed
  (run again to resume), 70 internal error (a bug), 130 interrupted
  --out <report.html>        write the HTML report
  --csv <rows.csv>           write every row with each variant's reply, answers, checks, usage and latency
  --results <file.json>      write the experiment, its dataset and every cell as one results file, which the
                             app opens (Experiments → History → Open a file) as if it had run it
  --fit-grader-calibration <file.json>
                             after the run, calibrate each grader that has a humanLabelColumn on the replies
                             people labelled (Platt scaling of its score, its ECE measured out of fold) and
                             write the experiment file, as read, with each calibration on its grader
  --local <url>              the server that stands for the app's local engine: variants and graders whose
                             connection is {"profile": "local"} (as the app exports them) are sent there,
                             e.g. a running svc-studio serve at http://127.0.0.1:8080
  --fail-under <gate>        a gate, repeatable: [variant:]metric[@question]=value, e.g. accuracy=0.8,
                             B:pass_rate=0.9, pass:grounded=0.7, accuracy@sentiment=0.75, error_rate=0.05
                             question-set variants, per question: accuracy, macro_f1, brier, log_loss, ece,
                             auc (yes/no questions), mae (score questions); chat variants: pass_rate,
                             pass:<check> (share of rows passing it), score:<grader> (mean P(yes));
                             any variant: error_rate (errored cells / cells)
                             brier, log_loss, ece, mae and error_rate are ceilings; without a variant a gate
                             applies to every variant that has its metric; with any gate, an errored cell
                             fails the run unless an error_rate gate allows it
  --fail-under-bound <gate>  a gate on a rate's 95% Wilson interval, repeatable, written as for --fail-under:
                             accuracy, pass_rate and pass:<check> must have a lower bound of at least the
                             value, error_rate an upper bound of at most it, e.g. B:pass_rate=0.85
  --baseline <file.json>     an approved earlier run to compare this one with: a results file (written by
                             --results), or an experiment file, whose run (of exactly that file's content)
                             is read from the results database beside it or else from this run's --db
  --no-regression[=<metric>,...]
                             with --baseline: fails only when a metric is significantly worse than the
                             baseline's on the rows both have (one-sided McNemar exact test, Holm's correction
                             over every metric tested); bare, each variant's primary metric; metrics are
                             [variant:]metric[@question] of accuracy, pass_rate, pass:<check>; repeatable
  --row-key <column>         the column naming each row, to match rows across runs (default: the row's input
                             columns); a row only one run has is reported
  --required <column>        rows whose cell there is set (not blank, false, no or 0) must pass on every
                             variant, whatever the average
  --row-passes <m>           with repeats (the file's "repeats": K): every row must pass every check in at
                             least m of its K answers, on every chat variant, e.g. 2 (of 3)
  --filter-failing <file.json>
                             run only the rows that failed on some variant in that earlier run (a results
                             file, or an experiment file's stored run, as for --baseline)
  --junit <file.xml>         write a JUnit report: one test case per gate and per required row and variant
  --json <file.json>         write the summary, every gate and the baseline comparison as JSON
                             (format "svc-eval-report", version 1)
  --summary-md <file.md>     write a short markdown summary for a pull request: verdicts, gates, worst
                             regressions
  --db <file>                results database (default: beside the experiment file, <name>.results.sqlite);
                             a run again with the same database resumes and sends no finished cell twice
  --retry-errors             send again the cells an earlier run stored with an error
  --cache <file>             response cache (default: responses.sqlite in the user's cache folder,
                             $XDG_CACHE_HOME/svc-studio or ~/.cache/svc-studio): a cell whose request was
                             answered before (same endpoint, server, model, body and seed) is answered from it
                             and not sent; only successful answers are kept, at most 256 MiB, least recently
                             used dropped first
  --no-cache                 send every cell's request, and keep no answer
  --concurrency <n>          requests in flight at once (default: the file's concurrency, else 4)
  --timeout <seconds>        per-request timeout (default 120)`;

export type EvalArgs = {
    file: string,
    out: string | undefined,
    csv: string | undefined,
    results: string | undefined,
    fitGraderCalibration: string | undefined,
    local: string | undefined,
    failUnder: string[],
    failUnderBound: string[],
    baseline: string | undefined,
    /** Each --no-regression's metrics ("" for a bare one: the primary metrics). */
    noRegression: string[],
    rowKey: string | undefined,
    required: string | undefined,
    /** --row-passes: the answers of K each row must pass, with repeats. */
    rowPasses: number | undefined,
    filterFailing: string | undefined,
    junit: string | undefined,
    json: string | undefined,
    summaryMd: string | undefined,
    db: string,
    retryErrors: boolean,
    /** --cache (undefined: the default file) and --no-cache. */
    cache: string | undefined,
    noCache: boolean,
    concurrency: number | undefined,
    timeoutMs: number
};

export function parseEvalArgs(argv: string[]): EvalArgs {
    // A bare --no-regression (the primary metrics) reads as --no-regression= with no metric named.
    const {values, positionals} = parseCliArgs(argv.map((arg) => arg === "--no-regression" ? "--no-regression=" : arg), {
        "out": {type: "string"},
        "csv": {type: "string"},
        "results": {type: "string"},
        "fit-grader-calibration": {type: "string"},
        "local": {type: "string"},
        "fail-under": {type: "string", multiple: true},
        "fail-under-bound": {type: "string", multiple: true},
        "baseline": {type: "string"},
        "no-regression": {type: "string", multiple: true},
        "row-key": {type: "string"},
        "required": {type: "string"},
        "row-passes": {type: "string"},
        "filter-failing": {type: "string"},
        "junit": {type: "string"},
        "json": {type: "string"},
        "summary-md": {type: "string"},
        "db": {type: "string"},
        "retry-errors": {type: "boolean", default: false},
        "cache": {type: "string"},
        "no-cache": {type: "boolean", default: false},
        "concurrency": {type: "string"},
        "timeout": {type: "string", default: "120"}
    });
    const named = argv.findIndex((arg, index) => arg === "--no-regression" && index + 1 < argv.length && !argv[index + 1].startsWith("-") && !/\.json$/i.test(argv[index + 1]));
    if (positionals.length > 1 && named >= 0) throw new UsageError(`--no-regression takes its metrics after "=": --no-regression=${argv[named + 1]}`);
    if (positionals.length !== 1) throw new UsageError(`expected one experiment file, got ${positionals.length}`);
    if (values.cache !== undefined && values["no-cache"]) throw new UsageError("--cache and --no-cache exclude each other");
    if (values.out !== undefined && !/\.html?$/i.test(values.out)) throw new UsageError(`--out must end in .html, got ${JSON.stringify(values.out)}`);
    if (values.csv !== undefined && !/\.csv$/i.test(values.csv)) throw new UsageError(`--csv must end in .csv, got ${JSON.stringify(values.csv)}`);
    if (values.results !== undefined && !/\.json$/i.test(values.results)) throw new UsageError(`--results must end in .json, got ${JSON.stringify(values.results)}`);
    if (values.local !== undefined) {
        try {
            new URL(values.local);
        } catch {
            throw new UsageError(`--local must be a URL such as http://127.0.0.1:8080, got ${JSON.stringify(values.local)}`);
        }
    }
    for (const [flag, value, extension] of [["--junit", values.junit, ".xml"], ["--json", values.json, ".json"], ["--summary-md", values["summary-md"], ".md"],
        ["--baseline", values.baseline, ".json"], ["--filter-failing", values["filter-failing"], ".json"], ["--fit-grader-calibration", values["fit-grader-calibration"], ".json"]] as const)
        if (value !== undefined && !value.toLowerCase().endsWith(extension)) throw new UsageError(`${flag} must end in ${extension}, got ${JSON.stringify(value)}`);
    if (values["no-regression"] !== undefined && values.baseline === undefined) throw new UsageError("--no-regression compares with a baseline: give --baseline <results.json>");
    const file = positionals[0];
    return {
        file,
        out: values.out,
        csv: values.csv,
        results: values.results,
        fitGraderCalibration: values["fit-grader-calibration"],
        local: values.local,
        failUnder: values["fail-under"] ?? [],
        failUnderBound: values["fail-under-bound"] ?? [],
        baseline: values.baseline,
        noRegression: (values["no-regression"] ?? []).flatMap((value) => value === "" ? [""] : value.split(",").map((name) => name.trim()).filter(Boolean)),
        rowKey: values["row-key"],
        required: values.required,
        rowPasses: values["row-passes"] === undefined ? undefined : integerFlag("row-passes", values["row-passes"], 1, 1000),
        filterFailing: values["filter-failing"],
        junit: values.junit,
        json: values.json,
        summaryMd: values["summary-md"],
        db: values.db ?? defaultResultsDatabase(file),
        retryErrors: values["retry-errors"],
        cache: values.cache,
        noCache: values["no-cache"],
        concurrency: values.concurrency === undefined ? undefined : integerFlag("concurrency", values.concurrency, 1, 256),
        timeoutMs: integerFlag("timeout", values.timeout, 1, 3600) * 1000
    };
}
