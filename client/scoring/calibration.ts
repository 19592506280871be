import type {NormalizedAnswer, QuestionInfo} from "./questions.ts";
import type {CellValue} from "./types.ts";
import {argmax} from "./metrics.ts";
import {readLabel, clipProbability, reportOf, type ReadLabelledAnswer} from "./evaluation.ts";
import {expectedScore} from "./scoreLevels.ts";
import {confidence} from "../../protocol/decisions/distributions.ts";
import {readEnum, readInteger, readNumber, readObject, readString, required, type FieldPath} from "../../protocol/validation.ts";

/** Log loss, Brier score and ECE of one question's answers on the rows a calibration was judged on. */
export type CalibrationScores = {logLoss: number, brier: number, ece: number};

/**
 * A fitted calibration of one question, plain JSON so it can be saved in the question set (`calibration`,
 * keyed by question name) and applied to the answers of later runs.
 * - `platt` (yes/no): P' = sigmoid(logit(P) / temperature + bias)
 * - `temperature` (choice, score): P'_k proportional to P_k^(1 / temperature); the ranking is unchanged
 * A temperature above 1 softens over-confident answers, below 1 sharpens timid ones. Probabilities are
 * clipped to [0.005, 0.995] first (answers are rounded to hundredths, so 0 means "below 0.005").
 */
export type QuestionCalibration = {
    version: 1,
    question: string,
    kind: "yesno" | "choice" | "score",
    method: "platt" | "temperature",
    temperature: number,
    /** Platt only; 0 for temperature scaling. */
    bias: number,
    /** Labelled rows it was fitted on. */
    fittedOn: number,
    /** Scores on the evaluation rows (the fitting rows unless separate ones were given) before and after. */
    before: CalibrationScores,
    after: CalibrationScores,
    /** Rows `before` / `after` were measured on, and whether they were the fitting rows themselves. */
    evaluatedOn: number,
    heldOut: boolean,
    /** Measured out of fold (calibrationCheck.ts): each row's `after` from a fit on the other folds. */
    folds?: number,
    fittedAt: string
};

export type CalibrationSet = Record<string, QuestionCalibration>;

const inverseGolden = (Math.sqrt(5) - 1) / 2;

/** The minimum of a unimodal `f` on [low, high], to within `tolerance` of x. */
export function goldenSection(f: (x: number) => number, low: number, high: number, tolerance = 1e-7): number {
    let a = low, b = high;
    let c = b - inverseGolden * (b - a), d = a + inverseGolden * (b - a);
    let fc = f(c), fd = f(d);
    while (b - a > tolerance) {
        if (fc <= fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - inverseGolden * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + inverseGolden * (b - a);
            fd = f(d);
        }
    }
    return (a + b) / 2;
}

// Platt scaling on the logit: P' = sigmoid(a * z + b), z = logit(P), fitted by Newton's method on the log loss.
// As in Platt (1999) the 0/1 targets are smoothed to (N+ + 1) / (N+ + 2) and 1 / (N- + 2): on rows the model
// already separates perfectly the unsmoothed optimum is a = infinity, which would turn every later answer to 0 or 1.
// The temperature 1 / a is held to the range temperature scaling searches (temperatureRange): answers that say nothing
// about the labels would otherwise drive a toward 0, a temperature of a million that flattens every answer to one value.

export type PlattFit = {a: number, b: number};

export function fitPlatt(logits: readonly number[], labels: readonly boolean[]): PlattFit {
    const [lowest, highest] = [1 / temperatureRange[1], 1 / temperatureRange[0]];
    const positives = labels.filter(Boolean).length;
    const negatives = labels.length - positives;
    const high = (positives + 1) / (positives + 2), low = 1 / (negatives + 2);
    const targets = labels.map((label) => label ? high : low);
    const loss = (a: number, b: number) => {
        let sum = 0;
        logits.forEach((z, index) => {
            const x = a * z + b;
            // -[t log s(x) + (1 - t) log(1 - s(x))] = t * softplus(-x) + (1 - t) * softplus(x)
            sum += targets[index] * softplus(-x) + (1 - targets[index]) * softplus(x);
        });
        return sum;
    };
    let a = 1, b = 0, current = loss(a, b);
    for (let iteration = 0; iteration < 100; iteration++) {
        let ga = 0, gb = 0, haa = 0, hab = 0, hbb = 0;
        logits.forEach((z, index) => {
            const s = sigmoid(a * z + b);
            const residual = s - targets[index], weight = s * (1 - s);
            ga += residual * z;
            gb += residual;
            haa += weight * z * z;
            hab += weight * z;
            hbb += weight;
        });
        if (Math.hypot(ga, gb) < 1e-10 * logits.length) break;
        const determinant = haa * hbb - hab * hab;
        // Newton's direction; plain gradient descent when the Hessian is singular (all logits equal).
        const newton = determinant > 1e-12 * Math.max(1, haa * hbb);
        const da = newton ? -(hbb * ga - hab * gb) / determinant : -ga;
        const db = newton ? -(haa * gb - hab * ga) / determinant : -gb;
        const slope = ga * da + gb * db;
        let improved = false;
        for (let step = 1, halvings = 0; halvings < 60; halvings++, step /= 2) {
            // a stays in its range (so positive: a calibration may soften or sharpen the answers but never turn them
            // around); a step past an end stops at it.
            const na = Math.min(highest, Math.max(lowest, a + step * da)), nb = b + step * db;
            const next = loss(na, nb);
            if (next <= current + 1e-4 * step * slope) {
                improved = current - next > 1e-14 * Math.max(1, current);
                a = na;
                b = nb;
                current = next;
                break;
            }
        }
        if (!improved) break;
    }
    return {a, b};
}

