import {Cell, Pie, PieChart} from "recharts";

type Props = {probability: number};

/** P(true) of a yes/no answer as a half-circle gauge, the number in its middle. */
export function ProbabilityGauge({probability}: Props) {
    const data = [{name: "true", value: probability}, {name: "false", value: Math.max(0, 1 - probability)}];
    return (
        <div className="gauge" data-testid="gauge" role="img" aria-label={`Probability of true: ${probability.toFixed(2)}`}>
            <PieChart width={200} height={112}>
                <Pie data={data} dataKey="value" startAngle={180} endAngle={0} cx={100} cy={104} innerRadius={62} outerRadius={92}
                    stroke="none" isAnimationActive={false}>
                    <Cell fill="var(--ok)" />
                    <Cell fill="var(--surface-3)" />
                </Pie>
            </PieChart>
            <div className="gauge-value">
                <span className="gauge-number mono" data-testid="gauge-value">{probability.toFixed(2)}</span>
                <span className="muted small">P(true)</span>
            </div>
        </div>
    );
}
