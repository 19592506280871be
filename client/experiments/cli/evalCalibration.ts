import {describeCalibrationFit} from "../graderAgreementText.ts";
import {fitGraderCalibration, GraderCalibrationError, withGraderCalibration} from "../graderCalibration.ts";
import type {InputProblem} from "../dataset.ts";
import type {CellResult, Dataset, ExperimentSpec} from "../types.ts";

// `svc-studio eval --fit-grader-calibration <file>`: after the run, each grader with a humanLabelColumn is calibrated
// on the replies people labelled (graderCalibration.ts: Platt scaling, measured out of fold), and the experiment file
// is written again, as it was read, with each fitted calibration on its grader, for later runs to score with.

/** The graders that can be calibrated (with a human label column); a problem when --fit-grader-calibration has none. */
export function calibratedGraders(spec: ExperimentSpec, problems: InputProblem[]): number[] {
    const graders = spec.checks.flatMap((check, index) => check.kind === "grader" && check.humanLabelColumn !== undefined ? [index] : []);
    if (graders.length === 0) problems.push({path: "--fit-grader-calibration", message: "no grader of the experiment has a humanLabelColumn to fit a calibration on"});
    return graders;
}

/**
 * `written` (the experiment as read) with each grader at `graders` calibrated on the run's labelled replies; says
 * each fit (or why a grader could not be fitted, which keeps it as it was) through `log`.
 */
export function fitGraderCalibrations(written: ExperimentSpec, ran: ExperimentSpec, dataset: Dataset, cells: readonly CellResult[], graders: readonly number[], log: (line: string) => void): ExperimentSpec {
    let spec = written;
    for (const index of graders) {
        const name = ran.checks[index].kind === "grader" ? ran.checks[index].name : String(index);
        try {
            const {calibration, warnings} = fitGraderCalibration(ran, dataset, cells, index);
            spec = withGraderCalibration(spec, index, calibration);
            log(`--fit-grader-calibration: ${name}: Platt scaling on ${calibration.fittedOn} labelled replies (temperature ${calibration.temperature.toFixed(3)}, ` +
                `bias ${calibration.bias.toFixed(3)}); ECE ${describeCalibrationFit({...calibration, eceBefore: calibration.before.ece, eceAfter: calibration.after.ece})}`);
            for (const warning of warnings) log(`--fit-grader-calibration: ${name}: warning: ${warning}`);
        } catch (error) {
            if (!(error instanceof GraderCalibrationError)) throw error;
            log(`--fit-grader-calibration: ${name}: not fitted, ${error.message}`);
        }
    }
    return spec;
}
