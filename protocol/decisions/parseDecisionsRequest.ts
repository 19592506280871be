import {type FieldPath, fail, quoteValue, readObject, rejectUnknownFields, required, type JsonObject, optional, readBoolean, readInteger, describeType, readArray, readEnum, readString} from "../validation.ts";
import {limits, modelIds} from "../limits.ts";
import {readDecisionImage} from "../images.ts";
import type {NormalizedDecisionRequest, NormalizedOption, NormalizedQuestion} from "./types.ts";

const numberWords = ["zero", "one", "two"];

/**
 * Fails at `path` unless `count` lies in [min, max], naming the items (e.g. "must hold at least two choices",
 * the wording spec 7 gives for a choice question with one choice). `noun` is [singular, plural].
 */
export function checkCount(count: number, path: FieldPath, noun: readonly [string, string], range: {min: number, max: number, maxReason?: string}) {
    if (count < range.min)
        fail(path, `must hold at least ${numberWords[range.min] ?? range.min} ${range.min === 1 ? noun[0] : noun[1]}, got ${count}`);
    if (count > range.max)
        fail(path, `holds ${count} ${noun[1]}; at most ${range.max.toLocaleString("en-US")} are allowed${range.maxReason ? ` ${range.maxReason}` : ""}`);
}

/** Spec 8: 512 questions per request, 64 when explanations are asked for; at least one question. */
export function checkQuestionCount(count: number, explain: boolean) {
    checkCount(count, ["questions"], ["question", "questions"], explain
        ? {min: 1, max: limits.questionsPerRequestWithExplain, maxReason: "when x_svc.explain is true; split the questions across requests"}
        : {min: 1, max: limits.questionsPerRequest, maxReason: "per request; split the questions across requests"});
}

// Spec 8: a decision request body holds at most 100,000 JSON values. We count every value node: the root,
// each object, array, string, number, boolean and null; object keys are names, not values. The walk is
// iterative, so a body nested 100,000 deep cannot overflow the stack, and it stops once `stopAfter` is passed.

export function countJsonValues(value: unknown, stopAfter = Infinity): number {
    let count = 0;
    const pending: unknown[] = [value];
    while (pending.length > 0) {
        const current = pending.pop();
        count++;
        if (count > stopAfter) return count;
        if (current !== null && typeof current === "object") {
            if (Array.isArray(current)) for (const item of current) pending.push(item);
            else for (const key of Object.keys(current)) pending.push((current as Record<string, unknown>)[key]);
        }
    }
    return count;
}

/**
 * The checks both decision endpoints start with, in the order a client would fix them: a JSON object, at
 * most 100,000 JSON values (spec 8), no unknown top-level field (`stream` included), model `svc-1-decision`.
 */
export function readDecisionBody(body: unknown, knownFields: readonly string[]): JsonObject {
    const object = readObject(body, []);
    const count = countJsonValues(object, limits.jsonValuesPerRequest);
    if (count > limits.jsonValuesPerRequest)
        fail([], `holds more than ${limits.jsonValuesPerRequest.toLocaleString("en-US")} JSON values; reduce the data sent`);
    rejectUnknownFields(object, [], knownFields);
    const model = required(object, "model", [], (value) => value);
    if (model !== modelIds.decision) fail(["model"], `must be "${modelIds.decision}", got ${quoteValue(model)}`);
    return object;
}

export type DecisionExtensions = {explain: boolean, labelMass: boolean, maxSoftTokens?: number, images?: JsonObject};

/**
 * Reads `x_svc` (spec 2.10); `images` is a known field only where `allowImages` (i.e. /v1/systemone). Unknown
 * fields are rejected, as the hosted service does. `label_mass` is this engine's own, local-only field (the hosted
 * service would reject it, so the app never sends it there): a boolean asking for each answer's label mass.
 */
