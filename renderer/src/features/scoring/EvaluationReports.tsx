// Evaluation reports: metric tiles, per-class table, confusion matrix, ROC, reliability diagram, the decision threshold.
import {CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis, ReferenceDot} from "recharts";
import {type BinaryReport, type MulticlassReport, type ClassMetrics, type RocPoint, type ReliabilityBin, type QuestionInfo, eceBinCount, eceDefinition, brierDefinition, scoreDefinitions} from "../../../../client/scoring/index.ts";
import {chartName} from "../../ui/chartName.ts";

/** Axis ticks and titles of the evaluation charts, in the theme's muted text. */
const tick = {fill: "var(--muted)", fontSize: 10};
const axisTitle = {fill: "var(--muted)", fontSize: 11};
/** Room below and left of a chart for its axis titles. */
const titledMargin = {top: 8, right: 12, bottom: 18, left: 0};
const xTitle = (value: string) => ({value, position: "insideBottom" as const, offset: -10, style: axisTitle});
const yTitle = (value: string) => ({value, angle: -90, position: "insideLeft" as const, offset: 6, style: {...axisTitle, textAnchor: "middle" as const}});
/** Wide enough for the tick numbers and, left of them, the rotated axis title. */
const yWidth = 50;

type BinaryReportViewProps = {report: BinaryReport, onThreshold: (threshold: number) => void, name: string};

/** A yes/no question against its labels: metrics at the threshold, threshold-free scores, ROC, reliability. */
export function BinaryReportView({report, onThreshold, name}: BinaryReportViewProps) {
    const {tp, fp, tn, fn} = report.confusion;
    const falsePositiveRate = fp + tn === 0 ? null : fp / (fp + tn);
    return (
        <div className="report">
            <MetricTiles metrics={[
                {id: "accuracy", label: "Accuracy", value: report.accuracy},
                {id: "precision", label: "Precision", value: report.precision},
                {id: "recall", label: "Recall", value: report.recall},
                {id: "f1", label: "F1", value: report.f1},
                {id: "auc", label: "AUC", value: report.auc, hint: "Area under the ROC curve"},
                {id: "brier", label: "Brier", value: report.brier, hint: brierDefinition("yesno")},
                {id: "logloss", label: "Log loss", value: report.logLoss, hint: "Lower is better"},
                {id: "ece", label: "ECE", value: report.ece, hint: eceDefinition("yesno")}
            ]} />
            <div className="muted small" data-testid="binary-confusion">At {report.threshold.toFixed(2)}: {tp} true positives, {fp} false positives, {tn} true negatives, {fn} false negatives
                ({report.positives} of {report.n} labelled true).</div>
            <div className="eval-charts">
                <ThresholdPicker report={report} threshold={report.threshold} onChange={onThreshold} testId={`threshold-${name}`} />
                <RocChart roc={report.roc} auc={report.auc} current={{falsePositiveRate, recall: report.recall}} />
                <ReliabilityDiagram bins={report.reliability} ece={report.ece} kind="yesno" />
            </div>
        </div>
    );
}

/**
 * A choice or score question against its labels: per-class metrics, the confusion matrix, reliability. A score
 * question's predicted level is its most likely level; its MAE uses the expected score (scoreLevels.ts).
 */
export function MulticlassReportView({report, info}: {report: MulticlassReport, info: QuestionInfo}) {
    return (
        <div className="report">
            <MetricTiles metrics={[
                {id: "accuracy", label: "Accuracy", value: report.accuracy},
                {id: "macro-f1", label: "Macro F1", value: report.macroF1},
                {id: "brier", label: "Brier", value: report.brier, hint: brierDefinition(info.kind)},
                {id: "logloss", label: "Log loss", value: report.logLoss, hint: "Lower is better"},
                {id: "ece", label: "ECE", value: report.ece, hint: eceDefinition(info.kind)},
                ...(report.meanAbsoluteError === undefined ? [] : [{id: "mae", label: "MAE (expected score)", value: report.meanAbsoluteError,
                    hint: `Mean |expected score − labelled level|, in levels. ${scoreDefinitions.expected}`}])
            ]} />
            {info.kind === "score" && (
                <div className="muted small" data-testid="eval-score-rule" title={scoreDefinitions.predicted}>
                    Predicted level = the most likely level; the MAE uses the expected score instead.
                </div>
            )}
            <div className="eval-charts multiclass-charts">
                <div className="eval-chart per-class-box"><PerClassTable classes={report.perClass} /></div>
                <ConfusionMatrix labels={report.labels} matrix={report.confusion} predicted={info.kind === "score" ? "most likely level" : "most likely value"} />
                <ReliabilityDiagram bins={report.reliability} ece={report.ece} kind={info.kind} />
            </div>
        </div>
    );
}

type MetricTilesProps = {metrics: Array<{label: string, value: number | null | undefined, hint?: string, id: string}>};

