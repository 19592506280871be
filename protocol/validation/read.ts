import {ValidationError, type FieldPath} from "./ValidationError.ts";

// Small typed readers for hand-written request schemas: each returns the value narrowed to its type or
// throws a ValidationError that names the path, so every 400 says exactly which field is wrong.

export type JsonObject = Record<string, unknown>;

export function describeType(value: unknown): string {
    if (value === null) return "null";
    if (Array.isArray(value)) return "array";
    return typeof value;
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
        fail(path, `must be one of ${allowed.map((item) => JSON.stringify(item)).join(", ")}, got ${JSON.stringify(value)}`);
    return value as T;
}

/** Reads an optional field: absent and `null` both mean "not sent", as OpenAI clients send either. */
export function optional<T>(object: JsonObject, key: string, path: FieldPath, reader: (value: unknown, path: FieldPath) => T): T | undefined {
    const value = object[key];
    if (value === undefined || value === null) return undefined;
    return reader(value, [...path, key]);
}

export function required<T>(object: JsonObject, key: string, path: FieldPath, reader: (value: unknown, path: FieldPath) => T): T {
    if (!(key in object) || object[key] === undefined) fail([...path, key], "is required");
    return reader(object[key], [...path, key]);
}

/** Rejects fields the schema does not know, for endpoints whose spec says unknown fields are errors. */
export function rejectUnknownFields(object: JsonObject, path: FieldPath, known: readonly string[]) {
    for (const key of Object.keys(object))
        if (!known.includes(key)) fail([...path, key], "is not a recognised field");
}
