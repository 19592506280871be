import type {CellValue, SheetRow, InputMapping} from "./types.ts";
import {stableStringify} from "../../protocol/decisions/stableStringify.ts";
import type {DecisionsRequest, SystemoneRequest} from "../../protocol/decisions/types.ts";
import {modelIds} from "../../protocol/limits.ts";
import type {QuestionSet} from "./questions.ts";
import {assertModelMaySee, modelColumns, type ColumnRoles} from "./modelColumns.ts";

/**
 * Compiles an input template against a table's columns.
 *
 * Rules:
 * - `{{column}}` is replaced by that row's cell: the name is matched exactly after trimming the spaces just
 *   inside the braces (`{{ city }}` = `{{city}}`); an empty cell gives "", a number its shortest decimal
 *   form (`3.5`), a boolean `true` / `false`. Cell text is inserted as is, never re-read as a template.
 * - `\{{` writes a literal `{{` (the backslash is dropped); `\\{{name}}` writes one backslash, then the cell.
 *   Backslashes anywhere else, and a `}}` outside a placeholder, are kept as they are.
 * - A `{{` without its `}}`, an empty `{{}}` or an unknown column is an error now, before any row is sent;
 *   a column whose name holds `}}` cannot be named in a template (use the whole-row JSON mode instead).
 */
export function compileTemplate(template: string, columns: readonly string[]): (row: SheetRow) => string {
    const parts: Array<string | number> = [];
    let literal = "";
    for (let index = 0; index < template.length;) {
        if (template.startsWith("\\\\{{", index)) {
            literal += "\\";
            index += 2;
        } else if (template.startsWith("\\{{", index)) {
            literal += "{{";
            index += 3;
        } else if (template.startsWith("{{", index)) {
            const close = template.indexOf("}}", index + 2);
            if (close < 0) throw new TemplateError(`template: "{{" at position ${index} has no closing "}}" (write \\{{ for a literal {{)`);
            const name = template.slice(index + 2, close).trim();
            if (name === "") throw new TemplateError(`template: empty placeholder at position ${index}`);
            const column = columns.indexOf(name);
            if (column < 0) throw new TemplateError(`template: no column named ${JSON.stringify(name)}; columns: ${columns.map((entry) => JSON.stringify(entry)).join(", ")}`);
            if (literal !== "") parts.push(literal);
            literal = "";
            parts.push(column);
            index = close + 2;
        } else {
            literal += template[index];
            index++;
        }
    }
    if (literal !== "") parts.push(literal);
    return (row) => parts.map((part) => typeof part === "string" ? part : cellText(row[part])).join("");
}

export class TemplateError extends Error {
    public constructor(message: string) {
        super(message);
        this.name = "TemplateError";
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

export function cellText(cell: CellValue | undefined): string {
    if (cell === null || cell === undefined) return "";
    return typeof cell === "string" ? cell : String(cell);
}

export type ScoringRequest =
    | {format: "decisions", body: DecisionsRequest}
    | {format: "systemone", body: SystemoneRequest};

/**
 * Compiles whole-row mode against a table's columns: the row as {column: cell} over `mapping.columns`, else the
 * columns the model sees (modelColumns: the ticked ones, else all but the labels), in table order, each cell with its
 * type as read (a number stays a number). A chosen column the table lacks, or a label column the model may not see,
 * is an error now, before any row is sent.
 */
export function compileRowObject(mapping: {columns?: readonly string[]}, roles: ColumnRoles): (row: SheetRow) => Record<string, CellValue> {
    const {columns} = roles;
    const missing = (mapping.columns ?? []).filter((column) => !columns.includes(column));
    if (missing.length > 0) throw new TemplateError(`whole row: no column named ${missing.map((column) => JSON.stringify(column)).join(", ")}; columns: ${columns.map((column) => JSON.stringify(column)).join(", ")}`);
    if (mapping.columns !== undefined) assertModelMaySee(mapping.columns, roles, "the whole-row input");
    const chosen = new Set(mapping.columns ?? modelColumns(roles));
    const sent = columns.flatMap((column, index) => chosen.has(column) ? [{column, index}] : []);
    return (row) => {
        const object: Record<string, CellValue> = {};
        for (const {column, index} of sent) object[column] = row[index] ?? null;
        return object;
    };
}

/**
 * Compiles an input template against a table's columns and their roles: compileTemplate, after refusing a template
 * that names a label column the model may not see (modelColumns.ts). What every input template is compiled with.
 */
export function compileInputTemplate(template: string, roles: ColumnRoles): (row: SheetRow) => string {
    assertModelMaySee(templateVariables(template), roles, "the input template");
    return compileTemplate(template, roles.columns);
}

/**
 * Turns each row into the request body of the set's endpoint. Template: the rendered text is `input`
 * (decisions) or `state` (systemone). Whole row: the object {column: cell} (compileRowObject) is `state` as is
 * (the server reads it as stable JSON), and for decisions `input` is that object as stable JSON (keys sorted,
 * compact), so equal rows always send equal text. The set's own fields (name, calibration...) are never sent. Either
 * way a label column reaches the model only when ticked as seen by it (modelColumns.ts).
 */
export function requestBuilder(questionSet: QuestionSet, input: InputMapping, roles: ColumnRoles): (row: SheetRow) => ScoringRequest {
    const render = input.kind === "template" ? compileInputTemplate(input.template, roles) : undefined;
    const asObject = input.kind === "row" ? compileRowObject(input, roles) : () => ({});
    if (questionSet.format === "decisions") {
        const base = {model: modelIds.decision, questions: questionSet.questions, ...(questionSet.x_svc === undefined ? {} : {x_svc: questionSet.x_svc})};
        return (row) => ({format: "decisions", body: {...base, input: render ? render(row) : stableStringify(asObject(row))}});
    }
    const base = {model: modelIds.decision, questions: questionSet.questions, ...(questionSet.x_svc === undefined ? {} : {x_svc: questionSet.x_svc})};
    return (row) => ({format: "systemone", body: {...base, state: render ? render(row) : asObject(row)}});
}
