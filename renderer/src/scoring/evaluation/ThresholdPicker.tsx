import {CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis} from "recharts";
import type {BinaryReport} from "../../../../client/scoring/index.ts";
import {formatMetric} from "./formatMetric.ts";

type Props = {report: BinaryReport, threshold: number, onChange: (threshold: number) => void, testId: string};

/** The threshold above which a yes/no answer counts as true, with precision and recall there and across all. */
export function ThresholdPicker({report, threshold, onChange, testId}: Props) {
    // A threshold t between two answered probabilities predicts what the next higher one does (stepBefore);
    // from 0 up to the lowest everything is true, above the highest nothing is.
    const rows = [...report.thresholds].reverse();
    const curve = [
        ...(rows.length > 0 && rows[0].threshold > 0 ? [{threshold: 0, precision: rows[0].precision, recall: rows[0].recall}] : []),
        ...rows.map((row) => ({threshold: row.threshold, precision: row.precision, recall: row.recall})),
        ...(rows.length > 0 && rows[rows.length - 1].threshold < 1 ? [{threshold: 1, precision: null, recall: 0}] : [])
    ];
    return (
        <div className="eval-chart threshold-picker">
            <div className="eval-chart-title">Threshold
                <span className="mono" data-testid={`${testId}-value`}>{threshold.toFixed(2)}</span>
                <span className="muted small">precision <span className="mono" data-testid={`${testId}-precision`}>{formatMetric(report.precision)}</span>
                    {" · "}recall <span className="mono" data-testid={`${testId}-recall`}>{formatMetric(report.recall)}</span></span>
            </div>
            <input type="range" min={0} max={1} step={0.01} value={threshold} aria-label="Decision threshold" data-testid={testId}
                onChange={(event) => onChange(Number(event.target.value))} />
            <div className="chart" style={{height: 140}}>
                <ResponsiveContainer width="100%" height="100%">
                    <LineChart data={curve} margin={{top: 8, right: 12, bottom: 4, left: -12}}>
                        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
                        <XAxis dataKey="threshold" type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={{fill: "var(--muted)", fontSize: 10}} />
                        <YAxis type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={{fill: "var(--muted)", fontSize: 10}} />
                        <Tooltip formatter={(value) => Number(value).toFixed(3)} contentStyle={{background: "var(--surface)", border: "1px solid var(--border)"}} />
                        <Line dataKey="precision" stroke="var(--accent)" dot={false} type="stepBefore" isAnimationActive={false} connectNulls />
                        <Line dataKey="recall" stroke="var(--ok)" dot={false} type="stepBefore" isAnimationActive={false} connectNulls />
                        <ReferenceLine x={threshold} stroke="var(--warn)" strokeDasharray="4 3" />
                    </LineChart>
                </ResponsiveContainer>
            </div>
        </div>
    );
}
