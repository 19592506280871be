import {Bar, BarChart, Cell, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis} from "recharts";
import type {AnswerOptionView} from "../model/answerViews.ts";

type Props = {options: AnswerOptionView[]};

/** One horizontal bar per choice value, the pick highlighted, probabilities at the bar ends. */
export function ChoiceBars({options}: Props) {
    const data = options.map((option) => ({label: option.label, probability: option.probability, picked: option.picked}));
    const height = Math.max(80, 28 * data.length + 16);
    return (
        <div className="chart" data-testid="choice-bars" style={{height}}>
            <ResponsiveContainer width="100%" height="100%">
                <BarChart data={data} layout="vertical" margin={{top: 4, right: 44, bottom: 4, left: 4}}>
                    <XAxis type="number" domain={[0, 1]} hide />
                    <YAxis type="category" dataKey="label" width={110} tick={{fill: "var(--text-2)", fontSize: 12}} axisLine={false} tickLine={false} interval={0} />
                    <Tooltip cursor={{fill: "var(--surface-2)"}} formatter={(value) => Number(value).toFixed(2)} contentStyle={{background: "var(--surface)", border: "1px solid var(--border)"}} />
                    <Bar dataKey="probability" isAnimationActive={false} radius={[0, 4, 4, 0]} background={{fill: "var(--surface-2)"}}>
                        {data.map((entry) => <Cell key={entry.label} fill={entry.picked ? "var(--accent)" : "var(--border-strong)"} />)}
                        <LabelList dataKey="probability" position="right" formatter={(value) => Number(value).toFixed(2)} fill="var(--text-2)" fontSize={12} />
                    </Bar>
                </BarChart>
            </ResponsiveContainer>
        </div>
    );
}
