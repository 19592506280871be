import {useMemo, useState} from "react";
import {calibrateAnswer, evaluateQuestion, type QuestionInfo} from "../../../../client/scoring/index.ts";
import {useQuestionSetStore} from "../../decisions/state/useQuestionSetStore.ts";
import {guessLabelColumn} from "../model/guessLabelColumn.ts";
import {rawAnswersOf} from "../results/jobCaches.ts";
import {useScoringStore, type ScoringJob} from "../state/useScoringStore.ts";
import {BinaryReportView} from "./BinaryReportView.tsx";
import {CalibrationPanel} from "./CalibrationPanel.tsx";
import {MulticlassReportView} from "./MulticlassReportView.tsx";

type Props = {job: ScoringJob, info: QuestionInfo, index: number};

const kindLabels = {yesno: "predicate", choice: "choice", score: "score"} as const;

/** One question against a label column: its report, and its calibration. */
export function QuestionEvaluationCard({job, info, index}: Props) {
    const version = useScoringStore((state) => state.resultsVersion);
    const chosen = useScoringStore((state) => state.labelColumns[info.name]);
    const threshold = useScoringStore((state) => state.thresholds[info.name] ?? 0.5);
    const set = useScoringStore((state) => state.set);
    const saved = useQuestionSetStore((state) => state.draft.calibration?.[info.name] ?? null);
    const fits = saved !== null && saved.kind === info.kind;
    const [applySaved, setApplySaved] = useState(true);
    const columns = job.table.columns;
    const labelColumn = chosen === undefined ? guessLabelColumn(info.name, columns) : chosen === "" ? null : chosen;
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
                        onChange={(event) => set({labelColumns: {...useScoringStore.getState().labelColumns, [info.name]: event.target.value}})}>
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
                            ? <BinaryReportView report={evaluation.report} name={info.name} onThreshold={(value) => set({thresholds: {...useScoringStore.getState().thresholds, [info.name]: value}})} />
                            : <MulticlassReportView report={evaluation.report} />}
                    <CalibrationPanel info={info} saved={fits ? saved : null} rows={() => rawRows} />
                </>
            )}
        </section>
    );
}
