import {Bar, BarChart, Cell, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis} from "recharts";
import type {AnswerOptionView} from "../model/answerViews.ts";

type Props = {options: AnswerOptionView[], score: number};

/** The probability of each level, lowest first, with the expected score marked between them. */
export function ScoreDistribution({options, score}: Props) {
    const data = options.map((option, level) => ({level, label: option.label, probability: option.probability}));
    return (
        <div className="chart score-chart" data-testid="score-distribution">
            <ResponsiveContainer width="100%" height={150}>
                <BarChart data={data} margin={{top: 22, right: 12, bottom: 4, left: 0}}>
                    <XAxis dataKey="level" type="number" domain={[-0.5, data.length - 0.5]} ticks={data.map((entry) => entry.level)} allowDecimals={false}
                        tick={{fill: "var(--text-2)", fontSize: 11}} interval="preserveStartEnd" />
                    <YAxis domain={[0, 1]} width={32} tick={{fill: "var(--muted)", fontSize: 11}} tickCount={3} />
                    <Tooltip cursor={{fill: "var(--surface-2)"}} formatter={(value) => Number(value).toFixed(2)} labelFormatter={(level) => data[Number(level)]?.label ?? ""}
                        contentStyle={{background: "var(--surface)", border: "1px solid var(--border)"}} />
                    <Bar dataKey="probability" isAnimationActive={false} barSize={Math.max(12, 160 / data.length)} radius={[4, 4, 0, 0]}>
                        {data.map((entry) => <Cell key={entry.level} fill="var(--accent)" fillOpacity={0.35 + 0.65 * entry.probability} />)}
                    </Bar>
                    <ReferenceLine x={score} stroke="var(--warn)" strokeWidth={2} strokeDasharray="4 3"
                        label={{value: `expected ${score.toFixed(2)}`, position: "top", fill: "var(--warn)", fontSize: 11}} />
                </BarChart>
            </ResponsiveContainer>
            <div className="level-legend" data-testid="level-legend">
                {options.map((option, level) => <span key={level} className={option.picked ? "picked" : ""}>{option.label}</span>)}
            </div>
        </div>
    );
}
