// A question set asked about an input: the decision request and its checks, a table row as input, the answers read back.
import {type ScoringRequest, compileInputTemplate, compileRowObject, type ColumnRoles, readScore, type InputMapping, type SheetRow, calibrateAnswer, parseQuestionSet, questionInfos, readAnswers, type StoredResponse, type OptionValue, type QuestionInfo, type QuestionSet} from "../../../../client/scoring/index.ts";
import {parseDecisionsRequest} from "../../../../protocol/decisions/parseDecisionsRequest.ts";
import {parseSystemoneRequest} from "../../../../protocol/decisions/parseSystemoneRequest.ts";
import {stableStringify} from "../../../../protocol/decisions/stableStringify.ts";
import type {DecisionsInputPart} from "../../../../protocol/decisions/types.ts";
import {modelIds, limits} from "../../../../protocol/limits.ts";
import {ValidationError} from "../../../../protocol/validation.ts";
import {toQuestionSet, type DraftSet} from "./draft.ts";

/** What the questions are asked about: text, or a JSON state (any JSON value). */
export type InputValue = {kind: "text", text: string} | {kind: "json", value: unknown};

/**
 * The request body of the draft's endpoint for one input and up to 8 image data URLs, named image_1, image_2...
 * in order. /v1/decisions: a JSON state is sent as stable JSON text (spec 2.9: the client serialises structured
 * data), images as input_image parts after the text in one user message. /v1/systemone: the state as is,
 * images in `x_svc.images` under their names.
 */
export function buildDecisionRequest(draft: DraftSet, input: InputValue, images: readonly string[] = []): ScoringRequest {
    const set = toQuestionSet(draft);
    if (set.format === "decisions") {
        const text = input.kind === "text" ? input.text : stableStringify(input.value);
        const parts: DecisionsInputPart[] = [
            ...(text === "" ? [] : [{type: "input_text" as const, text}]),
            ...images.map((url) => ({type: "input_image" as const, image_url: url}))
        ];
        return {format: "decisions", body: {
            model: modelIds.decision,
            input: images.length === 0 ? text : [{role: "user", content: parts}],
            questions: set.questions,
            ...(set.x_svc === undefined ? {} : {x_svc: set.x_svc})
        }};
    }
    const namedImages = Object.fromEntries(images.map((url, index) => [imageName(index), url]));
    const xSvc = {...set.x_svc, ...(images.length === 0 ? {} : {images: namedImages})};
    return {format: "systemone", body: {
        model: modelIds.decision,
        state: input.kind === "text" ? input.text : input.value,
        questions: set.questions,
        ...(Object.keys(xSvc).length === 0 ? {} : {x_svc: xSvc})
    }};
}

/**
 * The request with the local engine's `x_svc.label_mass` asked for (the share of the next-token probability on
 * the question's labels). Only for the local engine: the hosted service knows no such field and refuses unknown
 * `x_svc` fields, so the caller adds it only when the connection is local.
 */
export function withLabelMass(request: ScoringRequest): ScoringRequest {
    return request.format === "decisions"
        ? {format: "decisions", body: {...request.body, x_svc: {...request.body.x_svc, label_mass: true}}}
        : {format: "systemone", body: {...request.body, x_svc: {...request.body.x_svc, label_mass: true}}};
}

/** The name the model knows an image by: its position from 1 (spec 2.9), the same key on /v1/systemone. */
export function imageName(index: number): string {
    return `image_${index + 1}`;
}

/**
 * Why the server would refuse this request before running it, in its words (the endpoint's own parser: images
 * readable and at most 25 megapixels, at most 100,000 JSON values...), or the 8 MiB body limit (413); null
 * when it would be accepted.
 */
export function checkDecisionRequest(request: ScoringRequest): string | null {
    const bytes = new TextEncoder().encode(JSON.stringify(request.body)).byteLength;
    if (bytes > limits.decisionBodyBytes)
        return `body: ${bytes.toLocaleString("en-US")} bytes; decision requests may be at most ${limits.decisionBodyBytes.toLocaleString("en-US")} bytes (8 MiB)`;
    try {
        if (request.format === "decisions") parseDecisionsRequest(request.body);
        else parseSystemoneRequest(request.body);
        return null;
    } catch (error) {
        if (error instanceof ValidationError) return error.message;
        throw error;
    }
}

/**
 * One table row as the input of a decision request, by the same mapping a scoring job uses
 * (client/scoring/requests.ts): the filled template as text, or the row as a JSON object
 * {column: cell} over the chosen columns. Throws a TemplateError for a template or a column list that names no column.
 */
export function rowInput(roles: ColumnRoles, row: SheetRow, mapping: InputMapping): InputValue {
    if (mapping.kind === "template") return {kind: "text", text: compileInputTemplate(mapping.template, roles)(row)};
    return {kind: "json", value: compileRowObject(mapping, roles)(row)};
}

