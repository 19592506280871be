import type {QuestionInfo, QuestionSet, StoredResponse} from "../scoring/questions.ts";
import type {CellValue, InputMapping, SheetRow} from "../scoring/types.ts";
import type {ReliabilityBin} from "../scoring/evaluation.ts";
import type {QuestionCalibration} from "../scoring/calibration.ts";
import type {RepeatStats} from "./repeatStats.ts";

// Shapes of an experiment: a dataset (or a sample of it) × two or more variants, each variant a saved version of a
// prompt or question set sent to a connection and model with parameters. These are the file format that the app
// exports and `svc-studio eval` reads (format "svc-experiment", version 1), and the results both of them store.

/** A column's type as read from the file: CSV numbers are typed when every non-empty cell reads as one. */
export type ColumnType = "string" | "number" | "boolean";

/**
 * A dataset: named, typed columns and its rows. `labelColumns` hold the expected values (never sent to a model
 * unless a variant's input names them); `inputColumns` are the columns the model sees when a variant sends the
 * row as JSON (default: every column but the labels).
 */
export type Dataset = {
    id: string,
    name: string,
    columns: string[],
    columnTypes: ColumnType[],
    rows: SheetRow[],
    labelColumns: string[],
    inputColumns: string[],
    createdAt: number,
    updatedAt: number
};

/** Which rows of the dataset an experiment runs on. Indexes are 0-based positions in `Dataset.rows`. */
export type Sample =
    | {kind: "all"}
    | {kind: "first", n: number}
    | {kind: "random", n: number, seed: number}
    | {kind: "filter", column: string, op: "equals" | "not_equals" | "contains", value: string};

/** A chat or Responses prompt as its playground sends it; `{{column}}` anywhere in its strings takes the row's cell. */
export type ChatPrompt = {
    kind: "chat",
    endpoint: "chat" | "responses",
    /** The request body without `model` and `stream`: messages / input, instructions, tools, tool_choice,
     * response_format, and every parameter (temperature, max_tokens, seed, ...), in the endpoint's wire shape. */
    body: Record<string, unknown>
};

/** A question set asked of each row: the row goes in through `input` (a template or the row's JSON). */
export type DecisionPrompt = {
    kind: "decision",
    questionSet: QuestionSet,
    input: InputMapping
};

export type PromptVersionBody = ChatPrompt | DecisionPrompt;

/** One saved version of a prompt or question set: versions of one item share `itemId` and count up from 1. */
export type PromptVersion = {
    itemId: string,
    itemName: string,
    version: number,
    note: string,
    createdAt: number,
    prompt: PromptVersionBody
};

/**
 * Where a variant's requests go. In a file: a base URL and, optionally, the environment variable holding its key
 * (never the key itself). In the app: `local` (its engine) or a saved remote profile's id, resolved by the gateway.
 */
export type ConnectionRef = {baseUrl: string, apiKeyEnv?: string} | {profile: string};

/** Prices per million tokens, in the workspace's currency units, for the cost column. */
export type Prices = {inputPerMillion: number, outputPerMillion: number};

/** A variant: a version, sent to a connection and model, with parameters that override the version's own. */
export type Variant = {
    /** Short name shown as the matrix's column ("A", "v2 on 4B", ...); unique in an experiment. */
    name: string,
    version: PromptVersion,
    connection: ConnectionRef,
    /** Model id for chat variants (the decision endpoints have one model). */
    model?: string,
    params?: Record<string, unknown>,
    /** Prices for the cost column; without them the local engine's workspace prices, else no cost is shown. */
    prices?: Prices
};

/**
 * Where a check applies and which way it reads. `when` names a column: on a row whose cell there is blank the check
 * is not run and passes (a suite whose tests assert different things keeps each assertion's values in a column of
 * its own). `negate` passes exactly when the check would fail (not for graders, whose question can say "not").
 */
export type CheckScope = {when?: string, negate?: boolean};

