import {compileTemplate, TemplateError} from "../scoring/requests.ts";
import type {SheetRow} from "../scoring/types.ts";

// `{{column}}` variables in a saved prompt: every string of a chat or Responses body (messages, instructions,
// tool descriptions, a JSON schema's description...) may name dataset columns, filled per row with the rules of
// scoring's input templates (compileTemplate): exact column names, `\{{` for a literal `{{`, cells as text.

/** A variable that names no column, with where it was found (`messages[1].content`). */
export class VariableError extends Error {
    public readonly path: string;

    public constructor(path: string, message: string) {
        super(`${path}: ${message}`);
        this.name = "VariableError";
        this.path = path;
    }
}

/** The names a template's `{{name}}` placeholders use, in order of first use (escaped `\{{` ones excluded). */
export function templateVariables(template: string): string[] {
    const names: string[] = [];
    for (let index = 0; index < template.length;) {
        if (template.startsWith("\\\\{{", index)) index += 2;
        else if (template.startsWith("\\{{", index)) index += 3;
        else if (template.startsWith("{{", index)) {
            const close = template.indexOf("}}", index + 2);
            if (close < 0) break;
            const name = template.slice(index + 2, close).trim();
            if (name !== "" && !names.includes(name)) names.push(name);
            index = close + 2;
        } else index++;
    }
    return names;
}

/** Every variable a body's strings use (object keys are never templates), in order of first use. */
export function bodyVariables(body: unknown): string[] {
    const names: string[] = [];
    walkStrings(body, "", (text) => {
        for (const name of templateVariables(text)) if (!names.includes(name)) names.push(name);
    });
    return names;
}

/**
 * Compiles a body against the dataset's columns: a function that returns a copy with each string's variables
 * filled from a row. A variable that names no column, or a broken placeholder, throws a VariableError naming
 * the field (`prefix` + path) before any row is sent. Strings without `{{` are shared, not copied per row.
 */
export function compileBody<T>(body: T, columns: readonly string[], prefix = "body"): (row: SheetRow) => T {
    const fill = compileValue(body, columns, prefix);
    return (row) => fill(row) as T;
}

type Fill = (row: SheetRow) => unknown;

function compileValue(value: unknown, columns: readonly string[], path: string): Fill {
    if (typeof value === "string") {
        if (!value.includes("{{")) return () => value;
        try {
            const render = compileTemplate(value, columns);
            return (row) => render(row);
        } catch (error) {
            if (error instanceof TemplateError) throw new VariableError(path, error.message.replace(/^template: /, ""));
            throw error;
        }
    }
    if (Array.isArray(value)) {
        const items = value.map((item, index) => compileValue(item, columns, `${path}[${index}]`));
        return (row) => items.map((fill) => fill(row));
    }
    if (value !== null && typeof value === "object") {
        const fields = Object.entries(value).map(([key, item]) => [key, compileValue(item, columns, `${path}.${key}`)] as const);
        return (row) => Object.fromEntries(fields.map(([key, fill]) => [key, fill(row)]));
    }
    return () => value;
}

function walkStrings(value: unknown, path: string, visit: (text: string, path: string) => void) {
    if (typeof value === "string") visit(value, path);
    else if (Array.isArray(value)) value.forEach((item, index) => walkStrings(item, `${path}[${index}]`, visit));
    else if (value !== null && typeof value === "object")
        for (const [key, item] of Object.entries(value)) walkStrings(item, `${path}.${key}`, visit);
}
