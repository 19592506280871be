import type {DecisionsQuestion, DecisionsRequest, SystemoneQuestion, SystemoneRequest, NormalizedQuestion, DecisionsAnswer, SystemoneAnswer} from "../../protocol/decisions/types.ts";
import {type CalibrationSet, readCalibrationSet} from "./calibration.ts";
import {parseDecisionsRequest} from "../../protocol/decisions/parseDecisionsRequest.ts";
import {parseSystemoneRequest} from "../../protocol/decisions/parseSystemoneRequest.ts";
import {modelIds} from "../../protocol/limits.ts";
import {ValidationError, readObject} from "../../protocol/validation.ts";

/**
 * A question set file: the questions of one decision endpoint, asked of every row of a sheet. `calibration`
 * (from client/evaluation) is applied to the answers of later runs; it is never sent to the server.
 */
export type QuestionSet =
    | {format: "decisions", questions: DecisionsQuestion[], x_svc?: DecisionsRequest["x_svc"], name?: string, description?: string, calibration?: CalibrationSet}
    | {format: "systemone", questions: Record<string, SystemoneQuestion>, x_svc?: SystemoneRequest["x_svc"], name?: string, description?: string, calibration?: CalibrationSet};

export type OptionValue = string | boolean | number;

/** One question as both endpoints have it, with the answers it can take. */
export type QuestionInfo = {
    /** Position in the set (systemone: key order). */
    index: number,
    /** The question's name; an unnamed /v1/decisions question is called `q<position from 1>`. */
    name: string,
    /** yesno = `predicate` (decisions) / `noul` (systemone). */
    kind: "yesno" | "choice" | "score",
    /** yesno: true then false; choice: the values as sent (types kept); score: level indexes, lowest first. */
    options: Array<{value: OptionValue, label: string}>
};

/** One answer reduced to what metrics, calibration and flat columns need. */
export type NormalizedAnswer = {
    /** Aligned with QuestionInfo.options; yesno: [P(true), P(false)]. */
    probabilities: number[],
    /** The server's pick (choice) and expected level (score), kept because it came from unrounded values. */
    choice?: OptionValue,
    score?: number,
    confidence?: number,
    explanation?: string,
    /** Set by applyCalibration: the probabilities are calibrated ones, not the server's. */
    calibrated?: true
};

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

/**
 * QuestionInfo for each parsed question. Unnamed /v1/decisions questions get `q<n>`; should that clash with a
 * supplied name, underscores are appended, so every question owns its own column names.
 */
export function questionInfos(normalized: readonly NormalizedQuestion[]): QuestionInfo[] {
    const supplied = new Set(normalized.flatMap((question) => question.name === undefined ? [] : [question.name]));
    return normalized.map((question) => {
        let name = question.name;
        if (name === undefined) {
            name = `q${question.index + 1}`;
            while (supplied.has(name)) name += "_";
            supplied.add(name);
        }
        return {
            index: question.index,
            name,
            kind: question.kind,
            options: question.options.map((option) => ({value: option.value, label: option.text}))
        };
    });
}

/**
 * What a scoring job keeps of a response: the answers and explanations as the server sent them (and the local
 * engine's `label_mass`, which the decision studio reads when it asked the local engine for it).
 */
export type StoredResponse = {answers: unknown, x_svc?: {explanations?: unknown, label_mass?: unknown}};

/**
 * The answers of one response, one per question of `infos` (same order). /v1/decisions answers come in
 * question order; /v1/systemone answers are keyed by name. Throws on a response that does not fit the set
 * (a question missing, an unknown option), which would otherwise write wrong numbers into a column.
 */
export function readAnswers(format: "decisions" | "systemone", infos: readonly QuestionInfo[], response: StoredResponse): NormalizedAnswer[] {
    const explanations = response.x_svc?.explanations;
    if (format === "decisions") {
        const answers = response.answers as DecisionsAnswer[];
        if (!Array.isArray(answers) || answers.length !== infos.length) throw new TypeError(`expected ${infos.length} answers, got ${Array.isArray(answers) ? answers.length : typeof answers}`);
        return infos.map((info, index) => withExplanation(fromDecisions(info, answers[index]), Array.isArray(explanations) ? explanations[index] : undefined));
    }
    const answers = response.answers as Record<string, SystemoneAnswer>;
    if (answers === null || typeof answers !== "object") throw new TypeError("response has no answers object");
    return infos.map((info) => {
        const answer = answers[info.name];
        if (answer === undefined) throw new TypeError(`response has no answer for ${JSON.stringify(info.name)}`);
        const text = explanations !== null && typeof explanations === "object" ? (explanations as Record<string, unknown>)[info.name] : undefined;
        return withExplanation(fromSystemone(info, answer), text);
    });
}

function fromDecisions(info: QuestionInfo, answer: DecisionsAnswer): NormalizedAnswer {
    if (info.kind === "yesno" && answer.type === "predicate") return {probabilities: [answer.probability, 1 - answer.probability]};
    if (info.kind === "choice" && answer.type === "choice") {
        const probabilities = info.options.map((option) => find(answer.probabilities.find((entry) => entry.value === option.value)?.probability, info, option.value));
        return {probabilities, choice: answer.choice, confidence: answer.confidence};
    }
    if (info.kind === "score" && answer.type === "score") {
        const probabilities = info.options.map((option) => find(answer.probabilities.find((entry) => entry.value === option.value)?.probability, info, option.value));
        return {probabilities, score: answer.score, confidence: answer.confidence};
    }
    throw new TypeError(`answer of type ${JSON.stringify((answer as {type?: unknown})?.type)} for ${info.kind} question ${JSON.stringify(info.name)}`);
}

function fromSystemone(info: QuestionInfo, answer: SystemoneAnswer): NormalizedAnswer {
    if (info.kind === "yesno" && answer.type === "noul") return {probabilities: [answer.noul, 1 - answer.noul]};
    if ((info.kind === "choice" && answer.type === "choice") || (info.kind === "score" && answer.type === "score")) {
        const probabilities = info.options.map((option) => find(answer.probabilities[String(option.value)], info, option.value));
        return answer.type === "choice"
            ? {probabilities, choice: answer.choice, confidence: answer.confidence}
            : {probabilities, score: answer.score, confidence: answer.confidence};
    }
    throw new TypeError(`answer of type ${JSON.stringify((answer as {type?: unknown})?.type)} for ${info.kind} question ${JSON.stringify(info.name)}`);
}

function find(probability: number | undefined, info: QuestionInfo, value: OptionValue): number {
    if (typeof probability !== "number") throw new TypeError(`answer to ${JSON.stringify(info.name)} has no probability for ${JSON.stringify(value)}`);
    return probability;
}

function withExplanation(answer: NormalizedAnswer, explanation: unknown): NormalizedAnswer {
    return typeof explanation === "string" ? {...answer, explanation} : answer;
}
