import {type Preset, readPreset} from "../playground/presets.ts";
import {newId} from "../../ui/browser.ts";

/** Marks an exported file as ours, so importing some other JSON fails with a clear message. */
export const presetFileFormat = "svc-studio-presets";

/**
 * The file's version: 2 adds each preset's `prompt` (the request's messages or input, tools, tool_choice,
 * response_format); version 1 files hold parameters only and still import, as presets that set parameters only.
 */
export const presetFileVersion = 2;

/** The JSON text of an exported presets file. */
export function toPresetFile(presets: Preset[]): string {
    return JSON.stringify({
        format: presetFileFormat,
        version: presetFileVersion,
        presets: presets.map(({name, kind, params, prompt, createdAt}) => ({name, kind, params, ...(prompt !== undefined ? {prompt} : {}), createdAt}))
    }, null, 2) + "\n";
}

/**
 * Reads a presets file back (version 1 or 2). Each preset is checked against its playground: an unknown parameter, a
 * value of the wrong type or a prompt field that does not read rejects the file with the preset's place and the field.
 * Imported presets get new ids.
 */
export function parsePresetFile(text: string): Preset[] {
    let json: unknown;
    try {
        json = JSON.parse(text);
    } catch (error) {
        throw new Error(`Not a JSON file: ${(error as Error).message}`);
    }
    const file = json as {format?: unknown, version?: unknown, presets?: unknown};
    if (file?.format !== presetFileFormat || !Array.isArray(file.presets)) throw new Error(`Not a presets file: expected {"format": "${presetFileFormat}", "presets": [...]}`);
    const version = file.version ?? 1;
    if (version !== 1 && version !== presetFileVersion)
        throw new Error(`version: this app reads presets files of version 1 and ${presetFileVersion}, not ${JSON.stringify(version)}`);
    return file.presets.map((raw, index) => {
        const where = `presets[${index}]`;
        if (version === 1 && (raw as {prompt?: unknown})?.prompt !== undefined) throw new Error(`${where}.prompt: version 1 files hold parameters only`);
        const {id: _id, ...preset} = readPreset(raw, where);
        return {id: newId(), ...preset};
    });
}
