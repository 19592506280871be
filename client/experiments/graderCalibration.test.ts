import {test} from "node:test";
import assert from "node:assert/strict";
import {fitGraderCalibration, GraderCalibrationError, graderCalibrationRows, withGraderCalibration} from "./graderCalibration.ts";
import {calibratedGraderScore} from "./graderQuestions.ts";
import {compileChecks} from "./checks.ts";
import {checkExperimentInput} from "./dataset.ts";
import {parseExperimentSpec, serializeExperimentSpec} from "./experimentFile.ts";
import {summarizeExperiment} from "./summary.ts";
import {graderAgreementRows} from "./graderAgreementText.ts";
import {chatVariant, experiment} from "./testExperiment.ts";
import type {CellResult, Check, Dataset, ExperimentSpec} from "./types.ts";

// Ten rows a person labelled (polite_label), each reply of two chat variants graded; the grader is over-confident.
const rowLabels = ["yes", "yes", "no", "yes", "no", "no", "yes", "yes", "no", "yes"];
const scores = [0.97, 0.92, 0.88, 0.95, 0.12, 0.30, 0.85, 0.91, 0.08, 0.60, 0.99, 0.45, 0.93, 0.15, 0.72, 0.96, 0.05, 0.89, 0.55, 0.81];
const dataset: Dataset = {id: "d", name: "polite", columns: ["topic", "polite_label"], columnTypes: ["string", "string"], rows: rowLabels.map((label, index) => [`topic ${index}`, label]),
    labelColumns: ["polite_label"], inputColumns: ["topic"], createdAt: 0, updatedAt: 0};
const grader: Check = {kind: "grader", name: "polite", question: "Is the reply polite?", template: "{{reply}}", humanLabelColumn: "polite_label"};

function spec(checks: Check[] = [grader]): ExperimentSpec {
    return {...experiment([chatVariant("A", "m"), chatVariant("B", "m")]), dataset, checks};
}

/** Row-major cells (row 0 A, row 0 B, ...), each with the grader's score `scores[i]` at threshold 0.5. */
const cells: CellResult[] = scores.map((score, index) => ({rowIndex: Math.floor(index / 2), variant: index % 2, ok: true, request: {}, reply: "r",
    checks: [{name: "polite", pass: score >= 0.5, score}], latencyMs: 1, attempts: 1, completedAt: 0}));

test("a grader's Platt calibration, fitted on its labelled replies and measured out of fold, matches scipy", () => {
    const {calibration, warnings} = fitGraderCalibration(spec(), dataset, cells, 0);
    // scipy.optimize.minimize (BFGS, then Nelder-Mead to 1e-12) of Platt's smoothed-target log loss
    // Σ t·softplus(−(a·z + b)) + (1 − t)·softplus(a·z + b), z = logit(clip(score, 0.005, 0.995)),
    // t = (N+ + 1)/(N+ + 2) for a pass and 1/(N− + 2) for a fail, on all 20 replies: a = 0.407061675, b = 0.031907572.
    assert.equal(calibration.method, "platt");
    assert.equal(calibration.kind, "yesno");
    assert.ok(Math.abs(calibration.temperature - 1 / 0.407061675336191) < 1e-5, `temperature ${calibration.temperature}`);
    assert.ok(Math.abs(calibration.bias - 0.0319075716281841) < 1e-5, `bias ${calibration.bias}`);
    assert.equal(calibration.fittedOn, 20);
    // Out of fold, as numpy does it: reply i in fold i mod 5, each fold's scores calibrated by a fit on the other four;
    // ECE over 10 equal-width bins: 0.2 before, 0.2844928674 after (on these few rows the fit does not help).
    assert.equal(calibration.heldOut, true);
    assert.equal(calibration.folds, 5);
    assert.ok(Math.abs(calibration.before.ece - 0.2) < 1e-9);
    assert.ok(Math.abs(calibration.after.ece - 0.2844928674023174) < 1e-5, `out-of-fold ECE ${calibration.after.ece}`);
    assert.ok(warnings.some((warning) => /does not lower the log loss/.test(warning)), warnings.join(" | "));
    // sigmoid(a·logit(0.9) + b) in numpy.
    assert.ok(Math.abs(calibratedGraderScore({calibration}, 0.9) - 0.7163267742185129) < 1e-5);
    assert.equal(calibratedGraderScore({}, 0.9), 0.9, "a grader with no calibration keeps its score");
});