/** A check of a chat variant's reply. `column` names the dataset column holding the expected value. */
export type Check = CheckScope & (
    | {kind: "equals", column: string, caseSensitive?: boolean}
    | {kind: "contains", column: string, caseSensitive?: boolean}
    | {kind: "starts_with", column: string, caseSensitive?: boolean}
    /** The row's cell is a JSON array of strings (or one string): the reply contains any / all of them. */
    | {kind: "contains_any", column: string, caseSensitive?: boolean}
    | {kind: "contains_all", column: string, caseSensitive?: boolean}
    | {kind: "regex", pattern: string, flags?: string}
    | {kind: "is_json"}
    /** The reply holds a JSON object or array somewhere (prose or a code fence around it allowed). */
    | {kind: "contains_json"}
    | {kind: "json_schema", schema: Record<string, unknown>}
    /** Every tool call of the reply names a tool the request offered, with arguments its parameters schema accepts. */
    | {kind: "tool_calls"}
    /**
     * A decision question graded on the reply: `template` renders the decision's input with `{{reply}}` and any
     * `{{column}}`; the row's grade is P(yes) (graderQuestions.ts: or of the passing labels, or the scaled expected
     * score). `threshold` (default 0.5) decides pass / fail.
     */
    | {kind: "grader", name: string, question: string, template: string, connection?: ConnectionRef, threshold?: number,
        /** A choice question over `labels` instead of yes/no: the grade is the probability of the `passing` labels. */
        labels?: string[], passing?: string[],
        /** A score question over these numeric levels (lowest first): the grade is the expected level, scaled to 0..1 over their range. */
        levels?: number[],
        /**
         * A dataset column with a person's verdict on the same property (yes/no, true/false, 1/0, pass/fail; for a
         * choice grader one of `labels`; for a score grader a level): on the rows that have one, the summary measures
         * the grader against it and corrects its pass rate (graderAgreement.ts). Keep it a label column, unsent.
         */
        humanLabelColumn?: string,
        /**
         * Platt scaling of the grader's score fitted on rows a person labelled (graderCalibration.ts, the question
         * sets' calibration): applied to the score before the threshold.
         */
        calibration?: QuestionCalibration}
    /**
     * Checks weighed together: the row's score is the weighted mean of the scores of the parts that apply to it
     * (`when`), passing at `threshold`; a row none applies to passes.
     */
    | {kind: "weighted", name: string, threshold: number, parts: Array<{weight: number, check: Check}>});

/** The experiment file (`*.svc-experiment.json`), as the app exports it and `svc-studio eval` runs it. */
export type ExperimentSpec = {
    format: "svc-experiment",
    version: 1,
    id: string,
    name: string,
    /** The dataset inline, or a CSV/XLSX file (relative to the experiment file) with its label and input columns. */
    dataset: Dataset | {file: string, sheet?: string, labelColumns: string[], inputColumns?: string[]},
    sample: Sample,
    variants: Variant[],
    /** Chat variants: checks on every row. Decision variants are scored against the label columns. */
    checks: Check[],
    /** Seed of the bootstrap and of random samples. */
    seed: number,
    /**
     * A dataset column whose rows belong together (a passage, a conversation, a user): intervals then resample its
     * values, not rows, and tests use the clustered variance (clusters.ts). A blank cell is a cluster of its own row.
     */
    cluster?: string,
    /**
     * Chat variants: how many times each row is asked (default 1). Each repeat is a cell of its own, with its own seed
     * (chat: the body's `seed`, else the experiment's, plus the repeat's number) and its own key in the response cache;
     * the summary treats a row's repeats as one cluster (repeats.ts). Refused for decision variants, whose answers are
     * read from logits and do not vary.
     */
    repeats?: number,
    /** Requests in flight at once across variants; default 4. */
    concurrency?: number,
    createdAt: number
};

/** A check's outcome on one reply: `score` 0..1 (grader: P(yes)), `pass` at its threshold. */
export type CheckResult = {name: string, pass: boolean, score: number, detail?: string,
    /** A calibrated grader's score before its calibration (`score` is after). */
    rawScore?: number};

export type CellUsage = {promptTokens: number, completionTokens: number, totalTokens: number};

/** The outcome of one (row, variant) cell, stored once; a finished cell is never sent again. */
export type CellResult = {
    rowIndex: number,
    variant: number,
    /** Which asking of the row this is when the experiment repeats rows (0-based; absent: 0). */
    repeat?: number,
    ok: boolean,
    /** The request body exactly as sent (the row's values filled in). */
    request: Record<string, unknown>,
    /** Decision variants: the answers as stored by scoring; chat variants: the whole completion / response. */
    response?: StoredResponse | Record<string, unknown>,
    /** Chat variants: the reply's text. */
    reply?: string,
    checks?: CheckResult[],
    error?: {status: number | null, code: string, message: string},
    usage?: CellUsage,
    /** The request's latency; for a cell from the response cache, the latency its answer first had. */
    latencyMs: number,
    /** HTTP attempts, retries included; 0 for a cell from the response cache. */
    attempts: number,
    /** Every call of the cell (its request, any grader's) was answered from the response cache: nothing was sent. */
    cached?: true,
    completedAt: number
};

