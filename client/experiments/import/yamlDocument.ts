import {isNode, LineCounter, parseDocument, type Document} from "yaml";
import {ImportError, type Place} from "./importProblems.ts";

// A YAML (or JSON, which is YAML) file read with the `yaml` library, keeping where each value sits, so a message
// about a field can name its line.

export type FieldPath = ReadonlyArray<string | number>;

/** A parsed YAML file: its value as plain JSON-like data, and the place of any field in it. */
export type YamlFile = {
    file: string,
    value: unknown,
    /** The place of the value at `path` (its line when the file has that field, else the nearest parent's). */
    place(path: FieldPath): Place
};

/** "tests[2].assert[0].value": a field path as messages write it. */
export function fieldText(path: FieldPath): string {
    return path.map((part, index) => typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`).join("");
}

/**
 * Parses `text` as YAML. A syntax error is an ImportError with the line of the first error; duplicate keys are errors
 * too (as promptfoo's own reader has them).
 */
export function parseYamlFile(file: string, text: string): YamlFile {
    const lineCounter = new LineCounter();
    const document: Document = parseDocument(text, {lineCounter, prettyErrors: false, uniqueKeys: true});
    const error = document.errors[0];
    if (error !== undefined) {
        const line = lineCounter.linePos(error.pos[0]).line;
        throw new ImportError({file, line, field: ""}, `not valid YAML: ${error.message.split("\n")[0]}`);
    }
    const value: unknown = document.toJS({maxAliasCount: 1000});
    return {
        file,
        value,
        place(path) {
            for (let length = path.length; length >= 0; length--) {
                const node: unknown = length === 0 ? document.contents : document.getIn(path.slice(0, length), true);
                if (isNode(node) && node.range) return {file, line: lineCounter.linePos(node.range[0]).line, field: fieldText(path)};
            }
            return {file, field: fieldText(path)};
        }
    };
}

/** A plain object (not an array or null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}
