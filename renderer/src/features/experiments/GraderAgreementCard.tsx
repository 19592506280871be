// Graders measured against human labels: per chat variant and grader with a human label column, its sensitivity,
// specificity, ECE (and a calibrated grader's ECE before and after), Cohen's κ on the labelled rows and its pass rate
// corrected for its errors, each column's definition on hover. Written by client/experiments/graderAgreementText, as
// in the HTML report and the CLI. Each such grader can be calibrated from the labelled replies, and the experiment
// run again with it.
import {useState} from "react";
import {describeCalibrationFit, graderAgreementColumns, graderAgreementNote, graderAgreementRows} from "../../../../client/experiments/graderAgreementText.ts";
import type {ExperimentSummary} from "../../../../client/experiments/types.ts";
import {useExperimentStore, type OpenExperiment} from "./experimentStore.ts";
import {fitOpenGrader, runWithCalibration, type GraderFit} from "./graderCalibrationRun.ts";
import {DefinitionTable} from "./DefinitionTable.tsx";

/** What the fit's button says on hover: how it is fitted, and why its figures are measured out of fold. */
const fitDefinition = "Fits Platt scaling of the grader's score to the replies people labelled (the calibration question sets use: " +
    "P' = sigmoid(logit(P) / temperature + bias)), pooling every chat variant's replies. Its ECE before → after is measured out of fold: " +
    "the rows are dealt to 5 folds and each row's calibrated score comes from a fit on the other four, so the figure is not flattered by " +
    "fitting and measuring on the same rows (with under 10 labelled replies it can only be measured on them, and says so). A run with it is " +
    "judged on these same labelled rows, so its agreement figures are in-sample: judge it on rows labelled later.";

export function GraderAgreementCard({summary}: {summary: ExperimentSummary}) {
    const open = useExperimentStore((state) => state.open);
    const rows = graderAgreementRows(summary);
    if (rows.length === 0) return null;
    return (
        <section className="card exp-graders" data-testid="exp-graders">
            <div className="card-title-row"><h3>Graders against human labels</h3></div>
            <DefinitionTable columns={graderAgreementColumns} rows={rows} rowTestId="exp-grader-row" label="Graders against human labels" />
            <div className="muted small">{graderAgreementNote}</div>
            {open !== null && open.spec.checks.map((check, index) => check.kind === "grader" && check.humanLabelColumn !== undefined
                ? <CalibrationFit key={index} open={open} checkIndex={index} name={check.name} /> : null)}
        </section>
    );
}

function CalibrationFit({open, checkIndex, name}: {open: OpenExperiment, checkIndex: number, name: string}) {
    const busy = useExperimentStore((state) => state.busy);
    const [fit, setFit] = useState<GraderFit | null>(null);
    return (
        <div className="exp-grader-fit" data-testid="exp-grader-fit">
            <button type="button" className="btn btn-sm" disabled={busy} title={fitDefinition} data-testid="exp-grader-fit-button" onClick={() => setFit(fitOpenGrader(open, checkIndex))}>
                Fit calibration of {name} from the labelled rows
            </button>
            {fit !== null && "error" in fit && <span className="field-warning" data-testid="exp-grader-fit-error">{fit.error}</span>}
            {fit !== null && "calibration" in fit && <>
                <span className="small" data-testid="exp-grader-fit-result" title={fitDefinition}>
                    Platt scaling on {fit.calibration.fittedOn} labelled replies, temperature {fit.calibration.temperature.toFixed(3)}, bias {fit.calibration.bias.toFixed(3)};
                    ECE {describeCalibrationFit({...fit.calibration, eceBefore: fit.calibration.before.ece, eceAfter: fit.calibration.after.ece})}.
                </span>
                {fit.warnings.map((warning) => <span key={warning} className="field-warning small" data-testid="exp-grader-fit-warning">{warning}</span>)}
                <button type="button" className="btn btn-sm" disabled={busy} data-testid="exp-grader-fit-run"
                    title="A new experiment, this one with the calibration on the grader (kept in Setup too): its replies and grades come from the response cache when reusing answers is on"
                    onClick={() => void runWithCalibration(checkIndex, fit.calibration)}>Run with this calibration</button>
            </>}
        </div>
    );
}
