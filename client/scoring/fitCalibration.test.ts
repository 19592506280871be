import {test} from "node:test";
import assert from "node:assert/strict";
import {seededRandom} from "../../test/support/seededRandom.ts";
import {parseQuestionSet, questionInfos, type NormalizedAnswer} from "./questions.ts";
import {calibrateAnswer, calibrateProbabilities, sigmoid, softmax, fitCalibration, type CalibrationRow, readCalibrationSet, fitPlatt} from "./calibration.ts";
import {evaluateQuestion} from "./evaluation.ts";

/** Seeded, so the synthetic sets are the same on every run. */
const random = seededRandom;

const [yesno, choice] = questionInfos(parseQuestionSet({questions: [
    {type: "predicate", name: "spam", instructions: "Is it spam?"},
    {type: "choice", name: "colour", instructions: "Colour?", choices: [{value: "red"}, {value: "green"}, {value: "blue"}]}
]}).normalized);

const logit = (p: number) => Math.log(p / (1 - p));
/** Answers rounded to hundredths, as the API sends them. */
const round = (p: number) => Math.round(p * 100) / 100;

/**
 * Yes/no rows whose true chance is q (uniform in [0.05, 0.95]) while the model answers sigmoid(3 logit(q) + 0.6):
 * over-confident (temperature 3 would undo it) and leaning to yes (bias -0.6 / 3 = -0.2 after scaling).
 */
function miscalibratedYesNo(count: number, seed: number): CalibrationRow[] {
    const next = random(seed);
    return Array.from({length: count}, () => {
        const q = 0.05 + 0.9 * next();
        const p = round(sigmoid(3 * logit(q) + 0.6));
        return {answer: {probabilities: [p, 1 - p]}, label: next() < q};
    });
}

test("Platt calibration of over-confident, biased yes/no answers: recovers temperature ~3, bias ~-0.2, and improves log loss, Brier and ECE", () => {
    const fitted = fitCalibration(yesno, miscalibratedYesNo(3000, 7));
    assert.equal(fitted.method, "platt");
    assert.equal(fitted.fittedOn, 3000);
    // Below 3 rather than at it: rounding to hundredths and the 0.005 floor flatten the extreme logits.
    assert.ok(fitted.temperature > 2.2 && fitted.temperature < 3.6, `temperature ${fitted.temperature}`);
    assert.ok(fitted.bias > -0.35 && fitted.bias < -0.05, `bias ${fitted.bias}`);
    assert.ok(fitted.after.logLoss < fitted.before.logLoss - 0.05, `log loss ${fitted.before.logLoss} -> ${fitted.after.logLoss}`);
    assert.ok(fitted.after.brier < fitted.before.brier, `brier ${fitted.before.brier} -> ${fitted.after.brier}`);
    assert.ok(fitted.after.ece < fitted.before.ece / 2, `ece ${fitted.before.ece} -> ${fitted.after.ece}`);

    // On rows it never saw, the fit still helps: the honest figure the UI shows.
    const heldOut = fitCalibration(yesno, miscalibratedYesNo(1500, 11), miscalibratedYesNo(1000, 12));
    assert.equal(heldOut.heldOut, true);
    assert.equal(heldOut.evaluatedOn, 1000);
    assert.ok(heldOut.after.logLoss < heldOut.before.logLoss - 0.05, `held-out log loss ${heldOut.before.logLoss} -> ${heldOut.after.logLoss}`);
});

test("Platt's Newton fit is the minimum: no point of a grid around it has a lower (smoothed-target) log loss", () => {
    const rows = miscalibratedYesNo(200, 3);
    const logits = rows.map((row) => logit(Math.min(0.995, Math.max(0.005, row.answer!.probabilities[0]))));
    const labels = rows.map((row) => row.label === true);
    const positives = labels.filter(Boolean).length;
    const high = (positives + 1) / (positives + 2), low = 1 / (labels.length - positives + 2);
    const loss = (a: number, b: number) => logits.reduce((sum, z, index) => {
        const s = sigmoid(a * z + b), t = labels[index] ? high : low;
        return sum - t * Math.log(s) - (1 - t) * Math.log(1 - s);
    }, 0);
    const {a, b} = fitPlatt(logits, labels);
    const best = loss(a, b);
    for (let da = -0.05; da <= 0.05; da += 0.01)
        for (let db = -0.05; db <= 0.05; db += 0.01)
            assert.ok(loss(a + da, b + db) >= best - 1e-9, `(${a + da}, ${b + db}) beats the fit`);
});

