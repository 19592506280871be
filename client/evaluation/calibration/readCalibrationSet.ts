import {readEnum, readInteger, readNumber, readObject, readString, required, type FieldPath} from "../../../protocol/validation.ts";
import type {CalibrationScores, CalibrationSet, QuestionCalibration} from "./types.ts";

/** Checks a saved `calibration` object (question name -> QuestionCalibration), e.g. from a question set file. */
export function readCalibrationSet(value: unknown, path: FieldPath = ["calibration"]): CalibrationSet {
    const set: CalibrationSet = {};
    for (const [name, entry] of Object.entries(readObject(value, path))) set[name] = readQuestionCalibration(entry, [...path, name]);
    return set;
}

function readQuestionCalibration(value: unknown, path: FieldPath): QuestionCalibration {
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
        fittedAt: typeof object.fittedAt === "string" ? object.fittedAt : ""
    };
}
