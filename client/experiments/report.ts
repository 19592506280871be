import type {ConnectionRef, Difference, ExperimentSpec, ExperimentSummary, MetricValue, VariantSummary} from "./types.ts";
import {describeSample} from "./dataset.ts";
import type {SheetRow} from "../scoring/types.ts";
import {repeatColumns, repeatNote, repeatRows} from "./repeatStatsText.ts";
import {describeClustering, designEffectDefinition, formatCost, formatCount, formatInterval, formatLevel, formatLatency, formatMetric, formatRate, metricHover, metricTitle, rateIntervalDefinition, verdictRule} from "./metricDefinitions.ts";
import {testColumnDefinition, testText} from "./verdictText.ts";
import {colorOf, differenceChart, escapeHtml, reliabilityCharts} from "./reportCharts.ts";
import {describeDisagreementCount, spreadDefinition, spreadName} from "./disagreements.ts";
import {graderAgreementColumns, graderAgreementNote, graderAgreementRows} from "./graderAgreementText.ts";

// The experiment as one self-contained HTML file to send to a customer: what was compared (dataset, sample,
// variants), the metrics matrix, the verdicts with their intervals, charts, and the rows the variants disagree
// on. Inline CSS and SVG only: no scripts, no external files, every text escaped. Numbers are written by
// metricDefinitions' formatters, as on the Experiments screen and in the CLI.

export type ReportOptions = {
    /** The dataset's rows and columns, to show the cells of the disagreeing rows; absent: row numbers only. */
    dataset?: {name?: string, columns: readonly string[], rows: readonly SheetRow[]},
    /** Disagreements shown; default 25. */
    maxDisagreements?: number,
    /** Columns of a row shown beside a disagreement; default 3. */
    maxRowColumns?: number,
    generatedAt?: Date
};

