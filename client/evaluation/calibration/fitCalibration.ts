import type {NormalizedAnswer, QuestionInfo} from "../../questions/types.ts";
import type {CellValue} from "../../spreadsheets/types.ts";
import {evaluateBinary} from "../evaluateBinary.ts";
import {evaluateMulticlass} from "../evaluateMulticlass.ts";
import {readLabel} from "../readLabel.ts";
import {clipProbability} from "../utils/probabilityFloor.ts";
import {goldenSection} from "../utils/goldenSection.ts";
import {calibrateProbabilities, softmax} from "./calibrateProbabilities.ts";
import type {CalibrationScores, QuestionCalibration} from "./types.ts";
import {fitPlatt} from "./utils/fitPlatt.ts";

export type CalibrationRow = {answer: NormalizedAnswer | null, label: CellValue};

/** Temperatures searched for choice / score questions. */
const temperatureRange = [0.05, 20] as const;

/**
 * Fits a calibration of one question on labelled rows by minimising the log loss: Platt scaling (temperature
 * and bias on the logit, Newton's method) for yes/no, temperature scaling (golden-section search on log T) for
 * choice and score. Rows without an answer or a known label are left out. `before` / `after` are measured on
 * `heldOutRows` when given (the honest figure), else on the fitting rows.
 */
export function fitCalibration(info: QuestionInfo, rows: readonly CalibrationRow[], heldOutRows?: readonly CalibrationRow[]): QuestionCalibration {
    const fitting = labelled(info, rows);
    if (fitting.length < 2) throw new RangeError(`fitCalibration: ${JSON.stringify(info.name)} needs at least 2 answered, labelled rows, got ${fitting.length}`);
    const evaluation = heldOutRows === undefined ? fitting : labelled(info, heldOutRows);
    if (evaluation.length === 0) throw new RangeError(`fitCalibration: no answered, labelled held-out rows for ${JSON.stringify(info.name)}`);

    let parameters: Pick<QuestionCalibration, "method" | "temperature" | "bias">;
    if (info.kind === "yesno") {
        const logits = fitting.map(({probabilities}) => {
            const p = clipProbability(probabilities[0]);
            return Math.log(p / (1 - p));
        });
        const {a, b} = fitPlatt(logits, fitting.map((row) => row.label === 0));
        parameters = {method: "platt", temperature: 1 / a, bias: b};
    } else {
        const logProbabilities = fitting.map(({probabilities}) => probabilities.map((p) => Math.log(clipProbability(p))));
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
        before: scores(info, evaluation),
        after: scores(info, evaluation.map((row) => ({...row, probabilities: calibrateProbabilities(parameters, row.probabilities)}))),
        evaluatedOn: evaluation.length,
        heldOut: heldOutRows !== undefined,
        fittedAt: new Date().toISOString()
    };
}

type Labelled = {probabilities: number[], label: number};

function labelled(info: QuestionInfo, rows: readonly CalibrationRow[]): Labelled[] {
    return rows.flatMap((row) => {
        const label = readLabel(info, row.label);
        return row.answer === null || typeof label !== "number" ? [] : [{probabilities: row.answer.probabilities, label}];
    });
}

function scores(info: QuestionInfo, rows: readonly Labelled[]): CalibrationScores {
    const report = info.kind === "yesno"
        ? evaluateBinary(rows.map((row) => ({probability: row.probabilities[0], label: row.label === 0})))
        : evaluateMulticlass(rows, info.options.map((option) => String(option.value)));
    return {logLoss: report.logLoss, brier: report.brier, ece: report.ece};
}
