import {paramSpecsFor, type ParamValues} from "../playground/params.ts";
import {newId} from "../../ui/browser.ts";
import type {Preset} from "../playground/stores.ts";

/** Marks an exported file as ours, so importing some other JSON fails with a clear message. */
export const presetFileFormat = "svc-studio-presets";

/** The JSON text of an exported presets file. */
export function toPresetFile(presets: Preset[]): string {
    return JSON.stringify({
        format: presetFileFormat,
        version: 1,
        presets: presets.map(({name, kind, params, createdAt}) => ({name, kind, params, createdAt}))
    }, null, 2) + "\n";
}

/**
 * Reads a presets file back. Each preset is checked against the parameters of its playground: an
 * unknown parameter or a value of the wrong type rejects the file with the preset's name and the field.
 */
export function parsePresetFile(text: string): Preset[] {
    let json: unknown;
    try {
        json = JSON.parse(text);
    } catch (error) {
        throw new Error(`Not a JSON file: ${(error as Error).message}`);
    }
    const file = json as {format?: unknown, presets?: unknown};
    if (file?.format !== presetFileFormat || !Array.isArray(file.presets)) throw new Error(`Not a presets file: expected {"format": "${presetFileFormat}", "presets": [...]}`);
    return file.presets.map((raw, index) => readPreset(raw, index));
}

function readPreset(raw: unknown, index: number): Preset {
    const item = raw as {name?: unknown, kind?: unknown, params?: unknown, createdAt?: unknown};
    const where = `presets[${index}]`;
    if (typeof item?.name !== "string" || !item.name.trim()) throw new Error(`${where}.name: must be a non-empty string`);
    if (item.kind !== "chat" && item.kind !== "responses" && item.kind !== "completions") throw new Error(`${where}.kind: must be chat, responses or completions`);
    if (item.params === null || typeof item.params !== "object" || Array.isArray(item.params)) throw new Error(`${where}.params: must be an object`);
    const specs = paramSpecsFor[item.kind];
    const params: ParamValues = {};
    for (const [key, value] of Object.entries(item.params)) {
        const spec = specs.find((candidate) => candidate.key === key);
        if (!spec) throw new Error(`${where}.params.${key}: not a ${item.kind} parameter`);
        const expected = spec.kind === "integer" || spec.kind === "number" ? "number" : spec.kind === "boolean" ? "boolean" : spec.kind === "enum" ? "string" : "string[]";
        const ok = expected === "string[]" ? Array.isArray(value) && value.every((entry) => typeof entry === "string") : typeof value === expected;
        if (!ok) throw new Error(`${where}.params.${key}: must be a ${expected}`);
        params[key] = value as ParamValues[string];
    }
    return {id: newId(), name: item.name.trim(), kind: item.kind, params, createdAt: typeof item.createdAt === "number" ? item.createdAt : Date.now()};
}
