import type {JsonBody} from "../../../client/sdk/index.ts";
import type {ParamSpec, ParamValues} from "./types.ts";

/** The inverse of applyParams: the parameter values a stored request body holds (history, re-open). */
export function readParams(specs: readonly ParamSpec[], body: JsonBody): ParamValues {
    const values: ParamValues = {};
    for (const spec of specs) {
        const value = getAt(body, spec.path);
        if (value === undefined || value === null) continue;
        if (spec.kind === "stopList") values[spec.key] = typeof value === "string" ? [value] : Array.isArray(value) ? value.map(String) : undefined;
        else if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") values[spec.key] = value;
    }
    if (specs.some((spec) => spec.key === "stream") && values.stream === undefined) values.stream = false;
    return values;
}

function getAt(body: JsonBody, path: string[]): unknown {
    let value: unknown = body;
    for (const key of path) {
        if (value === null || typeof value !== "object") return undefined;
        value = (value as Record<string, unknown>)[key];
    }
    return value;
}
