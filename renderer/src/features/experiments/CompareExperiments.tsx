// Two kept experiments side by side: each variant's metrics, usage and latency, so a change between two runs (a new
// version, another model) reads at a glance, with each run's sample and the rows each number stands on. When both ran
// on the same rows, each variant of the second is tested against its namesake in the first (client/experiments
// jointRuns.ts), with the verdicts and exact tests of one experiment.
import {useEffect, useState} from "react";
import {describeSample} from "../../../../client/experiments/dataset.ts";
import {jointRun, type KeptRun} from "../../../../client/experiments/jointRuns.ts";
import {formatCost, formatCount, formatLatency, formatRate, metricHover, metricTitle, rateIntervalDefinition} from "../../../../client/experiments/metricDefinitions.ts";
import type {ExperimentSummary, MetricValue} from "../../../../client/experiments/types.ts";
import {storedCellKey} from "./experimentStore.ts";
import {VerdictsCard} from "./MetricsMatrix.tsx";
import {keptRun, savedExperiments} from "./savedExperiments.ts";
import {summarizeOnce} from "./summaryClient.ts";

type Side = {name: string, summary: ExperimentSummary, run: KeptRun};

async function summaryOf(id: string): Promise<Side> {
    const run = keptRun(await savedExperiments.load(id, () => undefined));
    const cells = new Map(run.cells.map((cell) => [storedCellKey(cell, run.spec), cell]));
    return {name: run.name, run, summary: await summarizeOnce({spec: run.spec, dataset: run.dataset, rowIndexes: [...run.rowIndexes], cells})};
}

/** The two runs tested against each other when they ran on the same rows; null when they did not. */
async function testedTogether(first: Side, second: Side): Promise<ExperimentSummary | null> {
    const joint = jointRun(first.run, second.run);
    if (joint === null) return null;
    const cells = new Map(joint.cells.map((cell) => [storedCellKey(cell, joint.spec), cell]));
    return summarizeOnce({spec: joint.spec, dataset: joint.dataset, rowIndexes: joint.rowIndexes, cells}, joint.pairs);
}

export function CompareExperiments({ids}: {ids: [string, string]}) {
    const [sides, setSides] = useState<Side[] | null>(null);
    const [tested, setTested] = useState<ExperimentSummary | null | undefined>(undefined);
    const [error, setError] = useState<string | null>(null);
    useEffect(() => {
        let current = true;
        setSides(null);
        setTested(undefined);
        setError(null);
        Promise.all(ids.map(summaryOf)).then(async (loaded) => {
            if (!current) return;
            setSides(loaded);
            const together = await testedTogether(loaded[0], loaded[1]);
            if (current) setTested(together);
        }).catch((reason: Error) => current && setError(reason.message));
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
                        <tr><th scope="col">Metric</th>{sides.map((side, index) => (
                            <th key={index} scope="colgroup" colSpan={side.summary.variants.length} data-testid="exp-compare-side">
                                #{index + 1} {side.name}<div className="muted small">{describeSample(side.run.spec.sample)} · {formatCount(side.summary.rows)} row{side.summary.rows === 1 ? "" : "s"}</div>
                            </th>
                        ))}</tr>
                        <tr><th scope="col"><span className="sr-only">Variant</span></th>{columns.map((column) => <th key={`${column.side}-${column.variant.variant}`} scope="col" className="num mono">{column.variant.name}</th>)}</tr>
                    </thead>
                    <tbody>
                        <tr data-testid="exp-compare-n"><th scope="row" title="Rows with a result (the n of a metric on labelled rows may be lower: its hover says)">Rows answered</th>
                            {columns.map((column) => <td key={`${column.side}-${column.variant.variant}`} className="num mono">{formatCount(column.variant.done)} / {formatCount(column.variant.total)}</td>)}</tr>
                        {[...keys.entries()].map(([key, value]) => (
                            <tr key={key} data-testid="exp-compare-row">
                                <th scope="row" title={metricHover(value.metric, value.kind)}>{metricTitle(value.metric, value.question, value.calibrated)}</th>
                                {columns.map((column) => {
                                    const found = column.variant.metrics.find((item) => item.metric === value.metric && item.question === value.question && item.calibrated === value.calibrated);
                                    const total = sides[column.side].summary.rows;
                                    return <td key={`${column.side}-${column.variant.variant}`} className="num mono"
                                        title={found === undefined ? undefined : `On ${formatCount(found.n)} of ${formatCount(total)} rows.${found.interval === undefined ? "" : ` ${rateIntervalDefinition}`}`}>{formatRate(found)}</td>;
                                })}
                            </tr>
                        ))}
                        <tr><th scope="row">Cost</th>{columns.map((column) => <td key={`${column.side}-${column.variant.variant}`} className="num mono">{formatCost(column.variant.cost)}</td>)}</tr>
                        <tr><th scope="row">Latency p50</th>{columns.map((column) => <td key={`${column.side}-${column.variant.variant}`} className="num mono">{formatLatency(column.variant.latencyP50Ms)}</td>)}</tr>
                    </tbody>
                </table>
            </div>
            {tested === undefined && <div className="muted small" data-testid="exp-compare-testing">Testing the difference…</div>}
            {tested === null && (sides[0].summary.repeats ?? 1) !== (sides[1].summary.repeats ?? 1) && (
                <div className="field-warning" data-testid="exp-compare-untested">
                    No test: #1 asked each row {sides[0].summary.repeats ?? 1} times and #2 {sides[1].summary.repeats ?? 1}; their answers are tested row by row only at the same number of repeats.
                </div>
            )}
            {tested === null && (sides[0].summary.repeats ?? 1) === (sides[1].summary.repeats ?? 1) && (
                <div className="field-warning" data-testid="exp-compare-untested">
                    No test: the two ran on different rows ({formatCount(sides[0].summary.rows)} and {formatCount(sides[1].summary.rows)}), so a difference between them
                    mixes the change with the rows. Run both on the same sample of the same dataset to test it.
                </div>
            )}
            {tested && (
                <div data-testid="exp-compare-tests">
                    <p className="muted small">Both ran on the same {formatCount(tested.rows)} rows: #2 is tested against #1 row by row. {tested.comparedText}</p>
                    <VerdictsCard summary={tested} />
                </div>
            )}
        </section>
    );
}
