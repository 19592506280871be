// Two kept experiments side by side: each variant's metrics, usage and latency, so a change between two runs (a new
// version, another model) reads at a glance; each number's n on hover.
import {useEffect, useState} from "react";
import {formatCost, formatCount, formatLatency, formatMetric, metricHover, metricTitle} from "../../../../client/experiments/metricDefinitions.ts";
import type {ExperimentSummary, MetricValue} from "../../../../client/experiments/types.ts";
import {cellKey} from "./experimentStore.ts";
import {savedExperiments} from "./savedExperiments.ts";
import {summarizeOnce} from "./summaryClient.ts";

type Side = {name: string, summary: ExperimentSummary};

async function summaryOf(id: string): Promise<Side> {
    const loaded = await savedExperiments.load(id, () => undefined);
    const variants = loaded.spec.variants.length;
    const cells = new Map([...loaded.store.all()].map((stored) => [cellKey(stored.cell.rowIndex, stored.cell.variant, variants), stored.cell]));
    return {name: loaded.spec.name, summary: await summarizeOnce({spec: loaded.spec, dataset: loaded.dataset, rowIndexes: loaded.rowIndexes, cells})};
}

export function CompareExperiments({ids}: {ids: [string, string]}) {
    const [sides, setSides] = useState<Side[] | null>(null);
    const [error, setError] = useState<string | null>(null);
    useEffect(() => {
        let current = true;
        setSides(null);
        setError(null);
        Promise.all(ids.map(summaryOf)).then((loaded) => current && setSides(loaded), (reason: Error) => current && setError(reason.message));
        return () => {
            current = false;
        };
    }, [ids[0], ids[1]]);
    if (error) return <div className="field-error" role="alert">Could not compare: {error}</div>;
    if (sides === null) return <section className="card muted small" data-testid="exp-compare-loading">Summarising both experiments…</section>;
    const columns = sides.flatMap((side, sideIndex) => side.summary.variants.map((variant) => ({side: sideIndex, variant})));
    const keys = new Map<string, Pick<MetricValue, "metric" | "question" | "kind" | "calibrated">>();
    for (const column of columns) for (const value of column.variant.metrics) keys.set(`${value.question ?? ""}\u0000${value.metric}\u0000${value.calibrated}`, value);
    return (
        <section className="card exp-compare" data-testid="exp-compare">
            <div className="card-title-row"><h3>Compared</h3></div>
            <div className="table-scroll">
                <table className="table compact">
                    <thead>
                        <tr><th scope="col">Metric</th>{sides.map((side, index) => <th key={index} scope="colgroup" colSpan={side.summary.variants.length}>{side.name}</th>)}</tr>
                        <tr><th scope="col"><span className="sr-only">Variant</span></th>{columns.map((column) => <th key={`${column.side}-${column.variant.variant}`} scope="col" className="num mono">{column.variant.name}</th>)}</tr>
                    </thead>
                    <tbody>
                        {[...keys.entries()].map(([key, value]) => (
                            <tr key={key} data-testid="exp-compare-row">
                                <th scope="row" title={metricHover(value.metric, value.kind)}>{metricTitle(value.metric, value.question, value.calibrated)}</th>
                                {columns.map((column) => {
                                    const found = column.variant.metrics.find((item) => item.metric === value.metric && item.question === value.question && item.calibrated === value.calibrated);
                                    const total = sides[column.side].summary.rows;
                                    return <td key={`${column.side}-${column.variant.variant}`} className="num mono"
                                        title={found === undefined ? undefined : `On ${formatCount(found.n)} of ${formatCount(total)} rows.`}>{formatMetric(found?.value)}</td>;
                                })}
                            </tr>
                        ))}
                        <tr><th scope="row">Cost</th>{columns.map((column) => <td key={`${column.side}-${column.variant.variant}`} className="num mono">{formatCost(column.variant.cost)}</td>)}</tr>
                        <tr><th scope="row">Latency p50</th>{columns.map((column) => <td key={`${column.side}-${column.variant.variant}`} className="num mono">{formatLatency(column.variant.latencyP50Ms)}</td>)}</tr>
                    </tbody>
                </table>
            </div>
        </section>
    );
}
