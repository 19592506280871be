// Running the builder's set and its result: an answer card per question, with its charts, and the run's figures.
import {useEffect, useRef} from "react";
import {Bar, BarChart, Cell, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis, Pie, PieChart, ReferenceLine} from "recharts";
import {scoreReadingParts, scoreDefinitions} from "../../../../client/scoring/index.ts";
import {activeConnection, useGatewayState} from "../../gateway/gatewayState.ts";
import {ApiErrorView} from "../../ui/ApiErrorView.tsx";
import {chartName} from "../../ui/chartName.ts";
import {Icon} from "../../ui/controls.tsx";
import type {QuestionFormat} from "../questionSet/draft.ts";
import type {AnswerView, AnswerOptionView} from "../questionSet/requests.ts";
import {RawExchange} from "./RawExchange.tsx";
import {runBuild, stopBuild} from "./run.ts";
import {isStale, useCurrentRequestBody} from "./staleness.ts";
import {useDecisionRunStore, type DecisionRunResult} from "./studioState.ts";

/** Run / Stop for the builder, and the last run's answers. */
export function RunPanel() {
    const running = useDecisionRunStore((state) => state.running);
    const result = useDecisionRunStore((state) => state.result);
    const {data: gateway} = useGatewayState();
    const connection = activeConnection(gateway);
    const status = running ? "running" : result?.status ?? "idle";
    const current = useCurrentRequestBody();
    const stale = !running && result !== null && isStale(result, current);
    // New answers scroll into view: below a long question list they would otherwise arrive unseen.
    const panel = useRef<HTMLElement>(null);
    useEffect(() => {
        if (result !== null) panel.current?.scrollIntoView({block: "start", behavior: "smooth"});
    }, [result]);
    return (
        <section className="run-panel" data-testid="decision-run-panel" ref={panel}>
            <div className="run-bar">
                {running
                    ? <button type="button" className="btn btn-danger" data-testid="decision-stop" onClick={stopBuild}><Icon name="stop" /> Stop</button>
                    : <button type="button" className="btn btn-primary" data-testid="decision-run" title="Ctrl+Enter" onClick={() => void runBuild()}><Icon name="play" /> Run</button>}
                <span className={`status-badge status-${status === "done" ? "done" : status === "error" ? "error" : status === "stopped" ? "stopped" : status === "running" ? "running" : "idle"}`}
                    data-testid="decision-status">{status}</span>
                <span className="muted small">on {connection.name}</span>
                {stale && <span className="badge badge-warn" data-testid="decision-stale" title="These answers are to the request the last Run sent; the question set or the input has changed since">
                    stale: the set or the input changed since this run</span>}
            </div>
            {result
                ? <RunResultView result={result} testId="decision-result" />
                : <div className="reply-empty muted">Run the questions to see one answer card per question.</div>}
        </section>
    );
}

/** A run's answer cards and figures, its error as the server sent it, or the note that it was stopped. */
export function RunResultView({result, testId}: {result: DecisionRunResult, testId: string}) {
    return (
        <div className="run-result" data-testid={testId} data-status={result.status}>
            {result.error && <ApiErrorView error={result.error} />}
            {result.status === "stopped" && <div className="field-warning">Stopped before the answers came.</div>}
            {result.views && (
                <div className="answer-grid">
                    {result.views.map((view) => <AnswerCard key={view.name} view={view} format={result.format} />)}
                </div>
            )}
            {result.status !== "error" || result.usage ? <RunMeta result={result} /> : null}
            <RawExchange result={result} testId={`${testId}-raw`} />
        </div>
    );
}

const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