/** A row of headline metrics. */
export function MetricTiles({metrics}: MetricTilesProps) {
    return (
        <div className="metric-tiles">
            {metrics.map((metric) => (
                <div className="metric-tile" key={metric.id} title={metric.hint} data-testid={`metric-${metric.id}`}>
                    <span className="metric-label">{metric.label}</span>
                    <span className="metric-value mono">{formatMetric(metric.value)}</span>
                </div>
            ))}
        </div>
    );
}

/** Precision, recall, F1 and support of each class. */
export function PerClassTable({classes}: {classes: ClassMetrics[]}) {
    return (
        <table className="table compact per-class" data-testid="per-class-table">
            <thead><tr><th>Class</th><th>Precision</th><th>Recall</th><th>F1</th><th title="Rows labelled with this class">Support</th>
                <th title="Rows predicted as this class: its most likely option (for a score, the most likely level)">Predicted</th></tr></thead>
            <tbody>
                {classes.map((item) => (
                    <tr key={item.label}>
                        <td className="mono">{item.label}</td>
                        <td className="mono">{formatMetric(item.precision)}</td>
                        <td className="mono">{formatMetric(item.recall)}</td>
                        <td className="mono">{formatMetric(item.f1)}</td>
                        <td className="mono">{item.support}</td>
                        <td className="mono">{item.predicted}</td>
                    </tr>
                ))}
            </tbody>
        </table>
    );
}

type ConfusionMatrixProps = {labels: string[], matrix: number[][], predicted: string};

/** Rows: the labelled class; columns: the predicted one (by the rule `predicted` names); darker is more rows. */
export function ConfusionMatrix({labels, matrix, predicted}: ConfusionMatrixProps) {
    const max = Math.max(1, ...matrix.flat());
    return (
        <div className="confusion" data-testid="confusion-matrix">
            <div className="eval-chart-title">Confusion matrix <span className="muted small" title={predicted === "most likely level" ? scoreDefinitions.predicted : undefined}>rows: label · columns: predicted ({predicted})</span></div>
            <table className="confusion-table">
                <thead><tr><th><span className="visually-hidden">label \ predicted</span></th>{labels.map((label) => <th key={label} scope="col" title={label}>{label}</th>)}</tr></thead>
                <tbody>
                    {matrix.map((row, actual) => (
                        <tr key={labels[actual]}>
                            <th scope="row" title={labels[actual]}>{labels[actual]}</th>
                            {row.map((count, predicted) => (
                                <td key={predicted} className={`mono${actual === predicted ? " diagonal" : ""}`}
                                    style={{background: `color-mix(in srgb, var(${actual === predicted ? "--ok" : "--danger"}) ${Math.round(8 + 60 * count / max)}%, transparent)`}}>{count}</td>
                            ))}
                        </tr>
                    ))}
                </tbody>
            </table>
        </div>
    );
}

type ThresholdPickerProps = {report: BinaryReport, threshold: number, onChange: (threshold: number) => void, testId: string};

/** The threshold above which a yes/no answer counts as true, with precision and recall there and across all. */
export function ThresholdPicker({report, threshold, onChange, testId}: ThresholdPickerProps) {
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
            <div className="chart" style={{height: 170}}>
                <ResponsiveContainer width="100%" height="100%">
                    <LineChart data={curve} margin={titledMargin}
                        {...chartName(`Precision and recall at every threshold; at the chosen ${threshold.toFixed(2)}: precision ${formatMetric(report.precision)}, recall ${formatMetric(report.recall)}`)}>
                        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
                        <XAxis dataKey="threshold" type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={tick} label={xTitle("threshold on P(true)")} />
                        <YAxis type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={tick} width={yWidth} label={yTitle("rate")} />
                        <Tooltip formatter={(value) => Number(value).toFixed(3)} labelFormatter={(value) => `threshold ${Number(value).toFixed(2)}`} contentStyle={{background: "var(--surface)", border: "1px solid var(--border)"}} />
                        <Line dataKey="precision" name="precision" stroke="var(--accent)" dot={false} type="stepBefore" isAnimationActive={false} connectNulls />
                        <Line dataKey="recall" name="recall" stroke="var(--ok)" strokeDasharray="6 3" dot={false} type="stepBefore" isAnimationActive={false} connectNulls />
                        <ReferenceLine x={threshold} stroke="var(--warn)" strokeDasharray="2 3" />
                    </LineChart>
                </ResponsiveContainer>
            </div>
            <ChartLegend testId={`${testId}-legend`} items={[
                {label: "precision", color: "var(--accent)"},
                {label: "recall", color: "var(--ok)", dash: "6 3"},
                {label: "chosen threshold", color: "var(--warn)", dash: "2 3"}
            ]} />
        </div>
    );
}

type ChartLegendProps = {items: Array<{label: string, color: string, dash?: string}>, testId?: string};

