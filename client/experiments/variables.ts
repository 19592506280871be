import {compileTemplate, templateVariables, TemplateError} from "../scoring/requests.ts";
import {LabelColumnError, hiddenLabelColumns, type ColumnRoles} from "../scoring/modelColumns.ts";
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
 * filled from a row. A variable that names no column, a label column the model may not see (modelColumns.ts), or a
 * broken placeholder throws a VariableError naming the field (`prefix` + path) before any row is sent. Strings
 * without `{{` are shared, not copied per row.
 */
export function compileBody<T>(body: T, roles: ColumnRoles, prefix = "body"): (row: SheetRow) => T {
    walkStrings(body, prefix, (text, path) => {
        const hidden = hiddenLabelColumns(templateVariables(text), roles);
        if (hidden.length > 0) throw new VariableError(path, new LabelColumnError("this text", hidden).message);
    });
    const fill = compileValue(body, roles.columns, prefix);
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
