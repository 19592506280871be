import {stableStringify} from "../../protocol/decisions/stableStringify.ts";
import {
    fail, optional, readArray, readBoolean, readEnum, readInteger, readNumber, readObject, readString, rejectUnknownFields, required,
    ValidationError, type FieldPath, type JsonObject
} from "../../protocol/validation.ts";
import {parseQuestionSet, QuestionSetError} from "../scoring/questions.ts";
import {readQuestionCalibration} from "../scoring/calibration.ts";
import type {InputMapping} from "../scoring/types.ts";
import type {Check, ConnectionRef, Dataset, ExperimentSpec, PromptVersion, Sample, Variant} from "./types.ts";
import {graderShapeProblem} from "./graderQuestions.ts";
import {maxRepeats} from "./repeats.ts";

// The experiment file (`*.svc-experiment.json`, format "svc-experiment" version 1): what the app exports and
// `svc-studio eval` runs. Reading it checks every field and names the one at fault (`variants[1].connection`), so a
// bad file is one clear line before anything is read or sent. Browser-safe: reading the dataset file is node/'s.

export const experimentFormat = "svc-experiment";
export const experimentFileVersion = 1;

/** A file that is no valid experiment; `message` starts with the field's path. */
export class ExperimentFileError extends Error {
    public constructor(message: string) {
        super(message);
        this.name = "ExperimentFileError";
    }
}

/** A dataset the file names instead of holding it: a CSV or XLSX path relative to the experiment file. */
export type DatasetFileRef = Extract<ExperimentSpec["dataset"], {file: string}>;

export function isDatasetFile(dataset: ExperimentSpec["dataset"]): dataset is DatasetFileRef {
    return "file" in dataset;
}

/** Parses and checks an experiment file's JSON (text or parsed); throws ExperimentFileError naming the field. */
export function parseExperimentSpec(input: string | unknown): ExperimentSpec {
    return readFileJson(input, readSpec);
}

/**
 * Reads a file's JSON (text, or already parsed) with `read`: text that is no JSON, or a field `read` refuses
 * (a ValidationError naming its path), is an ExperimentFileError.
 */
