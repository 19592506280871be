import {test} from "node:test";
import assert from "node:assert/strict";
import {seededRandom} from "../../test/support/seededRandom.ts";
import {parseQuestionSet, questionInfos} from "./questions.ts";
import {fitCalibration, softmax, type CalibrationRow} from "./calibration.ts";
import {calibrationWarnings, fitCalibrationOutOfFold} from "./calibrationCheck.ts";

/** Seeded, so the synthetic sets are the same on every run. */
const random = seededRandom;

const [yesno, choice] = questionInfos(parseQuestionSet({questions: [
    {type: "predicate", name: "spam", instructions: "Is it spam?"},
    {type: "choice", name: "colour", instructions: "Colour?", choices: [{value: "red"}, {value: "green"}, {value: "blue"}]}
]}).normalized);
const colours = ["red", "green", "blue"];
const round = (p: number) => Math.round(p * 100) / 100;

/** Answers that lean one way or another, with labels that have nothing to do with them: each answer once per label. */
function noSignal(count: number, seed: number): CalibrationRow[] {
    const next = random(seed);
    return Array.from({length: count}, () => softmax([next(), next(), next()].map((value) => value * 3)).map(round))
        .flatMap((probabilities) => colours.map((label) => ({answer: {probabilities}, label})));
}

/** Miscalibrated answers: the truth is softmax(logits), the model reports softmax(scale x logits). */
function miscalibrated(count: number, seed: number, scale: number): CalibrationRow[] {
    const next = random(seed);
    return Array.from({length: count}, () => {
        const logits = [next() * 3, next() * 3, next() * 3];
        const truth = softmax(logits);
        const draw = next();
        return {answer: {probabilities: softmax(logits.map((value) => value * scale)).map(round)}, label: draw < truth[0] ? "red" : draw < truth[0] + truth[1] ? "green" : "blue"};
    });
}
const overConfident = (count: number, seed: number) => miscalibrated(count, seed, 2.5);

test("answers that carry no signal: the fit stops at the top of its range, and saying so is the first warning", () => {
    const fitted = fitCalibrationOutOfFold(choice, noSignal(17, 3));
    assert.ok(Math.abs(fitted.temperature - 20) < 0.01, `temperature ${fitted.temperature}`);
    assert.equal(fitted.heldOut, true);
    assert.equal(fitted.folds, 5);
    assert.equal(fitted.evaluatedOn, 51);
    const warnings = calibrationWarnings(fitted);
    assert.match(warnings[0], /^Temperature 20\.000 is at the end of the range a fit is held to \(0\.05–20\)/);
});

test("over-confident answers: measured out of fold it still helps, inside the range, with nothing to warn about", () => {
    const fitted = fitCalibrationOutOfFold(choice, overConfident(400, 5));
    assert.ok(fitted.temperature > 2 && fitted.temperature < 3, `temperature ${fitted.temperature}`);
    assert.ok(fitted.after.logLoss < fitted.before.logLoss, `log loss ${fitted.before.logLoss} -> ${fitted.after.logLoss}`);
    assert.deepEqual(calibrationWarnings(fitted), []);
    // The saved parameters are the fit on every row; only the figures are out of fold.
    assert.equal(fitted.temperature, fitCalibration(choice, overConfident(400, 5)).temperature);
});

test("a fit that does worse on rows it was not fitted on is flagged", () => {
    // Timid answers, sharpened by the fit; held-out rows whose labels belong to other rows punish the sharpening.
    const fitting = miscalibrated(300, 7, 0.4);
    const heldOut = miscalibrated(200, 8, 0.4).map((row, index, all) => ({...row, label: all[(index + 1) % all.length].label}));
    const fitted = fitCalibration(choice, fitting, heldOut);
    assert.ok(fitted.after.logLoss >= fitted.before.logLoss, `log loss ${fitted.before.logLoss} -> ${fitted.after.logLoss}`);
    assert.match(calibrationWarnings(fitted).join("\n"), /does not lower the log loss/);
});

test("too few rows to hold any out: measured on its own rows, which is flagged", () => {
    const fitted = fitCalibrationOutOfFold(choice, overConfident(8, 9));
    assert.equal(fitted.heldOut, false);
    assert.match(calibrationWarnings(fitted).join("\n"), /Measured on the 8 rows it was fitted on/);
});

test("Platt scaling of yes/no answers with no signal stops at the end of the range (temperature 20, not a million) and is flagged", () => {
    // Each answer once labelled true and once false: P(true) says nothing about the label.
    const next = random(11);
    const rows: CalibrationRow[] = Array.from({length: 30}, () => round(0.3 + 0.4 * next()))
        .flatMap((p) => [true, false].map((label) => ({answer: {probabilities: [p, 1 - p]}, label})));
    const fitted = fitCalibrationOutOfFold(yesno, rows);
    assert.equal(fitted.method, "platt");
    assert.ok(Math.abs(fitted.temperature - 20) < 1e-9, `temperature ${fitted.temperature}`);
    assert.match(calibrationWarnings(fitted)[0], /^Temperature 20\.000 is at the end of the range a fit is held to \(0\.05–20\): it flattens every answer/);
});
