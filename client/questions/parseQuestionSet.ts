import {parseDecisionsRequest} from "../../protocol/decisions/parseDecisionsRequest.ts";
import {parseSystemoneRequest} from "../../protocol/decisions/parseSystemoneRequest.ts";
import type {NormalizedQuestion} from "../../protocol/decisions/types.ts";
import {modelIds} from "../../protocol/limits.ts";
import {ValidationError, readObject} from "../../protocol/validation.ts";
import {readCalibrationSet} from "../evaluation/calibration/readCalibrationSet.ts";
import type {QuestionSet} from "./types.ts";

export class QuestionSetError extends Error {
    public constructor(message: string) {
        super(message);
        this.name = "QuestionSetError";
    }
}

const knownFields = ["format", "questions", "x_svc", "name", "description", "calibration"];

/**
 * Checks a question set file (parsed JSON) with the same request parsers the server runs, so a set that passes
 * here is not refused row after row. `format` may be left out: an array of questions means `decisions`, an
 * object keyed by name means `systemone`. Returns the set and the questions as the parser normalised them.
 */
export function parseQuestionSet(json: unknown): {questionSet: QuestionSet, normalized: NormalizedQuestion[]} {
    try {
        const object = readObject(json, []);
        for (const key of Object.keys(object))
            if (!knownFields.includes(key)) throw new QuestionSetError(`question set: unknown field ${JSON.stringify(key)} (known: ${knownFields.join(", ")})`);
        const format = object.format ?? (Array.isArray(object.questions) ? "decisions" : "systemone");
        if (format !== "decisions" && format !== "systemone") throw new QuestionSetError(`question set: format must be "decisions" or "systemone", got ${JSON.stringify(format)}`);
        const extra = {
            ...(typeof object.name === "string" ? {name: object.name} : {}),
            ...(typeof object.description === "string" ? {description: object.description} : {}),
            ...(object.calibration != null ? {calibration: readCalibrationSet(object.calibration)} : {})
        };
        const x_svc = object.x_svc === undefined ? {} : {x_svc: object.x_svc};
        // A sample request with an empty input checks the questions and x_svc exactly as the server will.
        if (format === "decisions") {
            const parsed = parseDecisionsRequest({model: modelIds.decision, input: "", questions: object.questions, ...x_svc});
            return {questionSet: {format, questions: object.questions, ...x_svc, ...extra} as QuestionSet, normalized: parsed.questions};
        }
        const parsed = parseSystemoneRequest({model: modelIds.decision, state: "", questions: object.questions, ...x_svc});
        return {questionSet: {format, questions: object.questions, ...x_svc, ...extra} as QuestionSet, normalized: parsed.questions};
    } catch (error) {
        if (error instanceof ValidationError) throw new QuestionSetError(`question set: ${error.message}`);
        throw error;
    }
}