/** A labelled value per row and label column, as the metrics read it. */
export type LabelRow = Record<string, CellValue>;

/**
 * Metric keys. Decision variants, per question: accuracy, macro_f1, brier, log_loss, ece, auc (yes/no questions),
 * mae (score questions), each with and without the question set's saved calibration. Chat variants: pass_rate
 * (share of rows that passed every check), per check `pass:<name>` (share of rows whose reply passed it; an
 * errored row counts as failed in both) and, per grader check, `score:<name>` (mean P(yes) over graded replies).
 */
export type MetricKey = "accuracy" | "macro_f1" | "brier" | "log_loss" | "ece" | "auc" | "mae" | "pass_rate" | `pass:${string}` | `score:${string}`;

/** A decision question's kind, which some definitions depend on (the ECE of a yes/no question is on P(yes)). */
export type QuestionKind = QuestionInfo["kind"];

/** One number of the matrix: a metric of one variant on one question (decision) or over the checks (chat). */
export type MetricValue = {
    metric: MetricKey,
    /** The question's name for decision metrics; absent for chat metrics. */
    question?: string,
    /** The question's kind for decision metrics, for its definition; absent for chat metrics. */
    kind?: QuestionKind,
    calibrated: boolean,
    /** Null when undefined on the data (an AUC without both classes). */
    value: number | null,
    /**
     * Rows it was computed on: decision metrics, the labelled rows with an answer (an errored row has no
     * probabilities and is left out); pass / fail chat metrics, every row with a result, errored ones failing;
     * grader scores, the graded replies.
     */
    n: number,
    /**
     * Pass / fail metrics (accuracy, pass_rate, `pass:<name>`), a rate shown alone: its 95% Wilson score interval
     * over the same n rows (stats.ts wilsonInterval), computed here once and written by formatRate everywhere.
     */
    interval?: {low: number, high: number},
    /**
     * With a cluster column, a rate's design effect: its clustered variance over the naive one (clusters.ts); its
     * interval is then the Wilson interval on n / design effect rows (at least 1, so never narrower).
     */
    designEffect?: number,
    /** ECE only: the reliability bins behind it, for the reliability chart. */
    reliability?: ReliabilityBin[]
};

export type VariantSummary = {
    variant: number,
    name: string,
    /** Cells with a result / cells in the experiment for this variant (done < total: the run is incomplete). */
    done: number,
    total: number,
    /** Cells that ended in an error (counted as failed rows in pass rates, left out of decision metrics). */
    errors: number,
    metrics: MetricValue[],
    usage: CellUsage,
    /** Null when no prices apply. */
    cost: number | null,
    latencyP50Ms: number | null,
    latencyP95Ms: number | null,
    /** Chat variants whose graders name a `humanLabelColumn` with labelled rows: each grader against the humans. */
    graders?: GraderAgreement[],
    /** Chat variants of an experiment with repeats: pass@k, pass^k and the noise split (repeatStats.ts). */
    repeats?: RepeatStats
};

/** A value measured on `n` rows; null when those rows do not define it. */
export type Measured = {value: number | null, n: number};

/**
 * A grader measured against human labels on the rows that carry one (graderAgreement.ts): the human label is the
 * truth, the grader's pass the test. `observed` is the grader's pass share over every graded reply; `corrected` the
 * Rogan–Gladen estimate of the share a person would pass, with an interval that includes the error in the
 * sensitivity and specificity (null when the grader does no better than chance on the labelled rows).
 */
export type GraderAgreement = {
    check: string,
    column: string,
    /** Graded replies with a readable human label. */
    labelled: number,
    sensitivity: Measured & {interval?: {low: number, high: number}},
    specificity: Measured & {interval?: {low: number, high: number}},
    /** Expected calibration error of the grader's score as P(a person says it passes). */
    ece: Measured,
    kappa: Measured,
    observed: Measured & {interval?: {low: number, high: number}},
    corrected: {value: number, low: number, high: number, n: number} | null,
    /**
     * A grader carrying a calibration: the ECE of its score before calibration on these labelled rows (`ece` is
     * after), and the fit's own figures (its rows, and ECE before / after, out of fold when it had rows enough).
     */
    calibration?: {uncalibratedEce: Measured, fittedOn: number, evaluatedOn: number, heldOut: boolean, folds?: number, eceBefore: number, eceAfter: number}
};

