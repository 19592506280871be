import {limits} from "../limits.ts";
import {type FieldPath, describeType, fail, optional, readArray, readEnum, readObject, readString, rejectUnknownFields, required} from "../validation.ts";
import {readDecisionImage} from "../images.ts";
import {stableStringify} from "./stableStringify.ts";
import type {NormalizedDecisionRequest, NormalizedOption, NormalizedQuestion} from "./types.ts";
import {checkCount, checkQuestionCount, readDecisionBody, readDecisionExtensions} from "./parseDecisionsRequest.ts";

// `POST /v1/systemone` (spec 2.8, 2.10, 8). Takes the parsed JSON body; throws a ValidationError whose path
// locates the fault (decisionErrorBodies turns it into the 422 `detail` body).

const topLevelFields = ["model", "state", "questions", "x_svc"] as const;

export function parseSystemoneRequest(body: unknown): NormalizedDecisionRequest {
    const object = readDecisionBody(body, topLevelFields);
    const extensions = readDecisionExtensions(object, true);
    const state = required(object, "state", [], (value) => value);
    const text = typeof state === "string" ? state : stableStringify(state);
    const questions = required(object, "questions", [], (value, path) => readQuestions(value, path, extensions.explain));
    const imageEntries = Object.entries(extensions.images ?? {});
    checkCount(imageEntries.length, ["x_svc", "images"], ["image", "images"], {min: 0, max: limits.imagesPerRequest, maxReason: "per request"});
    const images = imageEntries.map(([name, url]) => {
        if (name === "") fail(["x_svc", "images", name], "image names must not be empty");
        return readDecisionImage(url, ["x_svc", "images", name], name);
    });
    return {endpoint: "systemone", text, images, questions, explain: extensions.explain, labelMass: extensions.labelMass, maxSoftTokens: extensions.maxSoftTokens};
}

function readQuestions(value: unknown, path: FieldPath, explain: boolean): NormalizedQuestion[] {
    const entries = Object.entries(readObject(value, path));
    checkQuestionCount(entries.length, explain);
    return entries.map(([name, item], index) => {
        if (name === "") fail([...path, name], "question names must not be empty");
        return readQuestion(item, [...path, name], name, index);
    });
}

function readQuestion(value: unknown, path: FieldPath, name: string, index: number): NormalizedQuestion {
    const question = readObject(value, path);
    rejectUnknownFields(question, path, ["type", "instructions", "criteria"]);
    const type = required(question, "type", path, (raw, typePath) => readEnum(raw, typePath, ["noul", "choice", "score"]));
    const instructions = optional(question, "instructions", path, readString) ?? "";
    const common = {index, name, instructions};
    if (type === "noul") return {...common, kind: "yesno", options: readYesNoCriteria(question.criteria, [...path, "criteria"])};
    if (type === "choice") return {...common, kind: "choice", options: required(question, "criteria", path, readChoiceCriteria)};
    return {...common, kind: "score", options: required(question, "criteria", path, readScoreCriteria)};
}

/** Optional `{true: description, false: description}`; the descriptions tell the model what yes and no mean. */
function readYesNoCriteria(value: unknown, path: FieldPath): NormalizedOption[] {
    const yes: NormalizedOption = {value: true, text: "yes"};
    const no: NormalizedOption = {value: false, text: "no"};
    if (value === undefined || value === null) return [yes, no];
    const criteria = readObject(value, path);
    rejectUnknownFields(criteria, path, ["true", "false"]);
    const yesDescription = optional(criteria, "true", path, readString);
    const noDescription = optional(criteria, "false", path, readString);
    return [
        yesDescription === undefined ? yes : {...yes, description: yesDescription},
        noDescription === undefined ? no : {...no, description: noDescription}
    ];
}

/** Option name -> description or null. */
function readChoiceCriteria(value: unknown, path: FieldPath): NormalizedOption[] {
    const entries = Object.entries(readObject(value, path));
    checkCount(entries.length, path, ["choice", "choices"], {min: 2, max: limits.optionsPerChoice, maxReason: "per question"});
    return entries.map(([option, description]) => {
        if (option === "") fail([...path, option], "option names must not be empty");
        if (description !== null && typeof description !== "string")
            fail([...path, option], `must be a description string or null, got ${describeType(description)}`);
        return description === null ? {value: option, text: option} : {value: option, text: option, description};
    });
}

/** Level descriptions, lowest first; the level index is the value and the description is what the model reads. */
function readScoreCriteria(value: unknown, path: FieldPath): NormalizedOption[] {
    const list = readArray(value, path);
    checkCount(list.length, path, ["level", "levels"], {min: 2, max: limits.levelsPerScore, maxReason: "per question"});
    return list.map((item, index) => ({value: index, text: readString(item, [...path, index])}));
}