test("a calibrated grader: its score is calibrated before the threshold, its raw score kept, and a refit reads the raw score", async () => {
    const {calibration} = fitGraderCalibration(spec(), dataset, cells, 0);
    const calibrated = withGraderCalibration(spec(), 0, calibration);
    const compiled = compileChecks(calibrated.checks, dataset.columns);
    // P(yes) = 0.6 reads as sigmoid(0.407·logit(0.6) + 0.032) = 0.54908066 (numpy): still a pass at 0.5; 0.45 reads
    // as 0.48756 and fails.
    const grade = (probability: number) => async () => ({type: "predicate" as const, name: "polite", probability});
    const [passed] = await compiled.run("r", ["t", "yes"], grade(0.6), {} as never, undefined);
    assert.ok(Math.abs(passed.score - 0.5490806604785153) < 1e-5, String(passed.score));
    assert.equal(passed.rawScore, 0.6);
    assert.equal(passed.pass, true);
    assert.match(passed.detail ?? "", /P\(yes\) = 0\.600, calibrated 0\.549/);
    const [failed] = await compiled.run("r", ["t", "yes"], grade(0.45), {} as never, undefined);
    assert.equal(failed.pass, false, `0.45 → ${failed.score}`);
    // Cells graded by the calibrated grader refit to the same calibration: the fit reads their raw scores.
    const regraded = cells.map((cell) => ({...cell, checks: cell.checks!.map((result) => ({...result, rawScore: result.score, score: calibratedGraderScore({calibration}, result.score)}))}));
    assert.deepEqual(graderCalibrationRows(calibrated, dataset, regraded, 0).rows.map((row) => row.score), scores);
    assert.ok(Math.abs(fitGraderCalibration(calibrated, dataset, regraded, 0).calibration.bias - calibration.bias) < 1e-12);
});

test("the agreement reports the ECE before and after calibration, the experiment file keeps the calibration, and the input checks warn", () => {
    const {calibration} = fitGraderCalibration(spec(), dataset, cells, 0);
    const calibrated = withGraderCalibration(spec(), 0, calibration);
    const regraded = cells.map((cell) => ({...cell, checks: cell.checks!.map((result) => {
        const score = calibratedGraderScore({calibration}, result.score);
        return {...result, rawScore: result.score, score, pass: score >= 0.5};
    })}));
    const summary = summarizeExperiment(calibrated, dataset, regraded);
    const agreement = summary.variants[0].graders![0];
    // Variant A's replies (even indexes): the ECE of their raw scores over 10 bins, 0.214 by numpy, beside that of the
    // calibrated ones, and the fit's out-of-fold figures.
    assert.ok(agreement.calibration !== undefined);
    assert.equal(agreement.calibration.uncalibratedEce.n, 10);
    assert.ok(Math.abs(agreement.calibration.uncalibratedEce.value! - 0.214) < 1e-9, String(agreement.calibration.uncalibratedEce.value));
    assert.ok(Math.abs(agreement.calibration.eceAfter - calibration.after.ece) < 1e-12);
    const [row] = graderAgreementRows(summary);
    assert.match(row[5], /^\d\.\d{3} → \d\.\d{3}; fit 0\.200 → 0\.284 out of fold \(5 folds, 20 rows\)$/);
    const file = parseExperimentSpec(serializeExperimentSpec(calibrated));
    assert.deepEqual(file.checks[0].kind === "grader" ? file.checks[0].calibration : null, calibration);
    const input = checkExperimentInput(calibrated, dataset, dataset.rows.map((_, index) => index));
    assert.ok(input.warnings.some((warning) => warning.path === "checks[0].calibration" && /does not lower the log loss/.test(warning.message)));
    const wrongKind = JSON.parse(serializeExperimentSpec(calibrated)) as {checks: Array<{calibration: {kind: string, method: string}}>};
    wrongKind.checks[0].calibration.kind = "choice";
    wrongKind.checks[0].calibration.method = "temperature";
    assert.throws(() => parseExperimentSpec(wrongKind), /checks\[0\]\.calibration\.kind: must be "yesno"/);
    assert.throws(() => fitGraderCalibration(spec([{...grader, humanLabelColumn: undefined}]), dataset, cells, 0), GraderCalibrationError);
    assert.throws(() => fitGraderCalibration(spec(), dataset, cells.slice(0, 1), 0), /needs labelled replies that people passed and failed/);
});