/** What each line of a chart is, as text beside a line sample drawn the same way. */
export function ChartLegend({items, testId}: ChartLegendProps) {
    return (
        <ul className="chart-legend" data-testid={testId}>
            {items.map((item) => (
                <li key={item.label}>
                    <svg width="22" height="8" aria-hidden="true"><line x1="1" y1="4" x2="21" y2="4" stroke={item.color} strokeWidth="2" strokeDasharray={item.dash} /></svg>
                    {item.label}
                </li>
            ))}
        </ul>
    );
}

type RocChartProps = {roc: RocPoint[], auc: number | null, current: {falsePositiveRate: number | null, recall: number | null}};

/** The ROC curve of a yes/no question with its AUC, and the point of the chosen threshold. */
export function RocChart({roc, auc, current}: RocChartProps) {
    const points = roc.map((point) => ({x: point.falsePositiveRate, tpr: point.truePositiveRate}));
    const aucText = auc === null ? "– (needs both classes)" : auc.toFixed(3);
    return (
        <div className="eval-chart" data-testid="roc-chart">
            <div className="eval-chart-title">ROC <span className="muted small" data-testid="roc-auc">AUC {aucText}</span></div>
            <div className="chart" style={{height: 200}}>
                <ResponsiveContainer width="100%" height="100%">
                    <LineChart margin={titledMargin} {...chartName(`ROC curve: true positive rate against false positive rate at every threshold; AUC ${aucText}`)}>
                        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
                        <XAxis dataKey="x" type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={tick} label={xTitle("false positive rate")} />
                        <YAxis type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={tick} width={yWidth} label={yTitle("true positive rate")} />
                        <Tooltip formatter={(value) => Number(value).toFixed(3)} contentStyle={{background: "var(--surface)", border: "1px solid var(--border)"}} />
                        <Line data={[{x: 0, chance: 0}, {x: 1, chance: 1}]} dataKey="chance" stroke="var(--muted)" strokeDasharray="4 4" dot={false} isAnimationActive={false} />
                        <Line data={points} dataKey="tpr" stroke="var(--ok)" strokeWidth={2} dot={false} type="linear" isAnimationActive={false} />
                        {current.falsePositiveRate !== null && current.recall !== null &&
                            <ReferenceDot x={current.falsePositiveRate} y={current.recall} r={5} fill="var(--warn)" stroke="none" />}
                    </LineChart>
                </ResponsiveContainer>
            </div>
            <ChartLegend items={[{label: "ROC", color: "var(--ok)"}, {label: "chance", color: "var(--muted)", dash: "4 4"}, {label: "chosen threshold (dot)", color: "var(--warn)"}]} />
        </div>
    );
}

type ReliabilityDiagramProps = {bins: ReliabilityBin[], ece: number, kind: QuestionInfo["kind"]};

/**
 * Observed rate against mean predicted probability per bin (the ECE's own bins); the diagonal is perfect
 * calibration. Yes/no: P(true) against the fraction true; choice and score: the predicted option's probability
 * against the fraction predicted right.
 */
export function ReliabilityDiagram({bins, ece, kind}: ReliabilityDiagramProps) {
    const points = bins.filter((bin) => bin.count > 0).map((bin) => ({x: bin.meanPredicted!, observed: bin.observed!, count: bin.count}));
    const [predicted, observed] = kind === "yesno" ? ["P(true)", "fraction true"] : ["probability of the pick", "fraction right"];
    return (
        <div className="eval-chart" data-testid="reliability-diagram">
            <div className="eval-chart-title">Reliability
                <span className="muted small" data-testid="reliability-ece" title={eceDefinition(kind)}>ECE {ece.toFixed(3)} · {eceBinCount} equal bins</span>
            </div>
            <div className="chart" style={{height: 200}}>
                <ResponsiveContainer width="100%" height="100%">
                    <LineChart margin={titledMargin} {...chartName(`Reliability: ${observed} against mean ${predicted} in ${points.length} of ${eceBinCount} bins; ECE ${ece.toFixed(3)}`)}>
                        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
                        <XAxis dataKey="x" type="number" domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tick={tick} label={xTitle(`mean ${predicted}`)} />
                        <YAxis type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={tick} width={yWidth} label={yTitle(observed)} />
                        <Tooltip formatter={(value) => Number(value).toFixed(3)} contentStyle={{background: "var(--surface)", border: "1px solid var(--border)"}} />
                        <Line data={[{x: 0, perfect: 0}, {x: 1, perfect: 1}]} dataKey="perfect" stroke="var(--muted)" strokeDasharray="4 4" dot={false} isAnimationActive={false} />
                        <Line data={points} dataKey="observed" stroke="var(--accent)" strokeWidth={2} dot={{r: 4, fill: "var(--accent)"}} isAnimationActive={false} />
                    </LineChart>
                </ResponsiveContainer>
            </div>
        </div>
    );
}

/** A metric for display: 3 decimals, `–` when undefined on the data (e.g. precision with nothing predicted). */
export function formatMetric(value: number | null | undefined, digits = 3): string {
    return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits);
}