function softplus(x: number): number {
    return Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)));
}

export type CalibrationRow = {answer: NormalizedAnswer | null, label: CellValue};

/** Temperatures a fit is held to: searched for choice / score questions, the bound of Platt's 1 / a for yes/no. */
export const temperatureRange = [0.05, 20] as const;

/**
 * Fits a calibration of one question on labelled rows by minimising the log loss: Platt scaling (temperature
 * and bias on the logit, Newton's method) for yes/no, temperature scaling (golden-section search on log T) for
 * choice and score. Rows without an answer or a known label are left out. `before` / `after` are measured on
 * `heldOutRows` when given (the honest figure), else on the fitting rows.
 */
export function fitCalibration(info: QuestionInfo, rows: readonly CalibrationRow[], heldOutRows?: readonly CalibrationRow[]): QuestionCalibration {
    const fitting = labelledAnswers(info, rows);
    if (fitting.length < 2) throw new RangeError(`fitCalibration: ${JSON.stringify(info.name)} needs at least 2 answered, labelled rows, got ${fitting.length}`);
    const evaluation = heldOutRows === undefined ? fitting : labelledAnswers(info, heldOutRows);
    if (evaluation.length === 0) throw new RangeError(`fitCalibration: no answered, labelled held-out rows for ${JSON.stringify(info.name)}`);

    let parameters: Pick<QuestionCalibration, "method" | "temperature" | "bias">;
    if (info.kind === "yesno") {
        const logits = fitting.map(({answer}) => {
            const p = clipProbability(answer.probabilities[0]);
            return Math.log(p / (1 - p));
        });
        const {a, b} = fitPlatt(logits, fitting.map((row) => row.label === 0));
        parameters = {method: "platt", temperature: 1 / a, bias: b};
    } else {
        const logProbabilities = fitting.map(({answer}) => answer.probabilities.map((p) => Math.log(clipProbability(p))));
        const negativeLogLikelihood = (logTemperature: number) => {
            const temperature = Math.exp(logTemperature);
            let sum = 0;
            logProbabilities.forEach((logits, index) => {
                sum -= Math.log(softmax(logits.map((logit) => logit / temperature))[fitting[index].label]);
            });
            return sum;
        };
        const logTemperature = goldenSection(negativeLogLikelihood, Math.log(temperatureRange[0]), Math.log(temperatureRange[1]));
        parameters = {method: "temperature", temperature: Math.exp(logTemperature), bias: 0};
    }

    return {
        version: 1,
        question: info.name,
        kind: info.kind,
        ...parameters,
        fittedOn: fitting.length,
        before: calibrationScores(info, evaluation),
        after: calibrationScores(info, evaluation.map((row) => ({...row, answer: applyCalibration(info, parameters, row.answer)}))),
        evaluatedOn: evaluation.length,
        heldOut: heldOutRows !== undefined,
        fittedAt: new Date().toISOString()
    };
}

/** The rows with an answer and a label that names an option. */
export function labelledAnswers(info: QuestionInfo, rows: readonly CalibrationRow[]): ReadLabelledAnswer[] {
    return rows.flatMap((row) => {
        const label = readLabel(info, row.label);
        return row.answer === null || typeof label !== "number" ? [] : [{answer: row.answer, label}];
    });
}

/** Log loss, Brier and ECE exactly as the evaluation report computes them (reportOf), so the figures agree. */
export function calibrationScores(info: QuestionInfo, rows: readonly ReadLabelledAnswer[]): CalibrationScores {
    const report = reportOf(info, rows);
    return {logLoss: report.logLoss, brier: report.brier, ece: report.ece};
}

