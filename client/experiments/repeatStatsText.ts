import type {ExperimentSummary} from "./types.ts";
import {formatCount, formatMetric, formatRate, metricTitle} from "./metricDefinitions.ts";
import type {MetricKey} from "./types.ts";
import type {RepeatStats} from "./repeatStats.ts";

// What the repeats of a chat variant measured, as the app, the HTML report and the CLI write it: one table, a row
// per variant and metric (the pass rate, then each grader's score), each column with its definition for the hover
// beside it, so the three read the same.

/** Each column of the repeats table: its heading and its definition. */
export const repeatColumns = [
    {label: "Variant", definition: "The chat variant, each of whose rows was asked several times (the experiment's repeats)."},
    {label: "Metric", definition: "The pass rate (every check passed), or a grader's score: what the noise split is of."},
    {label: "pass@k", definition: "The chance that at least one of k answers to a row passes every check, averaged over rows, at k = the repeats; from each row's n answers of which c passed, 1 − C(n−c, k)/C(n, k) (Chen et al. 2021). With its 95% Wilson interval over the rows."},
    {label: "pass^k", definition: "The chance that all k answers to a row pass every check, averaged over rows, at k = the repeats; C(c, k)/C(n, k) (Yao et al. 2024, τ-bench). Low against pass@k means the variant is right only some of the time. With its 95% Wilson interval over the rows."},
    {label: "Rows by passes", definition: "How many rows passed every check in K of their K answers, in K − 1, and so on down to 0: the rows' spread."},
    {label: "Prediction noise", definition: "Within-row variance: how much a row's answers differ from one asking to the next (the mean over rows of each row's sample variance). Repeats average it away: it enters the mean's variance divided by n·K."},
    {label: "Data noise", definition: "Between-row variance: how much the rows' true values differ (the variance of the row means less the prediction noise / K, at least 0). Only more rows shrink it: it enters the mean's variance divided by n (Miller 2024, Adding Error Bars to Evals)."},
    {label: "Interval width", definition: "The mean's standard error with the repeats over what it would have been with one answer per row, √((data + prediction/K)/n) / √((data + prediction)/n): below 1 when the repeats narrowed the interval, and never below √(data/(data + prediction))."}
] as const;

function passesText(stats: RepeatStats): string {
    const {repeats, rowsByPasses} = stats;
    return rowsByPasses.map((rows, passes) => ({rows, passes})).reverse().filter(({rows}) => rows > 0)
        .map(({rows, passes}) => `${passes}/${repeats}: ${formatCount(rows)}`).join(" · ");
}

/** The table's rows, one per chat variant with repeats and noise-split metric; empty without repeats. */
export function repeatRows(summary: ExperimentSummary): string[][] {
    return summary.variants.flatMap((variant) => {
        const stats = variant.repeats;
        if (stats === undefined) return [];
        const atK = stats.passAtK.find((entry) => entry.k === stats.repeats);
        return stats.noise.map((split, index) => {
            const first = index === 0;
            return [variant.name, metricTitle(split.metric as MetricKey),
                first && atK !== undefined ? formatRate({value: atK.passAtK, ...(atK.passAtKInterval === undefined ? {} : {interval: atK.passAtKInterval})}) : "",
                first && atK !== undefined ? formatRate({value: atK.passHatK, ...(atK.passHatKInterval === undefined ? {} : {interval: atK.passHatKInterval})}) : "",
                first ? passesText(stats) : "",
                formatMetric(split.within), formatMetric(split.between), `${split.narrowing.toFixed(2)}×`];
        });
    });
}

/** What the table is, in a sentence under it. */
export function repeatNote(summary: ExperimentSummary): string {
    const repeats = summary.repeats ?? 1;
    return `Each row was asked ${repeats} times: metrics count answers (${formatCount(summary.rows)} rows × ${repeats}), and intervals and tests treat a row's answers as one cluster, since they are not independent.`;
}
