import type {BaselineComparison, RegressionTest} from "./baseline.ts";
import {formatCount, formatMetric, formatPValue} from "./metricDefinitions.ts";

// A run against a pinned baseline as people read it (the app's card and eval's console): which rows were matched,
// and a row per metric with its improved / regressed / unchanged rows and its one-sided test, each column with the
// definition its hover shows.

/** Each column of the comparison table: its heading and its definition. */
export const baselineColumns = [
    {label: "Metric", definition: "A variant of this run and one of its pass / fail metrics (accuracy, pass rate, a check's pass share), tested against the baseline's variant of the same name on the rows both runs have."},
    {label: "Baseline → this run", definition: "The metric in the baseline run and in this run, on the paired rows only (rows both runs have, each with a result for it on both sides)."},
    {label: "Improved", definition: "Paired rows right (or passed) in this run and not in the baseline."},
    {label: "Regressed", definition: "Paired rows right (or passed) in the baseline and not in this run."},
    {label: "Unchanged", definition: "Paired rows with the same outcome in both runs, right or wrong; they carry no evidence either way."},
    {label: "Verdict", definition: "Regressed: the Holm-adjusted p is at most 0.05 and more rows regressed than improved. Otherwise no significant regression: the change is within what the rows' noise gives. A metric that cannot be tested says why."},
    {label: "One-sided p", definition: "McNemar's exact test that this run is worse: of the rows that changed, the chance of at least this many regressed if a changed row were as likely to go either way, P(X ≥ regressed) for X ~ Binomial(improved + regressed, ½). Small only when rows regressed far more often than they improved."},
    {label: "Holm-adjusted", definition: "The p-value after Holm's step-down correction over every metric in this table, so the chance of calling any metric regressed when none is stays at 5% (the family-wise error rate)."}
] as const;

/** "row 7" or "rows 7, 9 and 3 more": dataset row numbers, at most 20 of them. */
function rowsText(rows: readonly number[]): string {
    return `${rows.length === 1 ? "row" : "rows"} ${rows.slice(0, 20).join(", ")}${rows.length > 20 ? ` and ${rows.length - 20} more` : ""}`;
}

/** "38 rows matched by their key; only in the baseline: rows 7, 9; only in this run: row 50". */
export function describeRowMatching(comparison: BaselineComparison): string {
    return `${formatCount(comparison.matched)} rows matched by their key` +
        (comparison.onlyInBaseline.length > 0 ? `; only in the baseline: ${rowsText(comparison.onlyInBaseline)}` : "") +
        (comparison.onlyInCurrent.length > 0 ? `; only in this run: ${rowsText(comparison.onlyInCurrent)}` : "");
}

/** A test's verdict in words. */
export function baselineVerdict(test: RegressionTest): string {
    if (test.problem !== undefined) return `not tested: ${test.problem}`;
    return test.significant ? "regressed" : "no significant regression";
}

/** One table row's cells, aligned with baselineColumns. */
export function baselineRowCells(test: RegressionTest): string[] {
    const tested = test.problem === undefined;
    return [test.title, `${formatMetric(test.baselineValue)} → ${formatMetric(test.currentValue)}`,
        ...[test.improved, test.regressed, test.unchanged].map((count) => tested ? formatCount(count) : "–"),
        baselineVerdict(test), tested ? formatPValue(test.pValue) : "–", tested ? formatPValue(test.adjusted) : "–"];
}

/** How the comparison is made, in a few sentences for the hover beside the table's title. */
export const baselineRule = "Each row of this run is paired with the baseline's row of the same key (its input columns, so a re-ordered or " +
    "relabelled dataset still pairs; rows only one run has are listed, not dropped). Each pass / fail metric of each variant is then tested " +
    "against the baseline's variant of the same name: of the paired rows whose outcome changed, are there more regressed than chance allows? " +
    "McNemar's exact test, one-sided, with Holm's correction over every metric, as svc-studio eval --baseline --no-regression tests it.";