/**
 * An answer with calibrated probabilities and everything derived from them recomputed (choice, expected
 * score, confidence as in spec 2.8), always marked `calibrated: true`. Explanations are kept as they are.
 */
export function calibrateAnswer(info: QuestionInfo, calibration: QuestionCalibration, answer: NormalizedAnswer): NormalizedAnswer {
    if (calibration.kind !== info.kind || (calibration.method === "platt") !== (info.kind === "yesno"))
        throw new RangeError(`calibration of ${JSON.stringify(calibration.question)} (${calibration.kind}, ${calibration.method}) does not fit ${info.kind} question ${JSON.stringify(info.name)}`);
    return applyCalibration(info, calibration, answer);
}

function applyCalibration(info: QuestionInfo, calibration: Pick<QuestionCalibration, "method" | "temperature" | "bias">, answer: NormalizedAnswer): NormalizedAnswer {
    const probabilities = calibrateProbabilities(calibration, answer.probabilities);
    const calibrated: NormalizedAnswer = {probabilities, calibrated: true};
    if (answer.explanation !== undefined) calibrated.explanation = answer.explanation;
    if (info.kind === "choice") {
        calibrated.choice = info.options[argmax(probabilities)].value;
        calibrated.confidence = confidence(probabilities);
    } else if (info.kind === "score") {
        calibrated.score = expectedScore(probabilities);
        calibrated.confidence = confidence(probabilities);
    }
    return calibrated;
}

/** Applies a fitted calibration to one answer's probabilities (aligned with the question's options). */
export function calibrateProbabilities(calibration: Pick<QuestionCalibration, "method" | "temperature" | "bias">, probabilities: readonly number[]): number[] {
    if (calibration.method === "platt") {
        const p = clipProbability(probabilities[0]);
        const calibrated = sigmoid(Math.log(p / (1 - p)) / calibration.temperature + calibration.bias);
        return [calibrated, 1 - calibrated];
    }
    return softmax(probabilities.map((p) => Math.log(clipProbability(p)) / calibration.temperature));
}

export function sigmoid(x: number): number {
    return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

export function softmax(logits: readonly number[]): number[] {
    const top = Math.max(...logits);
    const exps = logits.map((logit) => Math.exp(logit - top));
    const sum = exps.reduce((a, b) => a + b, 0);
    return exps.map((value) => value / sum);
}

/** Checks a saved `calibration` object (question name -> QuestionCalibration), e.g. from a question set file. */
export function readCalibrationSet(value: unknown, path: FieldPath = ["calibration"]): CalibrationSet {
    const set: CalibrationSet = {};
    for (const [name, entry] of Object.entries(readObject(value, path))) set[name] = readQuestionCalibration(entry, [...path, name]);
    return set;
}

/** Checks one saved calibration (a question set's, or a grader's in an experiment file). */
export function readQuestionCalibration(value: unknown, path: FieldPath): QuestionCalibration {
    const object = readObject(value, path);
    required(object, "version", path, (raw, at) => readInteger(raw, at, {min: 1, max: 1}));
    const kind = required(object, "kind", path, (raw, at) => readEnum(raw, at, ["yesno", "choice", "score"]));
    const method = required(object, "method", path, (raw, at) => readEnum(raw, at, kind === "yesno" ? ["platt"] : ["temperature"]));
    const scores = (raw: unknown, at: FieldPath): CalibrationScores => {
        const entry = readObject(raw, at);
        return {logLoss: required(entry, "logLoss", at, readNumber), brier: required(entry, "brier", at, readNumber), ece: required(entry, "ece", at, readNumber)};
    };
    return {
        version: 1,
        question: required(object, "question", path, readString),
        kind,
        method,
        temperature: required(object, "temperature", path, (raw, at) => readNumber(raw, at, {min: 1e-6})),
        bias: required(object, "bias", path, readNumber),
        fittedOn: required(object, "fittedOn", path, (raw, at) => readInteger(raw, at, {min: 0})),
        before: required(object, "before", path, scores),
        after: required(object, "after", path, scores),
        evaluatedOn: required(object, "evaluatedOn", path, (raw, at) => readInteger(raw, at, {min: 0})),
        heldOut: object.heldOut === true,
        ...(typeof object.folds === "number" && Number.isInteger(object.folds) && object.folds > 1 ? {folds: object.folds} : {}),
        fittedAt: typeof object.fittedAt === "string" ? object.fittedAt : ""
    };
}
