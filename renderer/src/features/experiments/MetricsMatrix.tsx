// The results in numbers: the matrix (metrics × variants, each metric's definition and n on hover, n beside a value
// computed on fewer rows than the sample, a rate's Wilson interval beside it and defined on hover), what was compared with what, the verdicts with their intervals, the rule
// behind them and McNemar's test, and per variant its usage, cost and latency. Every number is written by
// client/experiments/metricDefinitions, as in the HTML report and the CLI.
import {useState} from "react";
import {describeClustering, designEffectDefinition, formatCost, formatCount, formatLatency, formatRate, metricHover, metricTitle, rateIntervalDefinition, verdictRule} from "../../../../client/experiments/metricDefinitions.ts";
import {testColumnDefinition, testText} from "../../../../client/experiments/verdictText.ts";
import type {ExperimentSummary, MetricKey, MetricValue, QuestionKind} from "../../../../client/experiments/types.ts";

type MatrixRow = {key: string, metric: MetricKey, question?: string, kind?: QuestionKind, calibrated: boolean, values: Array<MetricValue | undefined>};

function matrixRows(summary: ExperimentSummary, calibrated: boolean): MatrixRow[] {
    const rows = new Map<string, MatrixRow>();
    summary.variants.forEach((variant, index) => {
        for (const value of variant.metrics) {
            if (value.calibrated !== calibrated && hasBoth(summary, value)) continue;
            const key = `${value.question ?? ""}\u0000${value.metric}\u0000${value.calibrated}`;
            let row = rows.get(key);
            if (row === undefined) rows.set(key, row = {key, metric: value.metric, question: value.question, kind: value.kind, calibrated: value.calibrated, values: []});
            row.values[index] = value;
        }
    });
    return [...rows.values()];
}

/** Whether the metric is there both with and without calibration (a question set with a saved calibration). */
function hasBoth(summary: ExperimentSummary, value: MetricValue): boolean {
    return summary.variants.some((variant) => variant.metrics.some((other) => other.metric === value.metric && other.question === value.question && other.calibrated !== value.calibrated));
}

/** "On 50 rows." or "On 47 of 50 rows.": how many of the sample's rows a value was computed on. */
function rowsOf(value: MetricValue, rows: number): string {
    return value.n === rows ? `On ${formatCount(value.n)} rows.` : `On ${formatCount(value.n)} of ${formatCount(rows)} rows.`;
}

/** A value's hover: its metric's definition, the rows it stands on and, for a rate, what its interval is. */
function valueHover(row: MatrixRow, value: MetricValue, rows: number): string {
    return `${metricHover(row.metric, row.kind)} ${rowsOf(value, rows)}${value.interval === undefined ? "" : ` ${rateIntervalDefinition}`}` +
        `${value.designEffect === undefined ? "" : ` Design effect ${value.designEffect.toFixed(2)}. ${designEffectDefinition}`}`;
}

export function MetricsMatrix({summary}: {summary: ExperimentSummary}) {
    const [calibrated, setCalibrated] = useState(false);
    const anyCalibrated = summary.variants.some((variant) => variant.metrics.some((value) => value.calibrated));
    const rows = matrixRows(summary, calibrated);
    return (
        <section className="card exp-matrix" data-testid="exp-matrix">
            <div className="card-title-row">
                <h3>Metrics</h3>
                {anyCalibrated && (
                    <label className="check small push-right">
                        <input type="checkbox" checked={calibrated} data-testid="exp-calibrated" onChange={(event) => setCalibrated(event.target.checked)} />
                        with the question set's saved calibration
                    </label>
                )}
            </div>
            {rows.length === 0 ? <div className="muted small">No metric yet: the first cells are on their way.</div> : (
                <div className="table-scroll" tabIndex={0} role="region" aria-label="Metrics per variant">
                    <table className="table compact">
                        <thead>
                            <tr>
                                <th scope="col">Metric</th>
                                {summary.variants.map((variant) => <th key={variant.variant} scope="col" className="num mono">{variant.name}</th>)}
                            </tr>
                        </thead>
                        <tbody>
                            {rows.map((row) => (
                                <tr key={row.key} data-testid="exp-matrix-row" data-metric={row.metric} data-question={row.question ?? ""}>
                                    <th scope="row" title={metricHover(row.metric, row.kind)} className="exp-metric-name">{metricTitle(row.metric, row.question, row.calibrated)}</th>
                                    {summary.variants.map((variant, index) => {
                                        const value = row.values[index];
                                        return <td key={variant.variant} className="num mono" title={value ? valueHover(row, value, summary.rows) : undefined}
                                            data-testid="exp-matrix-value" data-n={value?.n}>
                                            {formatRate(value)}
                                            {value !== undefined && value.n !== summary.rows && <span className="muted small exp-n" data-testid="exp-matrix-n"> n={formatCount(value.n)}</span>}
                                        </td>;
                                    })}
                                </tr>
                            ))}
                        </tbody>
                    </table>
                </div>
            )}
            {summary.comparedText !== "" && <div className="muted small" data-testid="exp-compared">{summary.comparedText}</div>}
            {summary.clustering !== undefined && <div className="muted small exp-metric-name" data-testid="exp-clustering" title={designEffectDefinition}>{describeClustering(summary)}</div>}
        </section>
    );
}