/** Usage (spec 2.3) and latency of one decision run: Server-Timing from the server, the total measured here. */
export function RunMeta({result}: {result: DecisionRunResult}) {
    return (
        <div className="run-stats" data-testid="decision-meta">
            {result.usage && (
                <div className="stat-group" data-testid="decision-usage">
                    {Object.entries(result.usage).map(([key, value]) => (
                        <span className="stat" key={key}><span className="stat-label">{key}</span><span className="stat-value mono">{value}</span></span>
                    ))}
                </div>
            )}
            <div className="stat-group">
                {result.serverTimingMs !== null && <span className="stat" data-testid="decision-server-timing"><span className="stat-label">Server-Timing</span><span className="stat-value mono">{ms(result.serverTimingMs)}</span></span>}
                <span className="stat" data-testid="decision-total"><span className="stat-label">total</span><span className="stat-value mono">{ms(result.durationMs)}</span></span>
                {result.attempts !== null && result.attempts > 1 && <span className="stat"><span className="stat-label">attempts</span><span className="stat-value mono">{result.attempts}</span></span>}
                <span className="stat"><span className="stat-label">via</span><span className="stat-value">{result.connectionName}</span></span>
            </div>
        </div>
    );
}

const kindLabels = {
    decisions: {yesno: "predicate", choice: "choice", score: "score"},
    systemone: {yesno: "noul", choice: "choice", score: "score"}
} as const;

/** One answer: its chart, pick, confidence, the sum of its probabilities, and the explanation when asked for. */
export function AnswerCard({view, format}: {view: AnswerView, format: QuestionFormat}) {
    const sum = view.options.reduce((total, option) => total + option.probability, 0);
    return (
        <article className="card answer-card" data-testid="answer-card" data-kind={view.kind} data-name={view.name}>
            <div className="answer-head">
                <span className="strong mono">{view.name}</span>
                <span className="badge">{kindLabels[format][view.kind]}</span>
                {view.calibrated && <span className="badge badge-accent" data-testid="answer-calibrated" title="Probabilities went through the calibration saved with the set">calibrated</span>}
                <span className="push-right answer-pick mono" data-testid="answer-pick"
                    title={view.kind === "score" ? `${scoreDefinitions.expected}\n${scoreDefinitions.predicted}` : undefined}>
                    {view.kind === "yesno" && (view.probability! >= 0.5 ? "true" : "false")}
                    {view.kind === "choice" && String(view.choice)}
                    {view.kind === "score" && scoreReadingParts({expected: view.score!, mostLikely: mostLikelyOf(view)}).map((part, index) =>
                        <span key={part} className="nowrap">{index > 0 ? " · " : ""}{part}</span>)}
                </span>
            </div>
            {view.kind === "yesno" && <ProbabilityGauge probability={view.probability!} />}
            {view.kind === "choice" && <ChoiceBars options={view.options} name={view.name} />}
            {view.kind === "score" && <ScoreDistribution options={view.options} score={view.score!} name={view.name} />}
            <div className="answer-stats">
                {view.confidence !== null && <span className="stat"><span className="stat-label">confidence</span><span className="stat-value mono" data-testid="answer-confidence">{view.confidence.toFixed(2)}</span></span>}
                <span className="stat" title="Sum of the probabilities shown"><span className="stat-label">Σ p</span><span className="stat-value mono" data-testid="prob-sum">{sum.toFixed(2)}</span></span>
                {view.serverProbabilities && (
                    <span className="stat" title="The server's probabilities, before calibration">
                        <span className="stat-label">server</span>
                        <span className="stat-value mono">{view.serverProbabilities.map((probability) => probability.toFixed(2)).join(" / ")}</span>
                    </span>
                )}
            </div>
            {view.labelMass !== null && <LabelMass mass={view.labelMass} />}
            {view.explanation !== null && <p className="answer-explanation" data-testid="answer-explanation">{view.explanation}</p>}
        </article>
    );
}

/**
 * Below this label mass the card warns. At 0.5 the model puts more of its next-token probability on words that are
 * not any option's label than on the labels: the probabilities shown are then a renormalised remainder of what the
 * model wanted to say, and a prompt change (clearer instructions, options it can name) tends to move them a lot.
 */
export const lowLabelMass = 0.5;

