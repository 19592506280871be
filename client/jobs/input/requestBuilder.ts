import {stableStringify} from "../../../protocol/decisions/stableStringify.ts";
import type {DecisionsRequest, SystemoneRequest} from "../../../protocol/decisions/types.ts";
import {modelIds} from "../../../protocol/limits.ts";
import type {QuestionSet} from "../../questions/types.ts";
import type {CellValue, SheetRow} from "../../spreadsheets/types.ts";
import type {InputMapping} from "../types.ts";
import {compileTemplate} from "./compileTemplate.ts";

export type ScoringRequest =
    | {format: "decisions", body: DecisionsRequest}
    | {format: "systemone", body: SystemoneRequest};

/**
 * Turns each row into the request body of the set's endpoint. Template: the rendered text is `input`
 * (decisions) or `state` (systemone). Whole row: the object {column: cell} is `state` as is (the server
 * reads it as stable JSON), and for decisions `input` is that object as stable JSON (keys sorted, compact),
 * so equal rows always send equal text. The set's own fields (name, calibration...) are never sent.
 */
export function requestBuilder(questionSet: QuestionSet, input: InputMapping, columns: readonly string[]): (row: SheetRow) => ScoringRequest {
    const render = input.kind === "template" ? compileTemplate(input.template, columns) : undefined;
    const asObject = (row: SheetRow) => {
        const object: Record<string, CellValue> = {};
        columns.forEach((column, index) => object[column] = row[index] ?? null);
        return object;
    };
    if (questionSet.format === "decisions") {
        const base = {model: modelIds.decision, questions: questionSet.questions, ...(questionSet.x_svc === undefined ? {} : {x_svc: questionSet.x_svc})};
        return (row) => ({format: "decisions", body: {...base, input: render ? render(row) : stableStringify(asObject(row))}});
    }
    const base = {model: modelIds.decision, questions: questionSet.questions, ...(questionSet.x_svc === undefined ? {} : {x_svc: questionSet.x_svc})};
    return (row) => ({format: "systemone", body: {...base, state: render ? render(row) : asObject(row)}});
}
