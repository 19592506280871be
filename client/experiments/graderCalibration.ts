import type {CalibrationRow, QuestionCalibration} from "../scoring/calibration.ts";
import {calibrationWarnings, fitCalibrationOutOfFold} from "../scoring/calibrationCheck.ts";
import type {QuestionInfo} from "../scoring/questions.ts";
import type {SheetRow} from "../scoring/types.ts";
import {checkNames} from "./checks.ts";
import {humanVerdict} from "./graderAgreement.ts";
import type {CellResult, Check, ExperimentSpec} from "./types.ts";

// A grader calibrated on the rows people labelled, as a question set's yes/no question is (client/scoring
// calibration.ts): the grader's score read as P(a person passes the reply), Platt-scaled on its logit,
// P' = sigmoid(logit(P) / temperature + bias), fitted by Newton's method on the log loss with Platt's smoothed
// targets. The calibration is kept on the grader check (`calibration` in the experiment file) and applied to its
// score before the threshold, so a grader that says 0.9 when people pass such replies half the time passes them at
// 0.5. The fit is measured out of fold (calibrationCheck.ts: 5 folds, each row's "after" from a fit on the other
// folds), since figures on the rows it was fitted on flatter it; with under 10 labelled rows it can only be measured
// on them, and its warnings say so. Scores of every chat variant's replies are pooled: the grader is one judge.

export class GraderCalibrationError extends Error {
    public constructor(message: string) {
        super(message);
        this.name = "GraderCalibrationError";
    }
}

type Grader = Extract<Check, {kind: "grader"}>;

/** The yes/no question a grader's score answers, as calibration reads it: does a person pass the reply? */
function graderInfo(grader: Grader): QuestionInfo {
    return {index: 0, name: grader.name, kind: "yesno", options: [{value: true, label: "yes"}, {value: false, label: "no"}]};
}

/**
 * The grader at `checkIndex` and each labelled graded reply: its score before any calibration and the person's
 * verdict. Errored cells and replies the grader refused (no grade) are left out.
 */
export function graderCalibrationRows(spec: ExperimentSpec, dataset: {columns: readonly string[], rows: readonly SheetRow[]}, cells: readonly CellResult[], checkIndex: number):
    {grader: Grader, rows: Array<{score: number, human: boolean}>} {
    const grader = spec.checks[checkIndex];
    if (grader?.kind !== "grader") throw new GraderCalibrationError(`checks[${checkIndex}] is not a grader`);
    if (grader.humanLabelColumn === undefined) throw new GraderCalibrationError(`the grader ${JSON.stringify(grader.name)} has no human label column to fit a calibration on`);
    const column = dataset.columns.indexOf(grader.humanLabelColumn);
    if (column < 0) throw new GraderCalibrationError(`the dataset has no column ${JSON.stringify(grader.humanLabelColumn)}`);
    const name = checkNames(spec.checks)[checkIndex];
    const chat = new Set(spec.variants.flatMap((variant, index) => variant.version.prompt.kind === "chat" ? [index] : []));
    const rows = cells.flatMap((cell) => {
        const result = cell.ok && chat.has(cell.variant) ? cell.checks?.find((candidate) => candidate.name === name) : undefined;
        if (result === undefined || result.detail?.startsWith("grader refused") === true) return [];
        const human = humanVerdict(grader, dataset.rows[cell.rowIndex]?.[column]);
        return human === null ? [] : [{score: result.rawScore ?? result.score, human}];
    });
    return {grader, rows};
}

/**
 * Fits the grader's calibration on this run's labelled replies (see the top of this file), with what speaks against
 * keeping it; a GraderCalibrationError when it cannot be fitted (fewer than 2 labelled replies, or people all agree).
 */
export function fitGraderCalibration(spec: ExperimentSpec, dataset: {columns: readonly string[], rows: readonly SheetRow[]}, cells: readonly CellResult[], checkIndex: number):
    {calibration: QuestionCalibration, warnings: string[]} {
    const {grader, rows} = graderCalibrationRows(spec, dataset, cells, checkIndex);
    const passed = rows.filter((row) => row.human).length;
    if (rows.length < 2 || passed === 0 || passed === rows.length)
        throw new GraderCalibrationError(`a calibration needs labelled replies that people passed and failed; the grader ${JSON.stringify(grader.name)} has ${rows.length} labelled, ${passed} passed`);
    const calibrationRows: CalibrationRow[] = rows.map((row) => ({answer: {probabilities: [row.score, 1 - row.score]}, label: row.human ? "yes" : "no"}));
    const calibration = fitCalibrationOutOfFold(graderInfo(grader), calibrationRows);
    return {calibration, warnings: calibrationWarnings(calibration)};
}

/** The experiment with `calibration` kept on the grader at `checkIndex` (null takes it off). */
export function withGraderCalibration(spec: ExperimentSpec, checkIndex: number, calibration: QuestionCalibration | null): ExperimentSpec {
    return {
        ...spec,
        checks: spec.checks.map((check, index) => {
            if (index !== checkIndex || check.kind !== "grader") return check;
            const {calibration: _old, ...rest} = check;
            return calibration === null ? rest : {...rest, calibration};
        })
    };
}
