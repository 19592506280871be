// The results in numbers: the matrix (metrics × variants, each metric's definition on hover), the verdicts with their
// intervals and McNemar's test, and per variant its usage, cost and latency. Every number is written by
// client/experiments/metricDefinitions, as in the HTML report and the CLI.
import {useState} from "react";
import {formatCost, formatCount, formatLatency, formatMetric, formatPValue, metricDefinition, metricTitle} from "../../../../client/experiments/metricDefinitions.ts";
import type {ExperimentSummary, MetricKey, MetricValue} from "../../../../client/experiments/types.ts";

type MatrixRow = {key: string, metric: MetricKey, question?: string, calibrated: boolean, values: Array<MetricValue | undefined>};

function matrixRows(summary: ExperimentSummary, calibrated: boolean): MatrixRow[] {
    const rows = new Map<string, MatrixRow>();
    summary.variants.forEach((variant, index) => {
        for (const value of variant.metrics) {
            if (value.calibrated !== calibrated && hasBoth(summary, value)) continue;
            const key = `${value.question ?? ""}\u0000${value.metric}\u0000${value.calibrated}`;
            let row = rows.get(key);
            if (row === undefined) rows.set(key, row = {key, metric: value.metric, question: value.question, calibrated: value.calibrated, values: []});
            row.values[index] = value;
        }
    });
    return [...rows.values()];
}

/** Whether the metric is there both with and without calibration (a question set with a saved calibration). */
function hasBoth(summary: ExperimentSummary, value: MetricValue): boolean {
    return summary.variants.some((variant) => variant.metrics.some((other) => other.metric === value.metric && other.question === value.question && other.calibrated !== value.calibrated));
}

function definitionOf(metric: MetricKey): string {
    const definition = metricDefinition(metric);
    return `${definition.label}: ${definition.definition}${definition.higherIsBetter ? "" : " (lower is better)"}`;
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
                <div className="table-scroll">
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
                                    <th scope="row" title={definitionOf(row.metric)} className="exp-metric-name">{metricTitle(row.metric, row.question, row.calibrated)}</th>
                                    {summary.variants.map((variant, index) => {
                                        const value = row.values[index];
                                        return <td key={variant.variant} className="num mono" title={value ? `${definitionOf(row.metric)} On ${formatCount(value.n)} rows.` : undefined}
                                            data-testid="exp-matrix-value">{formatMetric(value?.value)}</td>;
                                    })}
                                </tr>
                            ))}
                        </tbody>
                    </table>
                </div>
            )}
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
                <span className="muted small" title="The difference's paired bootstrap 95% interval over the rows both variants answered: a variant is better when the whole interval lies on its side.">
                    paired bootstrap 95% intervals
                </span>
            </div>
            <div className="table-scroll">
                <table className="table compact">
                    <thead><tr><th scope="col">Metric</th><th scope="col">Compared</th><th scope="col">Verdict</th><th scope="col" title="McNemar's exact test on the rows only one variant got right">McNemar</th></tr></thead>
                    <tbody>
                        {differences.map((difference) => (
                            <tr key={`${difference.question ?? ""}-${difference.metric}-${difference.calibrated}-${difference.a}-${difference.b}`} data-testid="exp-verdict"
                                className={difference.better === null ? "" : "is-better"}>
                                <th scope="row" title={definitionOf(difference.metric)} className="exp-metric-name">{metricTitle(difference.metric, difference.question, difference.calibrated)}</th>
                                <td className="mono">{name(difference.b)} vs {name(difference.a)}</td>
                                <td data-testid="exp-verdict-text">{difference.verdict}</td>
                                <td className="mono" title={difference.mcnemar ? `${name(difference.a)} only right: ${difference.mcnemar.onlyA}; ${name(difference.b)} only right: ${difference.mcnemar.onlyB}` : undefined}>
                                    {difference.mcnemar ? formatPValue(difference.mcnemar.pValue) : "–"}
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
            <div className="table-scroll">
                <table className="table compact">
                    <thead>
                        <tr>
                            <th scope="col">Variant</th>
                            <th scope="col" className="num">Cells</th>
                            <th scope="col" className="num">Errors</th>
                            <th scope="col" className="num" title="Input (prompt) tokens over every cell">In tokens</th>
                            <th scope="col" className="num" title="Output (completion) tokens over every cell">Out tokens</th>
                            <th scope="col" className="num" title="Tokens × the variant's prices per million (the local engine's workspace prices when it has none)">Cost</th>
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