test("temperature scaling of over-confident choice answers: recovers ~2.5, improves log loss, keeps every pick", () => {
    const next = random(5);
    const rows: CalibrationRow[] = Array.from({length: 2000}, () => {
        const logits = [next() * 3, next() * 3, next() * 3];
        const truth = softmax(logits);
        const reported = softmax(logits.map((value) => value * 2.5)).map(round);
        const draw = next();
        const label = draw < truth[0] ? "red" : draw < truth[0] + truth[1] ? "green" : "blue";
        return {answer: {probabilities: reported}, label};
    });
    const fitted = fitCalibration(choice, rows);
    assert.equal(fitted.method, "temperature");
    assert.equal(fitted.bias, 0);
    assert.ok(fitted.temperature > 2.1 && fitted.temperature < 2.9, `temperature ${fitted.temperature}`);
    assert.ok(fitted.after.logLoss < fitted.before.logLoss - 0.05, `log loss ${fitted.before.logLoss} -> ${fitted.after.logLoss}`);
    assert.ok(fitted.after.ece < fitted.before.ece, `ece ${fitted.before.ece} -> ${fitted.after.ece}`);
    // The 1-D search found the minimum: nearby temperatures do no better.
    const nll = (temperature: number) => rows.reduce((sum, row) => {
        const label = ["red", "green", "blue"].indexOf(row.label as string);
        return sum - Math.log(calibrateProbabilities({method: "temperature", temperature, bias: 0}, row.answer!.probabilities)[label]);
    }, 0);
    assert.ok(nll(fitted.temperature) <= nll(fitted.temperature * 1.02) && nll(fitted.temperature) <= nll(fitted.temperature / 1.02));
});

test("well-calibrated answers are left nearly alone", () => {
    const next = random(9);
    const rows: CalibrationRow[] = Array.from({length: 3000}, () => {
        const q = round(0.05 + 0.9 * next());
        return {answer: {probabilities: [q, 1 - q]}, label: next() < q};
    });
    const fitted = fitCalibration(yesno, rows);
    assert.ok(fitted.temperature > 0.85 && fitted.temperature < 1.18, `temperature ${fitted.temperature}`);
    assert.ok(Math.abs(fitted.bias) < 0.12, `bias ${fitted.bias}`);
    assert.ok(fitted.after.logLoss <= fitted.before.logLoss + 1e-9);
});

test("a calibration is plain JSON: saved in the question set, read back, applied to later answers, always marked calibrated", () => {
    const fitted = fitCalibration(choice, [
        {answer: {probabilities: [0.9, 0.05, 0.05]}, label: "green"},
        {answer: {probabilities: [0.9, 0.05, 0.05]}, label: "red"},
        {answer: {probabilities: [0.1, 0.8, 0.1]}, label: "blue"},
        {answer: {probabilities: [0.2, 0.2, 0.6]}, label: "blue"}
    ]);
    const saved = JSON.parse(JSON.stringify({questions: [{type: "choice", name: "colour", instructions: "Colour?", choices: [{value: "red"}, {value: "green"}, {value: "blue"}]}], calibration: {colour: fitted}}));
    const {questionSet} = parseQuestionSet(saved);
    assert.deepEqual(questionSet.calibration, {colour: fitted});
    assert.throws(() => readCalibrationSet({colour: {...fitted, method: "platt"}}), /method/);

    const answer: NormalizedAnswer = {probabilities: [0.9, 0.05, 0.05], choice: "red", confidence: 0.85, explanation: "Looks red."};
    const calibrated = calibrateAnswer(choice, questionSet.calibration!.colour, answer);
    assert.equal(calibrated.calibrated, true);
    assert.equal(calibrated.choice, "red", "temperature never changes the pick");
    assert.equal(calibrated.explanation, "Looks red.");
    assert.ok(Math.abs(calibrated.probabilities.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    // Over-confident on these rows: the calibrated top probability is lower, and the confidence follows spec 2.8.
    assert.ok(fitted.temperature > 1 && calibrated.probabilities[0] < 0.9);
    const top = calibrated.probabilities[0];
    assert.ok(Math.abs(calibrated.confidence! - (3 * top - 1) / 2) < 1e-12);
    assert.throws(() => calibrateAnswer(yesno, fitted, answer), /does not fit/);
});

test("a calibration's before figures are the evaluation report's own: same predicted option on ties, same ECE bins", () => {
    // Answers rounded to hundredths tie; the server's pick (from unrounded values) is the second of the tied options.
    const rows: CalibrationRow[] = [
        {answer: {probabilities: [0.4, 0.4, 0.2], choice: "green"}, label: "green"},
        {answer: {probabilities: [0.4, 0.4, 0.2], choice: "green"}, label: "green"},
        {answer: {probabilities: [0.35, 0.35, 0.3], choice: "green"}, label: "green"},
        {answer: {probabilities: [0.7, 0.2, 0.1], choice: "red"}, label: "blue"},
        {answer: {probabilities: [0.1, 0.2, 0.7], choice: "blue"}, label: "blue"}
    ];
    const report = evaluateQuestion(choice, rows).report!;
    const fitted = fitCalibration(choice, rows);
    assert.equal(fitted.before.ece, report.ece);
    assert.equal(fitted.before.brier, report.brier);
    assert.equal(fitted.before.logLoss, report.logLoss);
    // The same holds after: the calibrated answers' report is the table's "after".
    const after = evaluateQuestion(choice, rows.map((row) => ({...row, answer: calibrateAnswer(choice, fitted, row.answer!)}))).report!;
    assert.equal(fitted.after.ece, after.ece);
});