export function readFileJson<T>(input: string | unknown, read: (json: unknown) => T): T {
    let json: unknown = input;
    if (typeof input === "string") {
        try {
            json = JSON.parse(input);
        } catch (error) {
            throw new ExperimentFileError(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
        }
    }
    try {
        return read(json);
    } catch (error) {
        if (error instanceof ValidationError) throw new ExperimentFileError(error.message);
        throw error;
    }
}

/** The file's text as the app exports it: stable key order, two-space indent, a final newline. */
export function serializeExperimentSpec(spec: ExperimentSpec): string {
    return `${JSON.stringify(JSON.parse(stableStringify(spec)), null, 2)}\n`;
}

const specFields = ["format", "version", "id", "name", "dataset", "sample", "variants", "checks", "seed", "cluster", "repeats", "concurrency", "createdAt"];

function readSpec(json: unknown): ExperimentSpec {
    const object = readObject(json, []);
    rejectUnknownFields(object, [], specFields);
    if (object.format !== experimentFormat) fail(["format"], `must be ${JSON.stringify(experimentFormat)}`);
    if (object.version !== experimentFileVersion) fail(["version"], `must be ${experimentFileVersion} (this svc-studio reads version ${experimentFileVersion})`);
    const variants = required(object, "variants", [], readArray).map((variant, index) => readVariant(variant, ["variants", index]));
    if (variants.length === 0) fail(["variants"], "needs at least one variant");
    const names = new Set<string>();
    variants.forEach((variant, index) => {
        if (names.has(variant.name)) fail(["variants", index, "name"], `${JSON.stringify(variant.name)} is the name of an earlier variant; names must be unique`);
        names.add(variant.name);
    });
    const concurrency = optional(object, "concurrency", [], (value, path) => readInteger(value, path, {min: 1, max: 256}));
    const cluster = optional(object, "cluster", [], nonEmpty);
    const repeats = optional(object, "repeats", [], (value, path) => readInteger(value, path, {min: 1, max: maxRepeats}));
    return {
        format: experimentFormat,
        version: experimentFileVersion,
        id: required(object, "id", [], nonEmpty),
        name: optional(object, "name", [], readString) ?? "",
        dataset: readDataset(required(object, "dataset", [], readObject), ["dataset"]),
        sample: object.sample === undefined ? {kind: "all"} : readSample(object.sample, ["sample"]),
        variants,
        checks: (optional(object, "checks", [], readArray) ?? []).map((check, index) => readCheck(check, ["checks", index])),
        seed: optional(object, "seed", [], (value, path) => readInteger(value, path)) ?? 1,
        ...(cluster === undefined ? {} : {cluster}),
        ...(repeats === undefined || repeats === 1 ? {} : {repeats}),
        ...(concurrency === undefined ? {} : {concurrency}),
        createdAt: optional(object, "createdAt", [], readNumber) ?? 0
    };
}

function nonEmpty(value: unknown, path: FieldPath): string {
    const text = readString(value, path);
    if (text.trim() === "") fail(path, "must not be empty");
    return text;
}

function readStrings(value: unknown, path: FieldPath): string[] {
    return readArray(value, path).map((item, index) => readString(item, [...path, index]));
}

function readDataset(object: JsonObject, path: FieldPath): ExperimentSpec["dataset"] {
    if ("file" in object) {
        rejectUnknownFields(object, path, ["file", "sheet", "labelColumns", "inputColumns"]);
        const sheet = optional(object, "sheet", path, readString);
        const inputColumns = optional(object, "inputColumns", path, readStrings);
        return {
            file: required(object, "file", path, nonEmpty),
            ...(sheet === undefined ? {} : {sheet}),
            labelColumns: optional(object, "labelColumns", path, readStrings) ?? [],
            ...(inputColumns === undefined ? {} : {inputColumns})
        };
    }
    rejectUnknownFields(object, path, ["id", "name", "columns", "columnTypes", "rows", "labelColumns", "inputColumns", "createdAt", "updatedAt"]);
    const columns = required(object, "columns", path, readStrings);
    const rows = required(object, "rows", path, readArray).map((row, index) => {
        const cells = readArray(row, [...path, "rows", index]);
        if (cells.length !== columns.length) fail([...path, "rows", index], `has ${cells.length} cells for ${columns.length} columns`);
        return cells.map((cell, column) => {
            if (cell === null || typeof cell === "string" || typeof cell === "number" || typeof cell === "boolean") return cell;
            return fail([...path, "rows", index, column], "must be a string, number, boolean or null");
        });
    });
    const columnTypes = optional(object, "columnTypes", path, (value, at) => readArray(value, at).map((type, index) => readEnum(type, [...at, index], ["string", "number", "boolean"] as const)))
        ?? columns.map(() => "string" as const);
    const labelColumns = optional(object, "labelColumns", path, readStrings) ?? [];
    const inputColumns = optional(object, "inputColumns", path, readStrings);
    for (const [field, names] of [["labelColumns", labelColumns], ["inputColumns", inputColumns ?? []]] as const)
        names.forEach((name, index) => {
            if (!columns.includes(name)) fail([...path, field, index], `names no column (columns: ${columns.map((column) => JSON.stringify(column)).join(", ")})`);
        });
    const dataset: Dataset = {
        id: optional(object, "id", path, readString) ?? "",
        name: optional(object, "name", path, readString) ?? "",
        columns, columnTypes, rows, labelColumns,
        inputColumns: inputColumns ?? columns.filter((column) => !labelColumns.includes(column)),
        createdAt: optional(object, "createdAt", path, readNumber) ?? 0,
        updatedAt: optional(object, "updatedAt", path, readNumber) ?? 0
    };
    return dataset;
}

function readSample(value: unknown, path: FieldPath): Sample {
    const object = readObject(value, path);
    const kind = required(object, "kind", path, (item, at) => readEnum(item, at, ["all", "first", "random", "filter"] as const));
    const count = (at: FieldPath) => required(object, "n", at, (item, field) => readInteger(item, field, {min: 1}));
    switch (kind) {
        case "all":
            rejectUnknownFields(object, path, ["kind"]);
            return {kind};
        case "first":
            rejectUnknownFields(object, path, ["kind", "n"]);
            return {kind, n: count(path)};
        case "random":
            rejectUnknownFields(object, path, ["kind", "n", "seed"]);
            return {kind, n: count(path), seed: optional(object, "seed", path, (item, at) => readInteger(item, at)) ?? 1};
        case "filter":
            rejectUnknownFields(object, path, ["kind", "column", "op", "value"]);
            return {
                kind,
                column: required(object, "column", path, readString),
                op: required(object, "op", path, (item, at) => readEnum(item, at, ["equals", "not_equals", "contains"] as const)),
                value: required(object, "value", path, readString)
            };
    }
}

function readConnection(value: unknown, path: FieldPath): ConnectionRef {
    const object = readObject(value, path);
    if ("profile" in object) {
        rejectUnknownFields(object, path, ["profile"]);
        return {profile: required(object, "profile", path, nonEmpty)};
    }
    rejectUnknownFields(object, path, ["baseUrl", "apiKeyEnv"]);
    const baseUrl = required(object, "baseUrl", path, nonEmpty);
    try {
        new URL(baseUrl);
    } catch {
        fail([...path, "baseUrl"], `must be a URL such as http://127.0.0.1:8080, got ${JSON.stringify(baseUrl)}`);
    }
    const apiKeyEnv = optional(object, "apiKeyEnv", path, nonEmpty);
    return {baseUrl, ...(apiKeyEnv === undefined ? {} : {apiKeyEnv})};
}

function readVariant(value: unknown, path: FieldPath): Variant {
    const object = readObject(value, path);
    rejectUnknownFields(object, path, ["name", "version", "connection", "model", "params", "prices"]);
    const model = optional(object, "model", path, readString);
    const params = optional(object, "params", path, readObject);
    const prices = optional(object, "prices", path, (item, at) => {
        const fields = readObject(item, at);
        rejectUnknownFields(fields, at, ["inputPerMillion", "outputPerMillion"]);
        return {inputPerMillion: required(fields, "inputPerMillion", at, (n, p) => readNumber(n, p, {min: 0})), outputPerMillion: required(fields, "outputPerMillion", at, (n, p) => readNumber(n, p, {min: 0}))};
    });
    return {
        name: required(object, "name", path, nonEmpty),
        version: readVersion(required(object, "version", path, readObject), [...path, "version"]),
        connection: readConnection(required(object, "connection", path, (item) => item), [...path, "connection"]),
        ...(model === undefined ? {} : {model}),
        ...(params === undefined ? {} : {params}),
        ...(prices === undefined ? {} : {prices})
    };
}

function readVersion(object: JsonObject, path: FieldPath): PromptVersion {
    rejectUnknownFields(object, path, ["itemId", "itemName", "version", "note", "createdAt", "prompt"]);
    const prompt = required(object, "prompt", path, readObject);
    const at = [...path, "prompt"];
    const kind = required(prompt, "kind", at, (item, field) => readEnum(item, field, ["chat", "decision"] as const));
    const version = {
        itemId: optional(object, "itemId", path, readString) ?? "",
        itemName: optional(object, "itemName", path, readString) ?? "",
        version: optional(object, "version", path, (item, field) => readInteger(item, field, {min: 1})) ?? 1,
        note: optional(object, "note", path, readString) ?? "",
        createdAt: optional(object, "createdAt", path, readNumber) ?? 0
    };
    if (kind === "chat") {
        rejectUnknownFields(prompt, at, ["kind", "endpoint", "body"]);
        const endpoint = required(prompt, "endpoint", at, (item, field) => readEnum(item, field, ["chat", "responses"] as const));
        const body = required(prompt, "body", at, readObject);
        if (endpoint === "chat" && !Array.isArray(body.messages)) fail([...at, "body", "messages"], "a chat prompt needs its messages array");
        if (endpoint === "responses" && body.input === undefined) fail([...at, "body", "input"], "a Responses prompt needs its input");
        return {...version, prompt: {kind, endpoint, body}};
    }
    rejectUnknownFields(prompt, at, ["kind", "questionSet", "input"]);
    let questionSet;
    try {
        questionSet = parseQuestionSet(required(prompt, "questionSet", at, (item) => item)).questionSet;
    } catch (error) {
        if (error instanceof QuestionSetError) fail([...at, "questionSet"], error.message.replace(/^question set: /, ""));
        throw error;
    }
    return {...version, prompt: {kind, questionSet, input: readInput(required(prompt, "input", at, readObject), [...at, "input"])}};
}

function readInput(object: JsonObject, path: FieldPath): InputMapping {
    const kind = required(object, "kind", path, (item, at) => readEnum(item, at, ["template", "row"] as const));
    if (kind === "template") {
        rejectUnknownFields(object, path, ["kind", "template"]);
        return {kind, template: required(object, "template", path, readString)};
    }
    rejectUnknownFields(object, path, ["kind", "columns"]);
    const columns = optional(object, "columns", path, readStrings);
    return {kind, ...(columns === undefined ? {} : {columns})};
}

const scopeFields = ["when", "negate"];

function readCheck(value: unknown, path: FieldPath): Check {
    const object = readObject(value, path);
    const kind = required(object, "kind", path, (item, at) => readEnum(item, at, ["equals", "contains", "starts_with", "contains_any", "contains_all", "regex", "is_json", "contains_json", "json_schema", "tool_calls", "grader", "weighted"] as const));
    const when = optional(object, "when", path, nonEmpty);
    const negate = optional(object, "negate", path, readBoolean);
    const scope = {...(when === undefined ? {} : {when}), ...(negate === undefined ? {} : {negate})};
    const allow = (fields: string[]) => rejectUnknownFields(object, path, ["kind", ...scopeFields, ...fields]);
    switch (kind) {
        case "equals":
        case "contains":
        case "starts_with":
        case "contains_any":
        case "contains_all": {
            allow(["column", "caseSensitive"]);
            const caseSensitive = optional(object, "caseSensitive", path, readBoolean);
            return {kind, column: required(object, "column", path, readString), ...(caseSensitive === undefined ? {} : {caseSensitive}), ...scope};
        }
        case "regex": {
            allow(["pattern", "flags"]);
            const flags = optional(object, "flags", path, readString);
            return {kind, pattern: required(object, "pattern", path, readString), ...(flags === undefined ? {} : {flags}), ...scope};
        }
        case "is_json":
        case "contains_json":
        case "tool_calls":
            allow([]);
            return {kind, ...scope};
        case "json_schema":
            allow(["schema"]);
            return {kind, schema: required(object, "schema", path, readObject), ...scope};
        case "grader": {
            allow(["name", "question", "template", "connection", "threshold", "labels", "passing", "levels", "humanLabelColumn", "calibration"]);
            const connection = optional(object, "connection", path, (item, at) => readConnection(item, at));
            const threshold = optional(object, "threshold", path, (item, at) => readNumber(item, at, {min: 0, max: 1}));
            const labels = optional(object, "labels", path, readStrings);
            const passing = optional(object, "passing", path, readStrings);
            const levels = optional(object, "levels", path, (item, at) => readArray(item, at).map((level, index) => readNumber(level, [...at, index])));
            const humanLabelColumn = optional(object, "humanLabelColumn", path, nonEmpty);
            // A grader's calibration is a yes/no question's (its score read as P(a person passes)): Platt scaling.
            const calibration = optional(object, "calibration", path, (item, at) => {
                const read = readQuestionCalibration(item, at);
                if (read.kind !== "yesno") fail([...at, "kind"], "must be \"yesno\": a grader's score is calibrated as P(a person passes the reply)");
                return read;
            });
            const grader: Check = {
                kind,
                name: required(object, "name", path, nonEmpty),
                question: required(object, "question", path, nonEmpty),
                template: required(object, "template", path, readString),
                ...(connection === undefined ? {} : {connection}),
                ...(threshold === undefined ? {} : {threshold}),
                ...(labels === undefined ? {} : {labels}),
                ...(passing === undefined ? {} : {passing}),
                ...(levels === undefined ? {} : {levels}),
                ...(humanLabelColumn === undefined ? {} : {humanLabelColumn}),
                ...(calibration === undefined ? {} : {calibration}),
                ...scope
            };
            const shape = graderShapeProblem(grader);
            if (shape !== null) fail([...path, shape.field], shape.message);
            return grader;
        }
        case "weighted": {
            allow(["name", "threshold", "parts"]);
            const parts = required(object, "parts", path, readArray).map((item, index) => {
                const at = [...path, "parts", index];
                const part = readObject(item, at);
                rejectUnknownFields(part, at, ["weight", "check"]);
                return {weight: required(part, "weight", at, (n, p) => readNumber(n, p, {min: 0})), check: readCheck(required(part, "check", at, (c) => c), [...at, "check"])};
            });
            if (parts.length === 0) fail([...path, "parts"], "needs at least one part");
            return {kind, name: required(object, "name", path, nonEmpty), threshold: required(object, "threshold", path, (n, p) => readNumber(n, p, {min: 0, max: 1})), parts, ...scope};
        }
    }
}
