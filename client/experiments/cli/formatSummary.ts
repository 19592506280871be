import {formatTable} from "../../../base/common/textTable.ts";
import {describeClustering, formatCost, formatCount, formatLatency, formatRate, metricTitle, rateIntervalNote} from "../metricDefinitions.ts";
import type {ExperimentSpec, ExperimentSummary} from "../types.ts";
import {graderAgreementColumns, graderAgreementNote, graderAgreementRows} from "../graderAgreementText.ts";
import {repeatColumns, repeatNote, repeatRows} from "../repeatStatsText.ts";

/**
 * The metrics table the CLI prints: one line per metric (per question for decision variants; calibrated ones
 * marked), one column per variant, a value computed on fewer rows than the sample followed by its n, then cells
 * done, errors, tokens, cost and latency; then what was compared and each comparison's verdict, primary first.
 * Numbers are written by metricDefinitions' formatters, as the app and the report write them.
 */
export function formatSummary(spec: ExperimentSpec, summary: ExperimentSummary): string {
    const keys: Array<{title: string, key: string}> = [];
    for (const variant of summary.variants)
        for (const metric of variant.metrics) {
            const key = `${metric.metric}\u0000${metric.question ?? ""}\u0000${metric.calibrated}`;
            if (!keys.some((item) => item.key === key)) keys.push({key, title: metricTitle(metric.metric, metric.question, metric.calibrated)});
        }
    const value = (variant: ExperimentSummary["variants"][number], key: string) => {
        const found = variant.metrics.find((metric) => `${metric.metric}\u0000${metric.question ?? ""}\u0000${metric.calibrated}` === key);
        if (found === undefined) return "";
        return found.n === summary.rows * (summary.repeats ?? 1) ? formatRate(found) : `${formatRate(found)} (n=${formatCount(found.n)})`;
    };
    const rows = [
        ...keys.map(({title, key}) => [title, ...summary.variants.map((variant) => value(variant, key))]),
        ["cells done", ...summary.variants.map((variant) => `${formatCount(variant.done)}/${formatCount(variant.total)}`)],
        ["errors", ...summary.variants.map((variant) => formatCount(variant.errors))],
        ["tokens", ...summary.variants.map((variant) => formatCount(variant.usage.totalTokens))],
        ["cost", ...summary.variants.map((variant) => formatCost(variant.cost))],
        ["latency p50", ...summary.variants.map((variant) => formatLatency(variant.latencyP50Ms))],
        ["latency p95", ...summary.variants.map((variant) => formatLatency(variant.latencyP95Ms))]
    ];
    const lines = [`${spec.name || spec.id}: ${formatCount(summary.rows)} rows${summary.repeats === undefined ? "" : ` × ${summary.repeats} repeats`}`, formatTable(["", ...summary.variants.map((variant) => variant.name)], rows)];
    if (summary.variants.some((variant) => variant.metrics.some((metric) => metric.interval !== undefined))) lines.push(rateIntervalNote);
    if (summary.clustering !== undefined) lines.push(describeClustering(summary));
    const repeats = repeatRows(summary);
    if (summary.repeats !== undefined) lines.push("", repeatNote(summary));
    if (repeats.length > 0) lines.push(formatTable(repeatColumns.map((column) => column.label), repeats));
    const graders = graderAgreementRows(summary);
    if (graders.length > 0) lines.push("", graderAgreementNote, formatTable(graderAgreementColumns.map((column) => column.label), graders));
    const verdicts = summary.differences.filter((difference) => !difference.calibrated).sort((x, y) => Number(y.primary) - Number(x.primary));
    if (summary.comparedText !== "") lines.push("", summary.comparedText);
    if (verdicts.length > 0) {
        lines.push("");
        for (const difference of verdicts)
            lines.push(`${spec.variants[difference.b]?.name ?? difference.b} vs ${spec.variants[difference.a]?.name ?? difference.a}, ${metricTitle(difference.metric, difference.question)}${difference.primary ? " (primary)" : ""}: ${difference.verdict}`);
    }
    return lines.join("\n");
}