/** The local engine's label mass of one answer, with a warning when the prompt pulls the model off the labels. */
function LabelMass({mass}: {mass: number}) {
    const low = mass < lowLabelMass;
    return (
        <div className={`label-mass${low ? " low" : ""}`} data-testid="answer-label-mass" data-low={low}>
            <span className="stat" title="Share of the model's next-token probability that fell on this question's labels (local engine only)">
                <span className="stat-label">label mass</span>
                <span className="stat-value mono" data-testid="answer-label-mass-value">{mass.toFixed(2)}</span>
            </span>
            {low && (
                <span className="field-warning" data-testid="answer-label-mass-warning">
                    Below {lowLabelMass.toFixed(2)}: the prompt makes the model want to say something other than the labels, so these probabilities are shaky.
                </span>
            )}
        </div>
    );
}

/** A score answer's predicted level: the option its view marks picked, the most likely level (scoreLevels.ts). */
function mostLikelyOf(view: AnswerView): number {
    return Math.max(0, view.options.findIndex((option) => option.picked));
}

/** Each option with its probability, as an image's name reads them: "price 0.40, quality 0.35". */
const optionsText = (options: AnswerOptionView[]) => options.map((option) => `${option.label} ${option.probability.toFixed(2)}`).join(", ");

type ChoiceBarsProps = {options: AnswerOptionView[], name: string};

/** One horizontal bar per choice value, the pick highlighted, probabilities at the bar ends. */
export function ChoiceBars({options, name}: ChoiceBarsProps) {
    const data = options.map((option) => ({label: option.label, probability: option.probability, picked: option.picked}));
    const height = Math.max(80, 28 * data.length + 16);
    return (
        <div className="chart" data-testid="choice-bars" style={{height}}>
            <ResponsiveContainer width="100%" height="100%">
                <BarChart data={data} layout="vertical" margin={{top: 4, right: 44, bottom: 4, left: 4}} {...chartName(`${name}: probability of each choice: ${optionsText(options)}`)}>
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

type ProbabilityGaugeProps = {probability: number};

/** P(true) of a yes/no answer as a half-circle gauge, the number in its middle. */
export function ProbabilityGauge({probability}: ProbabilityGaugeProps) {
    const data = [{name: "true", value: probability}, {name: "false", value: Math.max(0, 1 - probability)}];
    return (
        <div className="gauge" data-testid="gauge" role="img" aria-label={`Probability of true: ${probability.toFixed(2)}`}>
            <PieChart width={200} height={112} aria-hidden accessibilityLayer={false}>
                <Pie data={data} dataKey="value" startAngle={180} endAngle={0} cx={100} cy={104} innerRadius={62} outerRadius={92}
                    stroke="none" isAnimationActive={false} rootTabIndex={-1}>
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

type ScoreDistributionProps = {options: AnswerOptionView[], score: number, name: string};

/**
 * The probability of each level, lowest first, with the expected score marked between them; below, every level
 * with its probability as text (read by keyboard and screen reader users too), the most likely one marked.
 */
export function ScoreDistribution({options, score, name}: ScoreDistributionProps) {
    const data = options.map((option, level) => ({level, label: option.label, probability: option.probability}));
    return (
        <div className="chart score-chart" data-testid="score-distribution">
            <ResponsiveContainer width="100%" height={150}>
                <BarChart data={data} margin={{top: 22, right: 12, bottom: 4, left: 0}}
                    {...chartName(`${name}: probability of each level, lowest first; the dashed line marks the expected score ${score.toFixed(2)}. The levels are listed below the chart.`)}>
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
            <ul className="level-legend" data-testid="level-legend" aria-label={`${name}: probability of each level`}>
                {options.map((option, level) => (
                    <li key={level} className={option.picked ? "picked" : ""} data-testid="level-probability" title={option.picked ? scoreDefinitions.predicted : undefined}>
                        {option.label} <span className="mono">{option.probability.toFixed(2)}</span>{option.picked && <span className="level-mark"> most likely</span>}
                    </li>
                ))}
            </ul>
        </div>
    );
}
