import type {Difference, ExperimentSummary} from "./types.ts";
import type {ReliabilityBin} from "../scoring/evaluation.ts";
import {formatMetric, metricDefinition, metricTitle} from "./metricDefinitions.ts";

// The HTML report's charts as inline SVG (no scripts, no external files): differences with their interval
// whiskers, and reliability diagrams. Every text goes through escapeHtml.

/** Text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
    return text.replace(/[&<>"']/g, (character) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"})[character]!);
}

/** Series colours, one per variant, readable on white and in print. */
export const variantColors = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#4d7c0f", "#be185d"];

export function colorOf(variant: number): string {
    return variantColors[variant % variantColors.length];
}

const number = (value: number) => Number(value.toFixed(2));

/**
 * One comparison's differences as a forest plot: per metric, the gain of B over A (oriented so that right is
 * better for B whatever the metric's direction) as a dot with its 95% interval as a whisker, and a line at 0.
 */
export function differenceChart(differences: readonly Difference[], nameA: string, nameB: string): string {
    const drawn = differences.filter((difference) => difference.delta !== null && difference.low !== null && difference.high !== null);
    if (drawn.length === 0) return "";
    const oriented = drawn.map((difference) => {
        const sign = metricDefinition(difference.metric).higherIsBetter ? 1 : -1;
        const [low, high] = sign === 1 ? [difference.low!, difference.high!] : [-difference.high!, -difference.low!];
        return {difference, gain: sign * difference.delta!, low, high};
    });
    const extent = Math.max(0.01, ...oriented.map((entry) => Math.max(Math.abs(entry.low), Math.abs(entry.high))));
    const labelWidth = 230, plotWidth = 360, rowHeight = 22, top = 26, width = labelWidth + plotWidth + 20;
    const height = top + oriented.length * rowHeight + 24;
    const x = (value: number) => number(labelWidth + (value + extent) / (2 * extent) * plotWidth);
    const rows = oriented.map((entry, index) => {
        const y = top + index * rowHeight + rowHeight / 2;
        const color = entry.difference.better === null ? "#6b7280" : entry.difference.better === entry.difference.b ? colorOf(entry.difference.b) : colorOf(entry.difference.a);
        const label = metricTitle(entry.difference.metric, entry.difference.question, entry.difference.calibrated);
        return `<g><title>${escapeHtml(`${label}: ${entry.difference.verdict}`)}</title>` +
            `<text x="${labelWidth - 8}" y="${y + 4}" text-anchor="end">${escapeHtml(label)}</text>` +
            `<line x1="${x(entry.low)}" x2="${x(entry.high)}" y1="${y}" y2="${y}" stroke="${color}" stroke-width="2"/>` +
            `<line x1="${x(entry.low)}" x2="${x(entry.low)}" y1="${y - 5}" y2="${y + 5}" stroke="${color}" stroke-width="2"/>` +
            `<line x1="${x(entry.high)}" x2="${x(entry.high)}" y1="${y - 5}" y2="${y + 5}" stroke="${color}" stroke-width="2"/>` +
            `<circle cx="${x(entry.gain)}" cy="${y}" r="4" fill="${color}"/></g>`;
    }).join("");
    const axis = `<line x1="${x(0)}" x2="${x(0)}" y1="${top - 6}" y2="${height - 20}" stroke="#9ca3af" stroke-dasharray="3 3"/>` +
        `<text x="${labelWidth}" y="${height - 6}">${escapeHtml(`← ${nameA} better`)}</text>` +
        `<text x="${labelWidth + plotWidth}" y="${height - 6}" text-anchor="end">${escapeHtml(`${nameB} better →`)}</text>` +
        `<text x="${x(-extent)}" y="${top - 10}">${formatMetric(-extent)}</text><text x="${x(0)}" y="${top - 10}" text-anchor="middle">0</text>` +
        `<text x="${x(extent)}" y="${top - 10}" text-anchor="end">${formatMetric(extent)}</text>`;
    const title = `${nameB} against ${nameA}: each metric's difference with its 95% interval, oriented so that right means ${nameB} is better`;
    return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg class="chart" role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" aria-label="${escapeHtml(title)}">${axis}${rows}</svg></figure>`;
}

/**
 * A reliability diagram of one question: per variant, each non-empty bin's mean predicted probability against
 * the observed rate, dot size by the bin's share of rows, and the diagonal of perfect calibration.
 */
export function reliabilityChart(title: string, series: ReadonlyArray<{variant: number, name: string, bins: readonly ReliabilityBin[]}>): string {
    const size = 220, margin = 34, width = size + margin + 130, height = size + margin + 16;
    const x = (value: number) => number(margin + value * size), y = (value: number) => number(8 + (1 - value) * size);
    const grid = [0, 0.5, 1].map((tick) => `<text x="${x(tick)}" y="${height - 6}" text-anchor="middle">${tick}</text><text x="${margin - 6}" y="${y(tick) + 4}" text-anchor="end">${tick}</text>`).join("");
    const frame = `<rect x="${x(0)}" y="${y(1)}" width="${size}" height="${size}" fill="none" stroke="#d1d5db"/>` +
        `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#9ca3af" stroke-dasharray="3 3"/>`;
    const lines = series.map((entry, index) => {
        const total = entry.bins.reduce((sum, bin) => sum + bin.count, 0);
        const points = entry.bins.filter((bin) => bin.count > 0 && bin.meanPredicted !== null && bin.observed !== null);
        const color = colorOf(entry.variant);
        const path = points.map((bin, at) => `${at === 0 ? "M" : "L"}${x(bin.meanPredicted!)} ${y(bin.observed!)}`).join(" ");
        const dots = points.map((bin) => `<circle cx="${x(bin.meanPredicted!)}" cy="${y(bin.observed!)}" r="${number(2 + 6 * Math.sqrt(bin.count / Math.max(1, total)))}" fill="${color}" fill-opacity="0.7">` +
            `<title>${escapeHtml(`${entry.name}: ${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)}, ${bin.count} rows, predicted ${formatMetric(bin.meanPredicted)}, observed ${formatMetric(bin.observed)}`)}</title></circle>`).join("");
        const legend = `<rect x="${size + margin + 14}" y="${14 + index * 18}" width="10" height="10" fill="${color}"/><text x="${size + margin + 30}" y="${23 + index * 18}">${escapeHtml(entry.name)}</text>`;
        return `<path d="${path}" fill="none" stroke="${color}" stroke-width="1.5"/>${dots}${legend}`;
    }).join("");
    return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg class="chart" role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" aria-label="${escapeHtml(title)}">${frame}${grid}${lines}</svg></figure>`;
}

/** Reliability charts of every question, raw and calibrated, from the variants' ECE entries. */
export function reliabilityCharts(summary: ExperimentSummary): string {
    const keys = new Map<string, {question: string, calibrated: boolean}>();
    for (const variant of summary.variants) for (const value of variant.metrics)
        if (value.metric === "ece" && value.reliability && value.question !== undefined) keys.set(`${value.question}\u0000${value.calibrated}`, {question: value.question, calibrated: value.calibrated});
    return [...keys.values()].map(({question, calibrated}) => reliabilityChart(
        `${question}${calibrated ? " (calibrated)" : ""}: predicted against observed`,
        summary.variants.flatMap((variant) => {
            const value = variant.metrics.find((entry) => entry.metric === "ece" && entry.question === question && entry.calibrated === calibrated);
            return value?.reliability ? [{variant: variant.variant, name: variant.name, bins: value.reliability}] : [];
        })
    )).join("");
}
