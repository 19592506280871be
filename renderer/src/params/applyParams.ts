import type {JsonBody} from "../../../client/sdk/index.ts";
import type {ParamSpec, ParamValues} from "./types.ts";

/**
 * Writes the set parameters into a request body at their paths. Values are sent as typed, even out of
 * range: the playground exists to see what the server answers, and the panel flags the range itself.
 * `stream: false` is left out (it is the default), and so is anything whose `requires` is not true.
 */
export function applyParams(specs: readonly ParamSpec[], values: ParamValues, body: JsonBody): JsonBody {
    for (const spec of specs) {
        const value = values[spec.key];
        if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
        if (spec.key === "stream" && value === false) continue;
        if (spec.requires && values[spec.requires] !== true) continue;
        setAt(body, spec.path, value);
    }
    return body;
}

function setAt(body: JsonBody, path: string[], value: unknown) {
    let target: Record<string, unknown> = body;
    for (const key of path.slice(0, -1)) {
        const next = target[key];
        if (next === null || typeof next !== "object" || Array.isArray(next)) target[key] = {};
        target = target[key] as Record<string, unknown>;
    }
    target[path[path.length - 1]] = value;
}