export type AnswerOptionView = {
    /** The value as sent: a choice value, a level index, or true / false. */
    value: OptionValue,
    /** What a chart shows: the choice value, `index · label` for a level, yes / no. */
    label: string,
    probability: number,
    /** The answer's pick: the chosen value, the most likely level (client/scoring/scoreLevels.ts), or the likelier of yes and no. */
    picked: boolean
};

/** One answer card's data, the same for both endpoints. */
export type AnswerView = {
    name: string,
    kind: QuestionInfo["kind"],
    options: AnswerOptionView[],
    /** Yes/no: P(true). */
    probability: number | null,
    choice: OptionValue | null,
    /** Score: the probability-weighted level index. */
    score: number | null,
    confidence: number | null,
    explanation: string | null,
    /** The local engine's label mass (share of the next-token probability on the labels), when it was asked for. */
    labelMass: number | null,
    /** The numbers went through the calibration saved with the set. */
    calibrated: boolean,
    /** The server's own probabilities when calibrated ones are shown, aligned with `options`. */
    serverProbabilities: number[] | null
};

/** The answers of one response as cards, calibrated where the set carries a calibration for the question. */
export function answerViews(set: QuestionSet, response: StoredResponse): AnswerView[] {
    const infos = questionInfos(parseQuestionSet(set).normalized);
    const answers = readAnswers(set.format, infos, response);
    const masses = response.x_svc?.label_mass;
    const labelMassOf = (info: QuestionInfo, index: number): number | null => {
        const mass = Array.isArray(masses) ? masses[index] : masses !== null && typeof masses === "object" ? (masses as Record<string, unknown>)[info.name] : undefined;
        return typeof mass === "number" ? mass : null;
    };
    return infos.map((info, index) => {
        const server = answers[index];
        const fitted = set.calibration?.[info.name];
        const answer = fitted === undefined ? server : calibrateAnswer(info, fitted, server);
        // A score's pick is its most likely level, by the one rule every screen uses (scoreLevels.ts).
        const top = info.kind === "score" ? readScore(answer).mostLikely : answer.probabilities.indexOf(Math.max(...answer.probabilities));
        const picked = (optionIndex: number) => info.kind === "choice" && answer.choice !== undefined
            ? info.options[optionIndex].value === answer.choice
            : optionIndex === top;
        return {
            name: info.name,
            kind: info.kind,
            options: info.options.map((option, optionIndex) => ({
                value: option.value,
                label: optionLabel(info, option),
                probability: answer.probabilities[optionIndex],
                picked: picked(optionIndex)
            })),
            probability: info.kind === "yesno" ? answer.probabilities[0] : null,
            choice: answer.choice ?? null,
            score: answer.score ?? null,
            confidence: answer.confidence ?? null,
            explanation: answer.explanation ?? null,
            labelMass: labelMassOf(info, index),
            calibrated: fitted !== undefined,
            serverProbabilities: fitted === undefined ? null : server.probabilities
        };
    });
}

function optionLabel(info: QuestionInfo, option: QuestionInfo["options"][number]): string {
    if (info.kind === "yesno") return option.value === true ? "yes" : "no";
    if (info.kind === "score") return `${option.value} · ${option.label}`;
    return String(option.value);
}

export type AnswerComparison = {
    name: string,
    a: AnswerView | null,
    b: AnswerView | null,
    /** Largest |P_a - P_b| over the options both answers have; null unless both answered. */
    maxDifference: number | null,
    /** Whether both picked the same option; null unless both answered. */
    samePick: boolean | null,
    /** b - a of P(true) (yes/no) or of the expected level (score); null otherwise. */
    delta: number | null
};

/**
 * Pairs the answers of two runs by question name (two variants of a set may order or name questions
 * differently; a question only one of them has is listed with the other side null), in A's order then B's.
 */
export function compareAnswers(a: readonly AnswerView[], b: readonly AnswerView[]): AnswerComparison[] {
    const names = [...new Set([...a.map((view) => view.name), ...b.map((view) => view.name)])];
    return names.map((name) => {
        const left = a.find((view) => view.name === name) ?? null;
        const right = b.find((view) => view.name === name) ?? null;
        if (left === null || right === null) return {name, a: left, b: right, maxDifference: null, samePick: null, delta: null};
        const rightByKey = new Map(right.options.map((option) => [optionKey(option.value), option]));
        let maxDifference = 0;
        for (const option of left.options) {
            const other = rightByKey.get(optionKey(option.value));
            if (other !== undefined) maxDifference = Math.max(maxDifference, Math.abs(option.probability - other.probability));
        }
        const pick = (view: AnswerView) => view.options.find((option) => option.picked)?.value;
        const delta = left.kind === "yesno" && right.kind === "yesno" ? right.probability! - left.probability!
            : left.kind === "score" && right.kind === "score" ? right.score! - left.score! : null;
        return {name, a: left, b: right, maxDifference, samePick: optionKey(pick(left)) === optionKey(pick(right)), delta};
    });
}

/** Options match by value and type: a boolean true is not the string "true". */
function optionKey(value: unknown): string {
    return `${typeof value}:${String(value)}`;
}
