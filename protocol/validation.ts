
export type FieldPath = Array<string | number>;

/** A request that does not match its schema; `path` locates the fault for 400 and 422 bodies alike. */
export class ValidationError extends Error {
    public readonly path: FieldPath;
    /** Extra problems found in the same pass (spec 2.4 wants one entry per input shape checked). */
    public readonly problems: Array<{path: FieldPath, message: string}>;
    /** The spec's 400 code when it is not plain `invalid_request`. */
    public readonly code?: string;

    public constructor(path: FieldPath, message: string, options: {problems?: Array<{path: FieldPath, message: string}>, code?: string} = {}) {
        super(`${formatPath(path)}: ${message}`);
        this.name = "ValidationError";
        this.path = path;
        this.problems = options.problems ?? [{path, message}];
        this.code = options.code;
    }
}

/** `["messages", 0, "content"]` -> `messages[0].content` */
export function formatPath(path: FieldPath): string {
    if (path.length === 0) return "body";
    return path.map((part, index) => typeof part === "number" ? `[${part}]` : (index === 0 ? part : `.${part}`)).join("");
}

// Small typed readers for hand-written request schemas: each returns the value narrowed to its type or
// throws a ValidationError that names the path, so every 400 says exactly which field is wrong.

export type JsonObject = Record<string, unknown>;

export function describeType(value: unknown): string {
    if (value === null) return "null";
    if (Array.isArray(value)) return "array";
    return typeof value;
}

/** Longest piece of a client's string that an error message echoes; a 10 MB value need not come back whole. */
const maxQuotedLength = 80;

/**
 * A client's value as an error message shows it: strings quoted (cut at 80 characters), numbers, booleans and
 * null as written, arrays and objects by their type only. JSON.stringify of a value nested 5,000 deep throws
 * "Maximum call stack size exceeded", which turned a plain 400 into a 500.
 */
export function quoteValue(value: unknown): string {
    if (typeof value === "string")
        return value.length > maxQuotedLength ? `${JSON.stringify(value.slice(0, maxQuotedLength))}...` : JSON.stringify(value);
    if (value === null || typeof value === "number" || typeof value === "boolean") return String(value);
    return `a value of type ${describeType(value)}`;
}

export function fail(path: FieldPath, message: string): never {
    throw new ValidationError(path, message);
}

export function readObject(value: unknown, path: FieldPath): JsonObject {
    if (value === null || typeof value !== "object" || Array.isArray(value))
        fail(path, `must be an object, got ${describeType(value)}`);
    return value as JsonObject;
}

export function readArray(value: unknown, path: FieldPath): unknown[] {
    if (!Array.isArray(value)) fail(path, `must be an array, got ${describeType(value)}`);
    return value;
}

export function readString(value: unknown, path: FieldPath): string {
    if (typeof value !== "string") fail(path, `must be a string, got ${describeType(value)}`);
    return value;
}

export function readBoolean(value: unknown, path: FieldPath): boolean {
    if (typeof value !== "boolean") fail(path, `must be a boolean, got ${describeType(value)}`);
    return value;
}

export function readNumber(value: unknown, path: FieldPath, range: {min?: number, max?: number} = {}): number {
    if (typeof value !== "number" || !Number.isFinite(value)) fail(path, `must be a number, got ${describeType(value)}`);
    if (range.min != null && value < range.min) fail(path, `must be at least ${range.min}, got ${value}`);
    if (range.max != null && value > range.max) fail(path, `must be at most ${range.max}, got ${value}`);
    return value;
}

export function readInteger(value: unknown, path: FieldPath, range: {min?: number, max?: number} = {}): number {
    if (typeof value !== "number" || !Number.isInteger(value)) fail(path, `must be an integer, got ${describeType(value)}`);
    return readNumber(value, path, range);
}

export function readEnum<const T extends string>(value: unknown, path: FieldPath, allowed: readonly T[]): T {
    if (typeof value !== "string" || !allowed.includes(value as T))
        fail(path, `must be one of ${allowed.map((item) => JSON.stringify(item)).join(", ")}, got ${quoteValue(value)}`);
    return value as T;
}