export function VerdictsCard({summary}: {summary: ExperimentSummary}) {
    const differences = summary.differences;
    if (differences.length === 0) return null;
    const name = (index: number) => summary.variants[index]?.name ?? String(index);
    return (
        <section className="card exp-verdicts" data-testid="exp-verdicts">
            <div className="card-title-row">
                <h3>Which is better</h3>
                <span className="muted small exp-metric-name" title={verdictRule} data-testid="exp-verdict-rule">
                    how a verdict is reached
                </span>
            </div>
            <div className="table-scroll" tabIndex={0} role="region" aria-label="Which is better, per metric">
                <table className="table compact">
                    <thead><tr><th scope="col">Metric</th><th scope="col">Compared</th><th scope="col">Verdict</th><th scope="col" title={testColumnDefinition}>Test</th></tr></thead>
                    <tbody>
                        {differences.map((difference) => (
                            <tr key={`${difference.question ?? ""}-${difference.metric}-${difference.calibrated}-${difference.a}-${difference.b}`} data-testid="exp-verdict"
                                data-primary={difference.primary} className={[difference.primary ? "is-primary" : "", difference.primary && difference.better !== null ? "is-better" : ""].join(" ").trim()}>
                                <th scope="row" title={metricHover(difference.metric, difference.kind)} className="exp-metric-name">{metricTitle(difference.metric, difference.question, difference.calibrated)}{difference.primary ? " (primary)" : ""}</th>
                                <td className="mono">{name(difference.b)} vs {name(difference.a)}</td>
                                <td data-testid="exp-verdict-text">{difference.verdict}</td>
                                <td className="mono" data-testid="exp-verdict-test" title={difference.mcnemar ? `${name(difference.a)} only right: ${difference.mcnemar.onlyA}; ${name(difference.b)} only right: ${difference.mcnemar.onlyB}` : undefined}>
                                    {testText(difference) || "–"}
                                </td>
                            </tr>
                        ))}
                    </tbody>
                </table>
            </div>
        </section>
    );
}

export function UsageCard({summary}: {summary: ExperimentSummary}) {
    return (
        <section className="card exp-usage" data-testid="exp-usage">
            <div className="card-title-row"><h3>Usage, cost and latency</h3></div>
            <div className="table-scroll" tabIndex={0} role="region" aria-label="Usage, cost and latency per variant">
                <table className="table compact">
                    <thead>
                        <tr>
                            <th scope="col">Variant</th>
                            <th scope="col" className="num">Cells</th>
                            <th scope="col" className="num">Errors</th>
                            <th scope="col" className="num" title="Input (prompt) tokens over every cell">In tokens</th>
                            <th scope="col" className="num" title="Output (completion) tokens over every cell">Out tokens</th>
                            <th scope="col" className="num" title="Tokens × the variant's prices per million (the local engine's workspace prices when it has none)">Cost (credits)</th>
                            <th scope="col" className="num" title="Latency p50: the median time from sending a cell's request to its answer">p50</th>
                            <th scope="col" className="num" title="Latency p95: the 95th percentile of the time per cell">p95</th>
                        </tr>
                    </thead>
                    <tbody>
                        {summary.variants.map((variant) => (
                            <tr key={variant.variant} data-testid="exp-usage-row">
                                <th scope="row" className="mono">{variant.name}</th>
                                <td className="num mono">{formatCount(variant.done)} / {formatCount(variant.total)}</td>
                                <td className="num mono">{formatCount(variant.errors)}</td>
                                <td className="num mono">{formatCount(variant.usage.promptTokens)}</td>
                                <td className="num mono">{formatCount(variant.usage.completionTokens)}</td>
                                <td className="num mono">{formatCost(variant.cost)}</td>
                                <td className="num mono">{formatLatency(variant.latencyP50Ms)}</td>
                                <td className="num mono">{formatLatency(variant.latencyP95Ms)}</td>
                            </tr>
                        ))}
                    </tbody>
                </table>
            </div>
        </section>
    );
}
