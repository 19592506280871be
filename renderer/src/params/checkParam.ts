import type {ParamSpec, ParamValue} from "./types.ts";

/** The panel's inline warning for a value the server would reject, or null when it is within limits. */
export function checkParam(spec: ParamSpec, value: ParamValue): string | null {
    if (value === undefined) return null;
    if (spec.kind === "integer" || spec.kind === "number") {
        if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
        if (spec.kind === "integer" && !Number.isInteger(value)) return "must be an integer";
        if (spec.min !== undefined && value < spec.min) return `must be at least ${spec.min}`;
        if (spec.max !== undefined && value > spec.max) return `must be at most ${spec.max}`;
        return null;
    }
    if (spec.kind === "stopList") {
        if (!Array.isArray(value)) return "must be a list";
        if (spec.max !== undefined && value.length > spec.max) return `at most ${spec.max} sequences`;
        if (value.some((item) => item.length === 0)) return "sequences must not be empty";
        return null;
    }
    if (spec.kind === "enum" && !spec.options?.includes(String(value))) return `must be one of ${spec.options?.join(", ")}`;
    return null;
}
