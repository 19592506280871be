import type {InputMapping, SheetRow} from "../../../../client/scoring/index.ts";
import {rowInput} from "../../scoring/model/rowInput.ts";
import type {InputValue} from "../model/buildDecisionRequest.ts";
import type {InputMode} from "../state/useDecisionInputStore.ts";

export type DecisionInputSource = {mode: InputMode, text: string, jsonText: string, rowIndex: number};
export type TableForInput = {columns: string[], rows: readonly SheetRow[], mapping: InputMapping} | null;

/** The input as the request will carry it, or why there is none yet (invalid JSON, no table, a bad template). */
export function resolveDecisionInput(source: DecisionInputSource, table: TableForInput): {input: InputValue, error: null} | {input: null, error: string} {
    if (source.mode === "text") return {input: {kind: "text", text: source.text}, error: null};
    if (source.mode === "json") {
        try {
            return {input: {kind: "json", value: JSON.parse(source.jsonText)}, error: null};
        } catch (error) {
            return {input: null, error: `state: invalid JSON: ${(error as Error).message}`};
        }
    }
    if (table === null || table.rows.length === 0) return {input: null, error: "no table loaded: import a CSV or XLSX file on the Scoring screen first"};
    if (!Number.isInteger(source.rowIndex) || source.rowIndex < 0 || source.rowIndex >= table.rows.length)
        return {input: null, error: `row: pick a row from 1 to ${table.rows.length.toLocaleString("en-US")}`};
    try {
        return {input: rowInput(table.columns, table.rows[source.rowIndex], table.mapping), error: null};
    } catch (error) {
        return {input: null, error: (error as Error).message};
    }
}
