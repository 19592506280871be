import {CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis} from "recharts";
import type {ReliabilityBin} from "../../../../client/scoring/index.ts";

type Props = {bins: ReliabilityBin[], ece: number, axisLabel: string};

/** Observed rate against mean predicted probability per bin; the diagonal is perfect calibration. */
export function ReliabilityDiagram({bins, ece, axisLabel}: Props) {
    const points = bins.filter((bin) => bin.count > 0).map((bin) => ({x: bin.meanPredicted!, observed: bin.observed!, count: bin.count}));
    return (
        <div className="eval-chart" data-testid="reliability-diagram">
            <div className="eval-chart-title">Reliability <span className="muted small">ECE {ece.toFixed(3)} · {axisLabel}</span></div>
            <div className="chart" style={{height: 200}}>
                <ResponsiveContainer width="100%" height="100%">
                    <LineChart margin={{top: 8, right: 12, bottom: 4, left: -12}}>
                        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
                        <XAxis dataKey="x" type="number" domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tick={{fill: "var(--muted)", fontSize: 10}} />
                        <YAxis type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={{fill: "var(--muted)", fontSize: 10}} />
                        <Tooltip formatter={(value) => Number(value).toFixed(3)} contentStyle={{background: "var(--surface)", border: "1px solid var(--border)"}} />
                        <Line data={[{x: 0, perfect: 0}, {x: 1, perfect: 1}]} dataKey="perfect" stroke="var(--muted)" strokeDasharray="4 4" dot={false} isAnimationActive={false} />
                        <Line data={points} dataKey="observed" stroke="var(--accent)" strokeWidth={2} dot={{r: 4, fill: "var(--accent)"}} isAnimationActive={false} />
                    </LineChart>
                </ResponsiveContainer>
            </div>
        </div>
    );
}
