import {Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis} from "recharts";
import type {HistogramBin} from "../model/histogramBins.ts";

type Props = {name: string, kind: string, bins: HistogramBin[], answered: number};

/** How one question was answered over all scored rows. */
export function QuestionHistogram({name, kind, bins, answered}: Props) {
    return (
        <div className="card histogram-card" data-testid="histogram" data-name={name}>
            <div className="answer-head">
                <span className="strong mono">{name}</span>
                <span className="badge">{kind === "yesno" ? "P(true)" : kind === "choice" ? "picked value" : "expected level"}</span>
                <span className="muted small push-right">{answered.toLocaleString("en-US")} answered</span>
            </div>
            <div className="chart" style={{height: 150}}>
                <ResponsiveContainer width="100%" height="100%">
                    <BarChart data={bins} margin={{top: 6, right: 6, bottom: 0, left: -18}}>
                        <XAxis dataKey="label" tick={{fill: "var(--text-2)", fontSize: 10}} interval={kind === "yesno" ? 1 : 0} />
                        <YAxis allowDecimals={false} tick={{fill: "var(--muted)", fontSize: 10}} />
                        <Tooltip cursor={{fill: "var(--surface-2)"}} contentStyle={{background: "var(--surface)", border: "1px solid var(--border)"}} />
                        <Bar dataKey="count" fill="var(--accent)" isAnimationActive={false} radius={[3, 3, 0, 0]} />
                    </BarChart>
                </ResponsiveContainer>
            </div>
        </div>
    );
}