export function readDecisionExtensions(body: JsonObject, allowImages: boolean): DecisionExtensions {
    const extensions = optional(body, "x_svc", [], readObject);
    if (!extensions) return {explain: false, labelMass: false};
    rejectUnknownFields(extensions, ["x_svc"], allowImages ? ["explain", "images", "max_soft_tokens", "label_mass"] : ["explain", "max_soft_tokens", "label_mass"]);
    return {
        explain: optional(extensions, "explain", ["x_svc"], readBoolean) ?? false,
        labelMass: optional(extensions, "label_mass", ["x_svc"], readBoolean) ?? false,
        maxSoftTokens: optional(extensions, "max_soft_tokens", ["x_svc"], (value, path) => readInteger(value, path, {min: 1})),
        images: allowImages ? optional(extensions, "images", ["x_svc"], readObject) : undefined
    };
}

// `POST /v1/decisions` (spec 2.9, 2.10, 8). Takes the parsed JSON body; throws a ValidationError whose path
// starts with the top-level field at fault (decisionErrorBodies turns it into the 400 envelope).

const topLevelFields = ["model", "input", "questions", "x_svc", "safety_identifier"] as const;
const imageDetails = ["low", "high", "auto", "original"] as const;

export function parseDecisionsRequest(body: unknown): NormalizedDecisionRequest {
    const object = readDecisionBody(body, topLevelFields);
    const extensions = readDecisionExtensions(object, false);
    optional(object, "safety_identifier", [], readString);
    const questions = required(object, "questions", [], (value, path) => readQuestions(value, path, extensions.explain));
    const {text, imageUrls} = required(object, "input", [], readInput);
    checkCount(imageUrls.length, ["input"], ["image", "images"], {min: 0, max: limits.imagesPerRequest, maxReason: "per request"});
    const images = imageUrls.map(({url, path}, index) => readDecisionImage(url, path, `image_${index + 1}`));
    return {endpoint: "decisions", text, images, questions, explain: extensions.explain, labelMass: extensions.labelMass, maxSoftTokens: extensions.maxSoftTokens};
}

// ---- input ----

type ImageUrl = {url: unknown, path: FieldPath};

/** Text parts joined with blank lines, in order; images collected in order for image_1, image_2, ... */
function readInput(value: unknown, path: FieldPath): {text: string, imageUrls: ImageUrl[]} {
    if (typeof value === "string") return {text: value, imageUrls: []};
    if (!Array.isArray(value)) fail(path, `must be a string or an array of user messages, got ${describeType(value)}`);
    if (value.length === 0) fail(path, "must hold at least one message");
    const texts: string[] = [];
    const imageUrls: ImageUrl[] = [];
    value.forEach((item, messageIndex) => {
        const messagePath = [...path, messageIndex];
        const message = readObject(item, messagePath);
        rejectUnknownFields(message, messagePath, ["type", "role", "content"]);
        optional(message, "type", messagePath, (type, typePath) => readEnum(type, typePath, ["message"]));
        required(message, "role", messagePath, (role, rolePath) => readEnum(role, rolePath, ["user"]));
        const content = required(message, "content", messagePath, (raw) => raw);
        const contentPath = [...messagePath, "content"];
        if (typeof content === "string") {
            texts.push(content);
            return;
        }
        if (!Array.isArray(content)) fail(contentPath, `must be a string or an array of input_text / input_image parts, got ${describeType(content)}`);
        content.forEach((rawPart, partIndex) => {
            const partPath = [...contentPath, partIndex];
            const part = readObject(rawPart, partPath);
            const type = required(part, "type", partPath, (raw, typePath) => readEnum(raw, typePath, ["input_text", "input_image"]));
            if (type === "input_text") {
                rejectUnknownFields(part, partPath, ["type", "text"]);
                texts.push(required(part, "text", partPath, readString));
            } else {
                rejectUnknownFields(part, partPath, ["type", "image_url", "detail"]);
                optional(part, "detail", partPath, (raw, detailPath) => readEnum(raw, detailPath, imageDetails));
                if (!("image_url" in part)) fail([...partPath, "image_url"], "is required (file IDs are not supported)");
                imageUrls.push({url: part.image_url, path: [...partPath, "image_url"]});
            }
        });
    });
    return {text: texts.join("\n\n"), imageUrls};
}

