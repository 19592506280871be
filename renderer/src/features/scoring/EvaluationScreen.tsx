// The Evaluation screen: each question's answers against a label column, and fitting a calibration into the question set.
import {useEffect, useMemo, useState, type ReactNode} from "react";
import {calibrateAnswer, evaluateQuestion, type QuestionInfo, type CalibrationRow, type QuestionCalibration, guessLabelColumn, fitCalibrationOutOfFold, calibrationWarnings, eceDefinition} from "../../../../client/scoring/index.ts";
import {useNavStore} from "../../ui/appState.ts";
import {useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {BinaryReportView, MulticlassReportView, formatMetric} from "./EvaluationReports.tsx";
import {chosenLabelColumn, useEvaluationSettings} from "./evaluationSettings.ts";
import {rawAnswersOf} from "./scoringModel.ts";
import {refreshSavedJobs} from "./scoringJob.ts";
import {useScoringStore, type ScoringJob} from "./scoringStore.ts";
import "./scoring.css";

/**
 * The last scoring job's answers against label columns of its table: metrics per question, and calibration.
 * `actions` are what features built on this one offer for the job (the app shell passes Experiments' "Open as
 * experiment"), so this feature imports none of them.
 */
export function EvaluationScreen({actions}: {actions?: ReactNode}) {
    const job = useScoringStore((state) => state.job);
    const progress = useScoringStore((state) => state.progress);
    const go = useNavStore((state) => state.go);
    const saved = useScoringStore((state) => state.savedJobs.length);
    useEffect(() => {
        if (job === null) void refreshSavedJobs();
    }, [job === null]);
    if (job === null) return (
        <div className="page" data-testid="evaluation-screen">
            <div className="empty-state" data-testid="evaluation-empty">
                {saved > 0
                    ? <>Open one of your {saved} saved scoring job{saved === 1 ? "" : "s"} on <button type="button" className="link-btn" onClick={() => go("scoring")}>Spreadsheet scoring</button>, or score a table there. Its columns can then serve as labels.</>
                    : <>Score a table first: <button type="button" className="link-btn" onClick={() => go("scoring")}>Spreadsheet scoring</button>. Its columns can then serve as labels.</>}
            </div>
        </div>
    );
    return (
        <div className="page evaluation-page" data-testid="evaluation-screen">
            <div className="row-gap">
                <div className="muted small" data-testid="evaluation-job">
                    {job.table.fileName} · {job.spec.questionSet.name || "untitled question set"} · {progress ? `${progress.succeeded.toLocaleString("en-US")} answered rows` : "…"}{progress?.status === "running" ? " (still scoring: figures update)" : ""}
                </div>
                {actions}
            </div>
            {job.infos.map((info, index) => <QuestionEvaluationCard key={info.name} job={job} info={info} index={index} />)}
        </div>
    );
}

type QuestionEvaluationCardProps = {job: ScoringJob, info: QuestionInfo, index: number};

const kindLabels = {yesno: "predicate", choice: "choice", score: "score"} as const;

/** One question against a label column: its report, and its calibration. */
export function QuestionEvaluationCard({job, info, index}: QuestionEvaluationCardProps) {
    const version = useScoringStore((state) => state.resultsVersion);
    const chosen = useEvaluationSettings((state) => state.labelColumns[info.name]);
    const threshold = useEvaluationSettings((state) => state.thresholds[info.name] ?? 0.5);
    const setLabelColumn = useEvaluationSettings((state) => state.setLabelColumn);
    const setThreshold = useEvaluationSettings((state) => state.setThreshold);
    const saved = useQuestionSetStore((state) => state.draft.calibration?.[info.name] ?? null);
    const fits = saved !== null && saved.kind === info.kind;
    const [applySaved, setApplySaved] = useState(true);
    const columns = job.table.columns;
    const labelColumn = chosenLabelColumn(chosen, columns, () => guessLabelColumn(info.name, columns));
    const labelIndex = labelColumn === null ? -1 : columns.indexOf(labelColumn);
    const calibrated = fits && applySaved;

    // Rows paired with their labels, from the server's own answers; calibrated when the saved calibration is applied.
    const rawRows = useMemo(() => labelIndex < 0 ? [] : job.table.rows.map((row, rowIndex) => ({answer: rawAnswersOf(job, rowIndex)?.[index] ?? null, label: row[labelIndex]})),
        [job, index, labelIndex, version]); // version: more rows answered
    const evaluation = useMemo(() => {
        if (labelIndex < 0) return null;
        const rows = calibrated ? rawRows.map((row) => ({...row, answer: row.answer === null ? null : calibrateAnswer(info, saved!, row.answer)})) : rawRows;
        return evaluateQuestion(info, rows, {threshold});
    }, [rawRows, calibrated, saved, info, threshold, labelIndex]);

    return (
        <section className="card eval-card" data-testid="eval-card" data-name={info.name}>
            <div className="card-title-row">
                <h3 className="mono">{info.name}</h3>
                <span className="badge">{kindLabels[info.kind]}</span>
                {evaluation?.calibrated && <span className="badge badge-accent" data-testid="eval-calibrated">calibrated</span>}
                <label className="row-gap small push-right">Label column
                    <select className="input input-sm" value={labelColumn ?? ""} data-testid={`eval-label-${info.name}`}
                        onChange={(event) => setLabelColumn(info.name, event.target.value)}>
                        <option value="">none</option>
                        {columns.map((column) => <option key={column} value={column}>{column}</option>)}
                    </select>
                </label>
                {fits && (
                    <label className="check small">
                        <input type="checkbox" checked={applySaved} onChange={(event) => setApplySaved(event.target.checked)} data-testid="eval-apply-calibration" />
                        apply saved calibration
                    </label>
                )}
            </div>
            {evaluation === null && <div className="empty-state small">Pick the column that holds the right answer for {info.name}.</div>}
            {evaluation !== null && (
                <>
                    <div className="muted small" data-testid="eval-used">
                        {evaluation.used.toLocaleString("en-US")} rows used · {evaluation.skipped.unlabelled} unlabelled · {evaluation.skipped.unanswered} unanswered
                        {evaluation.skipped.unknownLabel > 0 && <> · <span className="field-warning inline">{evaluation.skipped.unknownLabel} with a label that names no option ({evaluation.unknownLabels.map((label) => JSON.stringify(label)).join(", ")})</span></>}
                    </div>
                    {evaluation.report === null
                        ? <div className="empty-state small">No row is both answered and labelled yet.</div>
                        : evaluation.report.kind === "binary"
                            ? <BinaryReportView report={evaluation.report} name={info.name} onThreshold={(value) => setThreshold(info.name, value)} />
                            : <MulticlassReportView report={evaluation.report} info={info} />}
                    {/* A fit belongs to the labels it was made on: another label column starts without it. */}
                    <CalibrationPanel key={labelColumn ?? ""} info={info} saved={fits ? saved : null} rows={() => rawRows} usable={evaluation.used} />
                </>
            )}
        </section>
    );
}

/** `usable`: the rows both answered and labelled with one of the question's options, which a fit can learn from. */
type CalibrationPanelProps = {info: QuestionInfo, rows: () => CalibrationRow[], saved: QuestionCalibration | null, usable: number};

/**
 * Fits a calibration on the labelled rows (Platt scaling for yes/no, temperature scaling otherwise, on the
 * server's own probabilities) and shows log loss, Brier and ECE before and after, measured out of fold (each row
 * by a fit on the other rows). A fit that stopped at the end of its range or does not help on rows it did not
 * see says so, and is only saved on purpose. A saved one is applied to the question set's later runs
 * (Decision studio cards, scoring jobs), which show calibrated answers marked as such. Without a usable row there is
 * nothing to fit on. The panel is remounted for another label column, so a fit made on one is never offered for another.
 */
export function CalibrationPanel({info, rows, saved, usable}: CalibrationPanelProps) {
    const [fitted, setFitted] = useState<QuestionCalibration | null>(null);
    const [error, setError] = useState<string | null>(null);
    const setCalibration = useQuestionSetStore((state) => state.setCalibration);
    const shown = fitted ?? saved;
    const warnings = shown === null ? [] : calibrationWarnings(shown);
    const save = () => {
        if (fitted === null) return;
        if (warnings.length > 0 && !confirm(`Save this calibration of ${info.name} anyway?\n\n${warnings.join("\n\n")}`)) return;
        setCalibration(info.name, fitted);
        setFitted(null);
    };
    return (
        <div className="calibration-panel" data-testid={`calibration-${info.name}`}>
            <div className="row-gap calibration-actions">
                <span className="eval-chart-title">Calibration</span>
                <button type="button" className="btn btn-sm" data-testid="calibration-fit" disabled={usable === 0}
                    title={usable === 0 ? "No row is both answered and labelled with one of the question's options: there is nothing to fit on" : undefined} onClick={() => {
                    try {
                        setFitted(fitCalibrationOutOfFold(info, rows()));
                        setError(null);
                    } catch (caught) {
                        setError((caught as Error).message);
                    }
                }}>Fit on these labels</button>
                {fitted && (warnings.length === 0
                    ? <button type="button" className="btn btn-sm btn-primary" data-testid="calibration-save" onClick={save}>Save with the question set</button>
                    : <button type="button" className="btn btn-sm btn-ghost" data-testid="calibration-save" data-warned="true" title="It did not pass the checks above: saving asks first" onClick={save}>Save anyway…</button>)}
                {saved && !fitted && <>
                    <span className="badge badge-accent" data-testid="calibration-saved">saved · applied to later runs</span>
                    <button type="button" className="btn btn-sm btn-ghost" data-testid="calibration-remove" onClick={() => setCalibration(info.name, null)}>Remove</button>
                </>}
            </div>
            {error && <div className="field-error" role="alert">{error}</div>}
            {warnings.length > 0 && (
                <div role="alert">
                    <ul className="field-warning calibration-warnings" data-testid="calibration-warnings">
                        {warnings.map((warning) => <li key={warning}>{warning}</li>)}
                    </ul>
                </div>
            )}
            {shown && (
                <table className="table compact calibration-table" data-testid="calibration-table">
                    <thead><tr><th>{shown.method === "platt" ? "Platt scaling" : "Temperature scaling"}</th><th>Log loss</th><th>Brier</th><th title={eceDefinition(info.kind)}>ECE</th></tr></thead>
                    <tbody>
                        <tr><td>before</td><td className="mono">{formatMetric(shown.before.logLoss)}</td><td className="mono">{formatMetric(shown.before.brier)}</td><td className="mono" data-testid="calibration-before-ece">{formatMetric(shown.before.ece)}</td></tr>
                        <tr><td>after</td><td className="mono" data-testid="calibration-after-logloss">{formatMetric(shown.after.logLoss)}</td><td className="mono">{formatMetric(shown.after.brier)}</td><td className="mono">{formatMetric(shown.after.ece)}</td></tr>
                    </tbody>
                    <tfoot><tr><td colSpan={4} className="muted small calibration-note" data-testid="calibration-note">
                        temperature {shown.temperature.toFixed(3)}{shown.method === "platt" ? `, bias ${shown.bias.toFixed(3)}` : ""} · fitted on {shown.fittedOn} rows
                        {shown.heldOut
                            ? shown.folds ? `, measured out of fold on ${shown.evaluatedOn} rows (${shown.folds} folds: each row by a fit on the others)` : `, measured on ${shown.evaluatedOn} held-out rows`
                            : " (measured on the same rows: optimistic)"}
                        {fitted ? " · not saved yet" : ""}
                    </td></tr></tfoot>
                </table>
            )}
        </div>
    );
}
