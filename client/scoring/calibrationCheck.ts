// Whether a fitted calibration is worth saving: measured on rows it was not fitted on, and not stuck at the edge
// of the range its temperature was searched in.
import type {QuestionInfo} from "./questions.ts";
import {calibrateAnswer, calibrationScores, fitCalibration, labelledAnswers, temperatureRange, type CalibrationRow, type QuestionCalibration} from "./calibration.ts";

/** Folds of the out-of-fold measurement; below two rows per fold a calibration is measured on its fitting rows. */
export const calibrationFolds = 5;

/**
 * Fits a calibration on every labelled row (what is saved) and measures it out of fold: the rows are dealt to
 * `folds` folds in turn (row i to fold i mod k), and each row's "after" comes from a fit on the other folds, so
 * before / after say how the method does on rows it did not see. With fewer than two rows per fold the figures
 * are measured on the fitting rows (`heldOut` false), which calibrationWarnings flags.
 */
export function fitCalibrationOutOfFold(info: QuestionInfo, rows: readonly CalibrationRow[], folds = calibrationFolds): QuestionCalibration {
    const full = fitCalibration(info, rows);
    const usable = rows.filter((row) => labelledAnswers(info, [row]).length === 1);
    if (usable.length < 2 * folds) return full;
    const outOfFold: CalibrationRow[] = [];
    for (let fold = 0; fold < folds; fold++) {
        const held = usable.filter((_, index) => index % folds === fold);
        const fitted = fitCalibration(info, usable.filter((_, index) => index % folds !== fold));
        for (const row of held) outOfFold.push({...row, answer: calibrateAnswer(info, fitted, row.answer!)});
    }
    return {
        ...full,
        before: calibrationScores(info, labelledAnswers(info, usable)),
        after: calibrationScores(info, labelledAnswers(info, outOfFold)),
        evaluatedOn: usable.length,
        heldOut: true,
        folds
    };
}

/** How near the ends of the searched range (in log temperature) counts as having stopped at one. */
const boundTolerance = 1e-3;

/**
 * What speaks against saving a calibration, in words; empty when nothing does. A temperature at an end of the range
 * fits are held to means the best fit lies at the edge or beyond: at the upper end every answer
 * is flattened toward an even split (the labels show little link to the answers), at the lower end pushed toward
 * certainty. A fit that does not lower the log loss on rows it was not fitted on does not help; one measured only
 * on its own fitting rows cannot show that it does.
 */
export function calibrationWarnings(calibration: QuestionCalibration): string[] {
    const warnings: string[] = [];
    const [low, high] = temperatureRange;
    const temperature = calibration.temperature;
    // Both methods are held to the range, so a fit at an end is one whose best lies there or beyond; a fit saved before
    // the range held Platt's temperature can lie past it.
    const atHigh = Math.log(temperature / high) > -boundTolerance;
    const atLow = Math.log(temperature / low) < boundTolerance;
    if (atHigh) warnings.push(`Temperature ${temperature.toFixed(3)} is at the end of the range a fit is held to (${low}–${high}): it flattens every answer toward an even split, so the labels show little link to these answers.`);
    if (atLow) warnings.push(`Temperature ${temperature.toFixed(3)} is at the end of the range a fit is held to (${low}–${high}): it pushes every answer toward certainty.`);
    if (!calibration.heldOut)
        warnings.push(`Measured on the ${calibration.fittedOn} rows it was fitted on: too few labelled rows (under ${2 * calibrationFolds}) to check it on rows it did not see.`);
    else if (calibration.after.logLoss >= calibration.before.logLoss)
        warnings.push(`On rows it was not fitted on it does not lower the log loss (${calibration.before.logLoss.toFixed(3)} before, ${calibration.after.logLoss.toFixed(3)} after).`);
    return warnings;
}