// ---- questions ----

function readQuestions(value: unknown, path: FieldPath, explain: boolean): NormalizedQuestion[] {
    const list = readArray(value, path);
    checkQuestionCount(list.length, explain);
    const nameOwner = new Map<string, number>();
    return list.map((item, index) => {
        const questionPath = [...path, index];
        const question = readQuestion(item, questionPath, index);
        if (question.name !== undefined) {
            const owner = nameOwner.get(question.name);
            if (owner !== undefined) fail([...questionPath, "name"], `duplicates the name of questions[${owner}] (${quoteValue(question.name)}); names must be unique`);
            nameOwner.set(question.name, index);
        }
        return question;
    });
}

function readQuestion(value: unknown, path: FieldPath, index: number): NormalizedQuestion {
    const question = readObject(value, path);
    const type = required(question, "type", path, (raw, typePath) => readEnum(raw, typePath, ["predicate", "choice", "score"]));
    rejectUnknownFields(question, path, ["type", "name", "instructions", type === "choice" ? "choices" : type === "score" ? "levels" : "type"]);
    const name = optional(question, "name", path, readString);
    if (name === "") fail([...path, "name"], "must not be empty when supplied");
    const instructions = required(question, "instructions", path, readString);
    const common = {index, ...(name === undefined ? {} : {name}), instructions};
    if (type === "predicate")
        return {...common, kind: "yesno", options: [{value: true, text: "yes"}, {value: false, text: "no"}]};
    if (type === "choice") return {...common, kind: "choice", options: required(question, "choices", path, readChoices)};
    return {...common, kind: "score", options: required(question, "levels", path, readLevels)};
}

function readChoices(value: unknown, path: FieldPath): NormalizedOption[] {
    const list = readArray(value, path);
    checkCount(list.length, path, ["choice", "choices"], {min: 2, max: limits.optionsPerChoice, maxReason: "per question"});
    // Keyed by type and value, so true and "true" are told apart before the rule that forbids holding both.
    const seen = new Map<string, number>();
    return list.map((item, index) => {
        const choicePath = [...path, index];
        const choice = readObject(item, choicePath);
        rejectUnknownFields(choice, choicePath, ["value", "description"]);
        const choiceValue = required(choice, "value", choicePath, readChoiceValue);
        const text = String(choiceValue);
        const previous = seen.get(`${typeof choiceValue}:${text}`);
        if (previous !== undefined) fail([...choicePath, "value"], `duplicates the value of choices[${previous}] (${quoteValue(choiceValue)}); values must be unique`);
        const twin = seen.get(`${typeof choiceValue === "string" ? "boolean" : "string"}:${text}`);
        if (twin !== undefined && (text === "true" || text === "false"))
            fail([...choicePath, "value"], `a question cannot hold both ${text} and the string "${text}" (see choices[${twin}])`);
        seen.set(`${typeof choiceValue}:${text}`, index);
        const description = optional(choice, "description", choicePath, readString);
        return {value: choiceValue, text, ...(description === undefined ? {} : {description})};
    });
}

function readChoiceValue(value: unknown, path: FieldPath): string | boolean {
    if (typeof value !== "string" && typeof value !== "boolean") fail(path, `must be a string or a boolean, got ${describeType(value)}`);
    return value;
}

function readLevels(value: unknown, path: FieldPath): NormalizedOption[] {
    const list = readArray(value, path);
    checkCount(list.length, path, ["level", "levels"], {min: 2, max: limits.levelsPerScore, maxReason: "per question"});
    return list.map((item, index) => {
        const levelPath = [...path, index];
        const level: JsonObject = readObject(item, levelPath);
        rejectUnknownFields(level, levelPath, ["label", "description"]);
        const label = required(level, "label", levelPath, readString);
        const description = optional(level, "description", levelPath, readString);
        return {value: index, text: label, ...(description === undefined ? {} : {description})};
    });
}