const style = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;background:#fff;margin:0;padding:24px 32px;max-width:1200px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #e5e7eb;padding-bottom:4px}
.meta{color:#4b5563;margin:2px 0}table{border-collapse:collapse;margin:6px 0 12px;width:100%}
th,td{border:1px solid #e5e7eb;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f9fafb;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.better{color:#166534;font-weight:600}.muted{color:#6b7280}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}.wrong{color:#b91c1c}.right{color:#166534}
code{font-size:12px;background:#f3f4f6;padding:1px 4px;border-radius:3px;word-break:break-all}.chart text{font-size:11px;fill:#374151}
figure{display:inline-block;margin:8px 16px 8px 0}figcaption{font-weight:600;margin-bottom:4px}
@media (prefers-color-scheme:dark){body{background:#111827;color:#e5e7eb}th{background:#1f2937}th,td{border-color:#374151}.meta,.muted{color:#9ca3af}
code{background:#1f2937}.chart text{fill:#d1d5db}.better,.right{color:#4ade80}.wrong{color:#f87171}}
@media print{body{padding:0}h2{break-after:avoid}table,figure{break-inside:avoid}}`;

/** "all rows", "first 200 rows", "200 random rows (seed 7)", "rows where lang equals en". */
export function describeConnection(connection: ConnectionRef): string {
    return "baseUrl" in connection ? connection.baseUrl : connection.profile === "local" ? "local engine" : `profile ${connection.profile}`;
}

const cell = (text: string, className?: string, title?: string) =>
    `<td${className ? ` class="${className}"` : ""}${title ? ` title="${escapeHtml(title)}"` : ""}>${escapeHtml(text)}</td>`;
const header = (names: readonly string[]) => `<tr>${names.map((name) => `<th>${escapeHtml(name)}</th>`).join("")}</tr>`;
const swatch = (variant: number) => `<span class="swatch" style="background:${colorOf(variant)}"></span>`;

/** Fields of a chat body that are the prompt itself, not its parameters. */
const promptFields = new Set(["messages", "input", "instructions", "tools", "tool_choice", "response_format", "text"]);

/** The parameters a variant's requests carry: its version's own (temperature, max_tokens...) with the variant's over them. */
function sentParams(variant: ExperimentSpec["variants"][number]): Record<string, unknown> {
    const prompt = variant.version.prompt;
    const own = prompt.kind === "chat" ? Object.fromEntries(Object.entries(prompt.body).filter(([key]) => !promptFields.has(key))) : {};
    return {...own, ...variant.params};
}

function variantsTable(spec: ExperimentSpec, summary: ExperimentSummary): string {
    const rows = summary.variants.map((variant: VariantSummary) => {
        const source = spec.variants[variant.variant];
        const prompt = source.version.prompt;
        const what = prompt.kind === "decision" ? `${prompt.questionSet.format} question set` : `${prompt.endpoint === "chat" ? "Chat" : "Responses"} prompt`;
        const sent = sentParams(source);
        const params = Object.keys(sent).length > 0 ? JSON.stringify(sent) : "–";
        return `<tr><td>${swatch(variant.variant)}${escapeHtml(variant.name)}</td>${cell(`${source.version.itemName} v${source.version.version}`)}${cell(what)}` +
            `${cell(describeConnection(source.connection))}${cell(source.model ?? "–")}<td><code>${escapeHtml(params)}</code></td>` +
            `${cell(`${formatCount(variant.done)} / ${formatCount(variant.total)}`, "num")}${cell(formatCount(variant.errors), "num")}` +
            `${cell(formatCount(variant.usage.promptTokens), "num", "Input (prompt) tokens over every cell")}${cell(formatCount(variant.usage.completionTokens), "num", "Output (completion) tokens over every cell")}` +
            `${cell(formatCost(variant.cost), "num")}${cell(`${formatLatency(variant.latencyP50Ms)} / ${formatLatency(variant.latencyP95Ms)}`, "num")}</tr>`;
    }).join("");
    return `<table>${header(["Variant", "Version", "Prompt", "Connection", "Model", "Parameters", "Done", "Errors", "In tokens", "Out tokens", "Cost (credits)", "Latency p50 / p95"])}${rows}</table>`;
}

function matrixTable(summary: ExperimentSummary): string {
    const keys = new Map<string, Pick<MetricValue, "metric" | "question" | "kind" | "calibrated">>();
    for (const variant of summary.variants) for (const value of variant.metrics)
        keys.set(`${value.question ?? ""}\u0000${value.metric}\u0000${value.calibrated}`, {metric: value.metric, ...(value.question === undefined ? {} : {question: value.question}),
            ...(value.kind === undefined ? {} : {kind: value.kind}), calibrated: value.calibrated});
    if (keys.size === 0) return `<p class="muted">No metrics yet: no labelled, answered rows or checks.</p>`;
    // A value computed on fewer rows than the sample (errored, unlabelled or missing rows) shows its n.
    // With repeats, n counts answers: rows × repeats.
    const answers = summary.rows * (summary.repeats ?? 1), unit = summary.repeats === undefined ? "rows" : "answers";
    const valueCell = (value: MetricValue | undefined) => value === undefined ? cell("–", "num") :
        `<td class="num" title="${escapeHtml(`On ${formatCount(value.n)} of ${formatCount(answers)} ${unit}.${value.interval === undefined ? "" : ` ${rateIntervalDefinition}`}` +
            `${value.designEffect === undefined ? "" : ` Design effect ${value.designEffect.toFixed(2)}. ${designEffectDefinition}`}`)}">${escapeHtml(formatRate(value))}` +
        `${value.n === answers ? "" : ` <span class="muted">n=${formatCount(value.n)}</span>`}</td>`;
    const rows = [...keys.values()].map((key) => {
        const values = summary.variants.map((variant) => variant.metrics.find((value) => value.metric === key.metric && value.question === key.question && value.calibrated === key.calibrated));
        return `<tr>${cell(metricTitle(key.metric, key.question, key.calibrated), undefined, metricHover(key.metric, key.kind))}${values.map(valueCell).join("")}</tr>`;
    }).join("");
    return `<table>${header(["Metric", ...summary.variants.map((variant) => variant.name)])}${rows}</table>`;
}

/** What the repeats measured, each heading with its definition on hover; "" without repeats. */
function repeatTable(summary: ExperimentSummary): string {
    if (summary.repeats === undefined) return "";
    const rows = repeatRows(summary);
    const head = `<tr>${repeatColumns.map((column) => `<th title="${escapeHtml(column.definition)}">${escapeHtml(column.label)}</th>`).join("")}</tr>`;
    const body = rows.map((row) => `<tr>${row.map((text, index) => cell(text, index < 2 ? undefined : "num", repeatColumns[index].definition)).join("")}</tr>`).join("");
    const definitions = repeatColumns.slice(2).map((column) => `${column.label}: ${column.definition}`).join(" ");
    return `<h2>Repeats</h2><p class="meta">${escapeHtml(repeatNote(summary))}</p>${rows.length === 0 ? "" : `<table>${head}${body}</table><p class="meta">${escapeHtml(definitions)}</p>`}`;
}

/** The graders measured against human labels, each heading with its definition on hover; "" when there are none. */
function graderAgreementTable(summary: ExperimentSummary): string {
    const rows = graderAgreementRows(summary);
    if (rows.length === 0) return "";
    const head = `<tr>${graderAgreementColumns.map((column) => `<th title="${escapeHtml(column.definition)}">${escapeHtml(column.label)}</th>`).join("")}</tr>`;
    const body = rows.map((row) => `<tr>${row.map((text, index) => cell(text, index < 2 ? undefined : "num", graderAgreementColumns[index].definition)).join("")}</tr>`).join("");
    const definitions = graderAgreementColumns.slice(2).map((column) => `${column.label}: ${column.definition}`).join(" ");
    return `<h2>Graders against human labels</h2><p class="meta">${escapeHtml(graderAgreementNote)}</p><table>${head}${body}</table><p class="meta">${escapeHtml(definitions)}</p>`;
}

function hasRateInterval(summary: ExperimentSummary): boolean {
    return summary.variants.some((variant) => variant.metrics.some((value) => value.interval !== undefined));
}

function verdictsTable(summary: ExperimentSummary, differences: readonly Difference[]): string {
    const rows = differences.map((difference) => {
        const names = `${summary.variants[difference.b].name} vs ${summary.variants[difference.a].name}`;
        const interval = difference.delta === null || difference.low === null || difference.high === null ? "–" :
            `${formatInterval(difference.delta, difference.low, difference.high)}${difference.level === 0.95 ? "" : `, ${formatLevel(difference.level)}`}`;
        const method = difference.method === "exact" ? "McNemar's exact interval (Clopper–Pearson on the rows only one variant got right, widened over the share of such rows)"
            : difference.method === "cluster" ? "the difference ± t × its clustered (Liang–Zeger) standard error, over clusters, t on clusters − 1 degrees of freedom" : summary.clustering === undefined ? "paired bootstrap over rows" : "paired bootstrap over clusters";
        const test = testText(difference);
        const title = metricTitle(difference.metric, difference.question, difference.calibrated) + (difference.primary ? " (primary)" : "");
        const verdictClass = difference.better === null ? "muted" : difference.primary ? "better" : undefined;
        return `<tr>${cell(title, undefined, metricHover(difference.metric, difference.kind))}${cell(names)}` +
            `${cell(`${formatMetric(difference.valueA)} → ${formatMetric(difference.valueB)}`, "num")}${cell(interval, "num", method)}` +
            `${cell(difference.verdict, verdictClass)}${cell(test, "num", testColumnDefinition)}</tr>`;
    }).join("");
    return `<table>${header(["Metric", "Comparison", "First → second", "Difference (95% interval unless noted)", "Verdict", "Test"])}${rows}</table>`;
}

function disagreementsTable(summary: ExperimentSummary, options: ReportOptions): string {
    const all = summary.disagreements;
    const shown = all.slice(0, options.maxDisagreements ?? 25);
    if (shown.length === 0) return `<p class="muted">No row where the variants' answers or outcomes differ.</p>`;
    const dataset = options.dataset;
    const columns = dataset ? dataset.columns.slice(0, options.maxRowColumns ?? 3) : [];
    const rows = shown.map((disagreement) => {
        const source = dataset?.rows[disagreement.rowIndex];
        const rowCells = columns.map((_column, index) => cell(source === undefined ? "" : String(source[index] ?? ""))).join("");
        const variantCells = summary.variants.map((variant) => {
            const entry = disagreement.cells.find((candidate) => candidate.variant === variant.variant);
            if (entry === undefined) return cell("–", "muted");
            const mark = entry.correct === null ? "" : entry.correct ? "✓ " : "✗ ";
            return cell(mark + entry.summary, entry.correct === null ? undefined : entry.correct ? "right" : "wrong");
        }).join("");
        return `<tr>${cell(String(disagreement.rowIndex + 1), "num")}${rowCells}${cell(disagreement.question ?? "checks")}${variantCells}${cell(formatMetric(disagreement.size), "num")}</tr>`;
    }).join("");
    const count = describeDisagreementCount(all);
    const caption = shown.length < all.length ? `Top ${formatCount(shown.length)} of ${count}, the largest ${spreadName.toLowerCase()} first.` : `All ${count}, the largest ${spreadName.toLowerCase()} first.`;
    const names = ["Row", ...columns, "Question", ...summary.variants.map((variant) => variant.name)];
    const head = `<tr>${names.map((name) => `<th>${escapeHtml(name)}</th>`).join("")}<th title="${escapeHtml(spreadDefinition)}">${spreadName}</th></tr>`;
    return `<p class="muted">${escapeHtml(caption)} ${escapeHtml(spreadDefinition)}</p><table>${head}${rows}</table>`;
}

/** The report as one HTML document. */
export function renderExperimentReport(spec: ExperimentSpec, summary: ExperimentSummary, options: ReportOptions = {}): string {
    const datasetName = options.dataset?.name ?? ("file" in spec.dataset ? spec.dataset.file : spec.dataset.name);
    const generated = (options.generatedAt ?? new Date()).toISOString().replace("T", " ").slice(0, 16) + " UTC";
    const pairs = [...new Set(summary.differences.map((difference) => `${difference.a}:${difference.b}`))].map((pair) => pair.split(":").map(Number));
    const charts = pairs.map(([a, b]) => differenceChart(summary.differences.filter((difference) => difference.a === a && difference.b === b), summary.variants[a].name, summary.variants[b].name)).join("");
    const calibration = reliabilityCharts(summary);
    const warnings = summary.warnings.length === 0 ? "" : `<h2>Warnings</h2><ul>${summary.warnings.map((warning) => `<li>${escapeHtml(warning)}</li>`).join("")}</ul>`;
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(spec.name)}</title><style>${style}</style></head><body>
<h1>${escapeHtml(spec.name)}</h1>
<p class="meta">Dataset ${escapeHtml(datasetName)} · ${escapeHtml(describeSample(spec.sample))} · ${formatCount(summary.rows)} row${summary.rows === 1 ? "" : "s"} · ${summary.variants.length} variant${summary.variants.length === 1 ? "" : "s"}</p>
<p class="meta">Intervals: 95%; pass/fail metrics McNemar's exact interval, others a paired bootstrap over rows, ${formatCount(summary.resamples)} resamples, seed ${spec.seed} · generated ${escapeHtml(generated)}</p>
<h2>Variants</h2>${variantsTable(spec, summary)}
<h2>Metrics</h2>${matrixTable(summary)}${hasRateInterval(summary) ? `<p class="meta">${escapeHtml(rateIntervalDefinition)}</p>` : ""}${summary.clustering === undefined ? "" : `<p class="meta">${escapeHtml(describeClustering(summary))} ${escapeHtml(designEffectDefinition)}</p>`}
${repeatTable(summary)}${graderAgreementTable(summary)}
<h2>Which is better</h2>${summary.comparedText === "" ? "" : `<p class="meta">${escapeHtml(summary.comparedText)}</p>`}<p class="meta">${escapeHtml(verdictRule)}</p>
${summary.differences.length === 0 ? `<p class="muted">No metric that two variants share yet.</p>` : verdictsTable(summary, summary.differences)}
${charts}${calibration === "" ? "" : `<h2>Calibration</h2>${calibration}`}
<h2>Disagreements</h2>${disagreementsTable(summary, options)}
${warnings}</body></html>
`;
}