/**
 * B's metric less A's over the rows both have (for pass / fail chat metrics every row with a result, errors
 * failing), with an interval at coverage `level` and a verdict.
 *
 * Pass / fail metrics (accuracy, pass_rate, `pass:<name>`: `method` "exact") carry McNemar's exact test and the
 * conditional exact interval built from it, which excludes 0 exactly when the test's p-value is below 1 − level;
 * the other metrics (`method` "bootstrap") a paired, seeded percentile bootstrap interval.
 *
 * One metric per comparison is `primary` and decides which variant is better: the first question's uncalibrated
 * accuracy for decision variants, pass_rate for chat variants. When several comparisons have a primary, their
 * tests get Holm's correction (`holm`) and each primary interval is at the level that agrees with it. `better`:
 * for the primary, the variant the (corrected) test favours, else null; for a secondary metric, the variant on
 * whose side its whole interval lies (lower-is-better metrics taken into account), which its verdict reports as a
 * direction, never as "better".
 */
export type Difference = {
    metric: MetricKey,
    question?: string,
    /** The question's kind for decision metrics. */
    kind?: QuestionKind,
    calibrated: boolean,
    a: number,
    b: number,
    n: number,
    delta: number | null,
    low: number | null,
    high: number | null,
    /** Two-sided coverage of low–high: 0.95, or above for a primary interval under Holm's correction. */
    level: number,
    /**
     * How the interval was computed: McNemar's exact interval (stats.ts pairedExact), the paired bootstrap (over
     * clusters when there are), or, for a pass / fail metric with a cluster column, the cluster-robust Wald interval.
     */
    method: "exact" | "bootstrap" | "cluster",
    /** Pass / fail metrics with a cluster column: the clustered test (its unadjusted p-value) and its standard error. */
    clustered?: {pValue: number, standardError: number, clusters: number},
    better: number | null,
    /** The metric that decides the comparison's verdict; every other metric is secondary. */
    primary: boolean,
    /** Primary metrics when several comparisons have one: their number and the Holm-adjusted p-value. */
    holm?: {comparisons: number, pValue: number},
    /** True while a variant of the comparison has sampled rows without a result: the verdict may still change. */
    provisional: boolean,
    /**
     * With repeats, each row's K answers: `n` counts answers (n / K rows), and the interval and test are clustered
     * by row (`method` "cluster"), since a row's answers are not independent.
     */
    repeats?: number,
    /** Pass / fail metrics: McNemar's exact test on the rows only one variant got right (unadjusted p-value). */
    mcnemar?: {onlyA: number, onlyB: number, pValue: number},
    /**
     * The smallest difference this comparison had an 80% chance to find at its level (power.ts detectableDifference):
     * pass / fail metrics by Connor's formula at the observed discordance, others from the bootstrap interval; null
     * when none could be found that often on its rows; absent when there is nothing to say (no discordant row).
     */
    detectable?: number | null,
    /** A's and B's metric on the rows both answered (what `delta` subtracts). */
    valueA: number | null,
    valueB: number | null,
    /**
     * "B is better by 0.06 (0.02–0.10)", "secondary: B lower by 0.02 (0.01–0.03)", "no clear difference: 0.01
     * (-0.08 to 0.10) on 50 rows", with "provisional, on 49 of 200 rows: " in front and Holm's correction after
     * when they apply (summary.ts verdictText).
     */
    verdict: string
};

/** A row where the variants disagree or one is wrong, sorted by `size` (the largest spread of a score first). */
export type Disagreement = {
    rowIndex: number,
    /** Decision variants: the question the variants disagree on; absent for chat checks. */
    question?: string,
    size: number,
    cells: Array<{variant: number, summary: string, correct: boolean | null, score: number | null}>
};

export type ExperimentSummary = {
    rows: number,
    /** How many times each row was asked, when more than once: metrics' `n` then counts answers, rows × repeats. */
    repeats?: number,
    /** The pairs of variants compared (B against A), in order: each has at least one metric in `differences`. */
    comparisons: Array<{a: number, b: number}>,
    /** What was compared with what, in a sentence for the screen, the report and the CLI ("" with one variant). */
    comparedText: string,
    variants: VariantSummary[],
    differences: Difference[],
    disagreements: Disagreement[],
    /** Bootstrap resamples behind every interval (fewer than asked only on very large experiments). */
    resamples: number,
    /** With a cluster column: its name and how many clusters the sample's rows fall in. */
    clustering?: {column: string, clusters: number},
    /** What could not be scored and why (a question set that does not parse, answers that do not fit it). */
    warnings: string[]
};
