import {compileTemplate, type InputMapping, type SheetRow} from "../../../../client/scoring/index.ts";
import type {InputValue} from "../../decisions/model/buildDecisionRequest.ts";

/**
 * One table row as the input of a decision request, by the same mapping a scoring job uses
 * (client/scoring/requests.ts): the filled template as text, or the row as a JSON object
 * {column: cell}. Throws a TemplateError for a template that names no column.
 */
export function rowInput(columns: readonly string[], row: SheetRow, mapping: InputMapping): InputValue {
    if (mapping.kind === "template") return {kind: "text", text: compileTemplate(mapping.template, columns)(row)};
    return {kind: "json", value: Object.fromEntries(columns.map((column, index) => [column, row[index] ?? null]))};
}