/** A field of a client's object, own properties only: nothing is read from Object.prototype. */
function ownField(object: JsonObject, key: string): unknown {
    return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Reads an optional field: absent and `null` both mean "not sent", as OpenAI clients send either. */
export function optional<T>(object: JsonObject, key: string, path: FieldPath, reader: (value: unknown, path: FieldPath) => T): T | undefined {
    const value = ownField(object, key);
    if (value === undefined || value === null) return undefined;
    return reader(value, [...path, key]);
}

export function required<T>(object: JsonObject, key: string, path: FieldPath, reader: (value: unknown, path: FieldPath) => T): T {
    const value = ownField(object, key);
    if (value === undefined) fail([...path, key], "is required");
    return reader(value, [...path, key]);
}

/**
 * How deeply `value` nests arrays and objects (a scalar is 0, `{}` is 1, `{"a": []}` is 2), walked iteratively so
 * any depth JSON.parse accepts is measured without recursion; the walk stops once `stopAfter` is passed.
 */
export function jsonDepth(value: unknown, stopAfter = Infinity): number {
    let deepest = 0;
    const pending: Array<{value: unknown, depth: number}> = [{value, depth: 0}];
    while (pending.length > 0) {
        const {value: current, depth} = pending.pop()!;
        if (current === null || typeof current !== "object") continue;
        deepest = Math.max(deepest, depth + 1);
        if (deepest > stopAfter) return deepest;
        const children = Array.isArray(current) ? current : Object.values(current);
        for (const child of children) pending.push({value: child, depth: depth + 1});
    }
    return deepest;
}

/** Fails at `path` when `value` nests deeper than `maxDepth` levels, naming the limit so the client can fix it. */
export function checkJsonDepth(value: unknown, path: FieldPath, maxDepth: number) {
    if (jsonDepth(value, maxDepth) > maxDepth)
        fail(path, `nests arrays and objects more than ${maxDepth} levels deep; at most ${maxDepth} levels are supported`);
}

/** Rejects fields the schema does not know, for endpoints whose spec says unknown fields are errors. */
export function rejectUnknownFields(object: JsonObject, path: FieldPath, known: readonly string[]) {
    for (const key of Object.keys(object))
        if (!known.includes(key)) fail([...path, key], "is not a recognised field");
}

/**
 * Reads the output budget fields of spec 2.1/2.4 (`max_tokens`, `max_completion_tokens`, `max_output_tokens`):
 * positive integers; when several are sent the first of `fields` wins (`max_completion_tokens` over `max_tokens`).
 * Whether the budget fits the window is checked later, once the prompt is tokenised.
 */
export function readOutputBudget(body: JsonObject, fields: readonly string[]): {value: number, field: string} | undefined {
    let chosen: {value: number, field: string} | undefined;
    for (const field of fields) {
        const value = body[field];
        if (value === undefined || value === null) continue;
        const path: FieldPath = [field];
        if (typeof value !== "number" || !Number.isInteger(value))
            throw new ValidationError(path, `must be an integer, got ${describeType(value)}`);
        if (value <= 0)
            throw new ValidationError(path, `must be a positive integer, got ${value}`);
        chosen ??= {value, field};
    }
    return chosen;
}

// Sampling fields shared by chat, legacy completions and Responses, validated once for all three.
// Ranges follow the OpenAI format (the spec leaves them "not shown"), so clients written for it keep working.

const maxStopSequences = 4;

export function readStop(value: unknown, path: FieldPath): string[] {
    const stops = typeof value === "string" ? [value] : readArray(value, path).map((item, index) => readString(item, [...path, index]));
    if (stops.length > maxStopSequences) fail(path, `must hold at most ${maxStopSequences} stop sequences, got ${stops.length}`);
    stops.forEach((stop, index) => {
        if (stop.length === 0) fail(typeof value === "string" ? path : [...path, index], "must not be empty");
    });
    return stops;
}

export function readSampling(body: JsonObject, {withStop = true, withPenalties = true} = {}): SamplingParams {
    const sampling: SamplingParams = {
        temperature: optional(body, "temperature", [], (value, path) => readNumber(value, path, {min: 0, max: 2})),
        top_p: optional(body, "top_p", [], (value, path) => readNumber(value, path, {min: 0, max: 1})),
        seed: optional(body, "seed", [], (value, path) => readInteger(value, path, {min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER}))
    };
    if (withStop) sampling.stop = optional(body, "stop", [], readStop);
    if (withPenalties) {
        sampling.presence_penalty = optional(body, "presence_penalty", [], (value, path) => readNumber(value, path, {min: -2, max: 2}));
        sampling.frequency_penalty = optional(body, "frequency_penalty", [], (value, path) => readNumber(value, path, {min: -2, max: 2}));
    }
    return sampling;
}

/** Sampling fields shared by chat, legacy completions and Responses. */
export type SamplingParams = {
    temperature?: number,
    top_p?: number,
    seed?: number,
    stop?: string[],
    presence_penalty?: number,
    frequency_penalty?: number
};
