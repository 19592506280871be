import {CartesianGrid, Line, LineChart, ReferenceDot, ResponsiveContainer, Tooltip, XAxis, YAxis} from "recharts";
import type {RocPoint} from "../../../../client/scoring/index.ts";

type Props = {roc: RocPoint[], auc: number | null, current: {falsePositiveRate: number | null, recall: number | null}};

/** The ROC curve of a yes/no question with its AUC, and the point of the chosen threshold. */
export function RocChart({roc, auc, current}: Props) {
    const points = roc.map((point) => ({x: point.falsePositiveRate, tpr: point.truePositiveRate}));
    return (
        <div className="eval-chart" data-testid="roc-chart">
            <div className="eval-chart-title">ROC <span className="muted small" data-testid="roc-auc">AUC {auc === null ? "– (needs both classes)" : auc.toFixed(3)}</span></div>
            <div className="chart" style={{height: 200}}>
                <ResponsiveContainer width="100%" height="100%">
                    <LineChart margin={{top: 8, right: 12, bottom: 4, left: -12}}>
                        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
                        <XAxis dataKey="x" type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={{fill: "var(--muted)", fontSize: 10}} />
                        <YAxis type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={{fill: "var(--muted)", fontSize: 10}} />
                        <Tooltip formatter={(value) => Number(value).toFixed(3)} contentStyle={{background: "var(--surface)", border: "1px solid var(--border)"}} />
                        <Line data={[{x: 0, chance: 0}, {x: 1, chance: 1}]} dataKey="chance" stroke="var(--muted)" strokeDasharray="4 4" dot={false} isAnimationActive={false} />
                        <Line data={points} dataKey="tpr" stroke="var(--ok)" strokeWidth={2} dot={false} type="linear" isAnimationActive={false} />
                        {current.falsePositiveRate !== null && current.recall !== null &&
                            <ReferenceDot x={current.falsePositiveRate} y={current.recall} r={5} fill="var(--warn)" stroke="none" />}
                    </LineChart>
                </ResponsiveContainer>
            </div>
        </div>
    );
}
