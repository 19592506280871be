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
    const value = resolveLocalRefs(document.toJS({maxAliasCount: 1000}), file, lineCounter, document);
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

/**
 * `{$ref: "#/path/to/value"}` objects replaced by the value they point at in the same file (JSON Pointer), as
 * promptfoo dereferences its configs (`assertionTemplates`); a pointer to nothing is an ImportError at its line.
 */
function resolveLocalRefs(root: unknown, file: string, lineCounter: LineCounter, document: Document): unknown {
    const resolve = (value: unknown, path: Array<string | number>, depth: number): unknown => {
        if (Array.isArray(value)) return value.map((item, index) => resolve(item, [...path, index], depth));
        if (!isRecord(value)) return value;
        if (typeof value.$ref === "string" && value.$ref.startsWith("#/")) {
            const node: unknown = document.getIn(path, true);
            const line = isNode(node) && node.range ? lineCounter.linePos(node.range[0]).line : undefined;
            const pointer = value.$ref.slice(2).split("/").map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
            let target: unknown = root;
            for (const part of pointer) target = isRecord(target) || Array.isArray(target) ? (target as Record<string, unknown>)[part] : undefined;
            if (target === undefined || depth > 20) throw new ImportError({file, line, field: fieldText(path)}, `$ref ${JSON.stringify(value.$ref)} points at nothing in this file`);
            return resolve(target, path, depth + 1);
        }
        return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item, [...path, key], depth)]));
    };
    return resolve(root, [], 0);
}

/** A plain object (not an array or null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}
