import {useState} from "react";
import {fitCalibration, type CalibrationRow, type QuestionCalibration, type QuestionInfo} from "../../../../client/scoring/index.ts";
import {useQuestionSetStore} from "../../decisions/state/useQuestionSetStore.ts";
import {formatMetric} from "./formatMetric.ts";

type Props = {info: QuestionInfo, rows: () => CalibrationRow[], saved: QuestionCalibration | null};

/**
 * Fits a calibration on the labelled rows (Platt scaling for yes/no, temperature scaling otherwise, on the
 * server's own probabilities), shows log loss, Brier and ECE before and after, and saves it with the question
 * set, whose later runs (Decision studio cards, scoring jobs) then show calibrated answers marked as such.
 */
export function CalibrationPanel({info, rows, saved}: Props) {
    const [fitted, setFitted] = useState<QuestionCalibration | null>(null);
    const [error, setError] = useState<string | null>(null);
    const setCalibration = useQuestionSetStore((state) => state.setCalibration);
    const shown = fitted ?? saved;
    return (
        <div className="calibration-panel" data-testid={`calibration-${info.name}`}>
            <div className="row-gap">
                <span className="eval-chart-title">Calibration</span>
                <button type="button" className="btn btn-sm" data-testid="calibration-fit" onClick={() => {
                    try {
                        setFitted(fitCalibration(info, rows()));
                        setError(null);
                    } catch (caught) {
                        setError((caught as Error).message);
                    }
                }}>Fit on these labels</button>
                {fitted && <button type="button" className="btn btn-sm btn-primary" data-testid="calibration-save" onClick={() => {
                    setCalibration(info.name, fitted);
                    setFitted(null);
                }}>Save with the question set</button>}
                {saved && !fitted && <>
                    <span className="badge badge-accent" data-testid="calibration-saved">saved · applied to later runs</span>
                    <button type="button" className="btn btn-sm btn-ghost" data-testid="calibration-remove" onClick={() => setCalibration(info.name, null)}>Remove</button>
                </>}
            </div>
            {error && <div className="field-error" role="alert">{error}</div>}
            {shown && (
                <table className="table compact calibration-table" data-testid="calibration-table">
                    <thead><tr><th>{shown.method === "platt" ? "Platt scaling" : "Temperature scaling"}</th><th>Log loss</th><th>Brier</th><th>ECE</th></tr></thead>
                    <tbody>
                        <tr><td>before</td><td className="mono">{formatMetric(shown.before.logLoss)}</td><td className="mono">{formatMetric(shown.before.brier)}</td><td className="mono">{formatMetric(shown.before.ece)}</td></tr>
                        <tr><td>after</td><td className="mono" data-testid="calibration-after-logloss">{formatMetric(shown.after.logLoss)}</td><td className="mono">{formatMetric(shown.after.brier)}</td><td className="mono">{formatMetric(shown.after.ece)}</td></tr>
                    </tbody>
                    <tfoot><tr><td colSpan={4} className="muted small">
                        temperature {shown.temperature.toFixed(3)}{shown.method === "platt" ? `, bias ${shown.bias.toFixed(3)}` : ""} · fitted on {shown.fittedOn} rows
                        {shown.heldOut ? `, measured on ${shown.evaluatedOn} held-out rows` : " (measured on the same rows: optimistic)"}
                        {fitted ? " · not saved yet" : ""}
                    </td></tr></tfoot>
                </table>
            )}
        </div>
    );
}
