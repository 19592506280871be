import {readCalibrationSet} from "../../../../client/scoring/index.ts";
import {type FieldPath, fail, optional, readArray, readBoolean, readEnum, readInteger, readObject, readString, type JsonObject} from "../../../../protocol/validation.ts";
import {newId} from "../../ui/browser.ts";
import {levelText, splitLevelText, type DraftChoice, type DraftLevel, type DraftQuestion, type DraftSet, type QuestionFormat, type QuestionType} from "./draft.ts";

/**
 * Reads a question set file (parsed JSON, e.g. typed in the JSON editor or opened from disk) into the builder's
 * draft. It reads the shapes the builder can hold and throws a ValidationError for anything it cannot (a
 * question that is no object, a choice value that is no string or boolean); every rule of the server (counts,
 * unique names, unknown fields) is left to validateDraft / parseQuestionSet, so a set that breaks one still
 * opens and shows where it breaks it.
 *
 * `previous` is the draft being edited: an item that writes the same JSON as the previous one at its place is
 * kept as it was (its id, a boolean choice value behind a systemone "true" key, a level's description behind
 * "label: description"), and what the format cannot carry (a predicate's true / false descriptions on
 * /v1/decisions, the options of another question type) is kept from the previous question at that place.
 */
export function draftFromQuestionSet(json: unknown, previous: DraftSet | null = null): DraftSet {
    const object = readObject(json, []);
    const format: QuestionFormat = object.format === undefined
        ? (Array.isArray(object.questions) ? "decisions" : "systemone")
        : readEnum(object.format, ["format"], ["decisions", "systemone"]);
    const xSvc = optional(object, "x_svc", [], readObject) ?? {};
    const previousQuestions = previous?.questions ?? [];
    const questions = format === "decisions"
        ? readArray(object.questions ?? [], ["questions"]).map((item, index) => readDecisionsQuestion(item, ["questions", index], previousQuestions[index]))
        : Object.entries(readObject(object.questions ?? {}, ["questions"])).map(([name, item], index) => readSystemoneQuestion(name, item, ["questions", name], previousQuestions[index]));
    return {
        format,
        name: optional(object, "name", [], readString) ?? "",
        description: optional(object, "description", [], readString) ?? "",
        explain: optional(xSvc, "explain", ["x_svc"], readBoolean) ?? false,
        maxSoftTokens: optional(xSvc, "max_soft_tokens", ["x_svc"], (value, path) => readInteger(value, path)) ?? null,
        questions,
        calibration: object.calibration === undefined || object.calibration === null ? null : readCalibrationSet(object.calibration)
    };
}

function readDecisionsQuestion(value: unknown, path: FieldPath, previous: DraftQuestion | undefined): DraftQuestion {
    const question = readObject(value, path);
    const type = readEnum(question.type, [...path, "type"], ["predicate", "choice", "score"]);
    const base = questionBase(type, optional(question, "name", path, readString) ?? "", question, path, previous);
    if (type === "choice") base.choices = readArray(question.choices ?? [], [...path, "choices"]).map((item, index) => {
        const choicePath = [...path, "choices", index];
        const choice = readObject(item, choicePath);
        const choiceValue = choice.value;
        if (typeof choiceValue !== "string" && typeof choiceValue !== "boolean") fail([...choicePath, "value"], "must be a string or a boolean");
        return reuse(previous?.choices[index], {value: choiceValue, description: optional(choice, "description", choicePath, readString) ?? ""},
            (old) => old.value === choiceValue && old.description === (choice.description ?? ""));
    });
    if (type === "score") base.levels = readArray(question.levels ?? [], [...path, "levels"]).map((item, index) => {
        const levelPath = [...path, "levels", index];
        const level = readObject(item, levelPath);
        const label = optional(level, "label", levelPath, readString) ?? "";
        const description = optional(level, "description", levelPath, readString) ?? "";
        return reuse(previous?.levels[index], {label, description}, (old) => old.label === label && old.description === description);
    });
    return base;
}

function readSystemoneQuestion(name: string, value: unknown, path: FieldPath, previous: DraftQuestion | undefined): DraftQuestion {
    const question = readObject(value, path);
    const wireType = readEnum(question.type, [...path, "type"], ["noul", "choice", "score"]);
    const type: QuestionType = wireType === "noul" ? "predicate" : wireType;
    const base = questionBase(type, name, question, path, previous);
    const criteriaPath = [...path, "criteria"];
    if (type === "predicate") {
        const criteria = question.criteria === undefined || question.criteria === null ? {} : readObject(question.criteria, criteriaPath);
        base.trueDescription = optional(criteria, "true", criteriaPath, readNullableString) ?? "";
        base.falseDescription = optional(criteria, "false", criteriaPath, readNullableString) ?? "";
    }
    if (type === "choice") base.choices = Object.entries(readObject(question.criteria ?? {}, criteriaPath)).map(([key, rawDescription], index) => {
        const description = readNullableString(rawDescription, [...criteriaPath, key]) ?? "";
        // The keys "true" and "false" read as booleans: systemone cannot tell them apart, and on /v1/decisions
        // a question may not hold both true and "true" anyway.
        const choiceValue = key === "true" ? true : key === "false" ? false : key;
        return reuse(previous?.choices[index], {value: choiceValue, description}, (old) => String(old.value) === key && old.description === description);
    });
    if (type === "score") base.levels = readArray(question.criteria ?? [], criteriaPath).map((item, index) => {
        const text = readString(item, [...criteriaPath, index]);
        return reuse(previous?.levels[index], splitLevelText(text), (old) => levelText(old) === text);
    });
    return base;
}

/** The fields both formats share; the others come from the previous question at this place, if any. */
function questionBase(type: QuestionType, name: string, question: JsonObject, path: FieldPath, previous: DraftQuestion | undefined): DraftQuestion {
    return {
        id: previous?.id ?? newId(),
        type,
        name,
        instructions: optional(question, "instructions", path, readString) ?? "",
        choices: previous?.choices ?? [],
        levels: previous?.levels ?? [],
        trueDescription: previous?.trueDescription ?? "",
        falseDescription: previous?.falseDescription ?? ""
    };
}

/** The previous item when it writes the same JSON, else a new one that keeps the previous item's id. */
function reuse<T extends DraftChoice | DraftLevel>(previous: T | undefined, fields: Omit<T, "id">, same: (old: T) => boolean): T {
    if (previous !== undefined && same(previous)) return previous;
    return {...fields, id: previous?.id ?? newId()} as T;
}

function readNullableString(value: unknown, path: FieldPath): string | undefined {
    return value === null ? undefined : readString(value, path);
}
