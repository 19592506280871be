// The studio's input resolved for a request (text, a JSON state or a table row), and an input read back from a request.
import {useDeferredValue, useMemo} from "react";
import type {ColumnRoles, InputMapping, SheetRow} from "../../../../client/scoring/index.ts";
import {newId} from "../../ui/browser.ts";
import type {DraftImage} from "../../ui/images.tsx";
import type {QuestionFormat} from "../questionSet/draft.ts";
import {imageName, rowInput, type InputValue} from "../questionSet/requests.ts";
import {useScoringStore} from "../scoring/scoringStore.ts";
import {datasetInfo, loadRows, useDatasetRowsStore, useDatasetsStore} from "../datasets/datasetStore.ts";
import {useDecisionInputStore, type DecisionInput, type InputMode} from "./studioState.ts";

export type DecisionInputSource = {mode: InputMode, text: string, jsonText: string, rowIndex: number};
/** Rows a table-row input comes from, with its columns' roles (labels reach the model only when ticked). */
export type TableForInput = ColumnRoles & {name: string, rows: readonly SheetRow[], mapping: InputMapping} | null;

/** The input as the request will carry it, or why there is none yet. */
export type ResolvedInput = {input: InputValue, error: null} | {input: null, error: string};

/** The input as the request will carry it, or why there is none yet (invalid JSON, no table, a bad template). */
export function resolveDecisionInput(source: DecisionInputSource, table: TableForInput): ResolvedInput {
    if (source.mode === "text") return {input: {kind: "text", text: source.text}, error: null};
    if (source.mode === "json") {
        try {
            return {input: {kind: "json", value: JSON.parse(source.jsonText)}, error: null};
        } catch (error) {
            return {input: null, error: `state: invalid JSON: ${(error as Error).message}`};
        }
    }
    if (table === null || table.rows.length === 0) return {input: null, error: "no rows: pick a dataset, or import a CSV or XLSX file on the Scoring screen"};
    if (!Number.isInteger(source.rowIndex) || source.rowIndex < 0 || source.rowIndex >= table.rows.length)
        return {input: null, error: `row: pick a row from 1 to ${table.rows.length.toLocaleString("en-US")}`};
    try {
        return {input: rowInput(table, table.rows[source.rowIndex], table.mapping), error: null};
    } catch (error) {
        return {input: null, error: (error as Error).message};
    }
}

/**
 * How a saved dataset's row goes in: the studio's row template when one is typed, else the row as JSON over the
 * columns the model sees (no column list: the dataset's ticks decide, at run time as in an experiment).
 */
export function datasetRowMapping(rowTemplate: string): InputMapping {
    return rowTemplate.trim() === "" ? {kind: "row"} : {kind: "template", template: rowTemplate};
}

/** The rows table-row mode reads: the chosen saved dataset, else the table loaded on the scoring screen. */
export function rowSource(datasetId: string | null, rowTemplate: string): TableForInput {
    if (datasetId !== null) {
        const info = datasetInfo(datasetId);
        if (info === null) return null;
        // Its rows are read once, then kept: until they are here the table has none.
        const entry = useDatasetRowsStore.getState().entries[datasetId];
        if (entry?.complete !== true) void loadRows(datasetId);
        return {name: info.name, columns: info.columns, labelColumns: info.labelColumns, inputColumns: info.inputColumns, rows: entry?.complete ? entry.rows : [], mapping: datasetRowMapping(rowTemplate)};
    }
    const {table, mapping} = useScoringStore.getState();
    return table === null ? null : {name: table.fileName, columns: table.columns, rows: table.rows, mapping};
}

/** The rows table-row mode reads, re-read when the dataset, the scoring table or the mapping changes. */
export function useRowSource(): TableForInput {
    const datasetId = useDecisionInputStore((state) => state.datasetId);
    const rowTemplate = useDecisionInputStore((state) => state.rowTemplate);
    const datasets = useDatasetsStore((state) => state.datasets);
    const rows = useDatasetRowsStore((state) => datasetId === null ? undefined : state.entries[datasetId]);
    const table = useScoringStore((state) => state.table);
    const mapping = useScoringStore((state) => state.mapping);
    // The dataset list and its rows, the scoring table and its mapping are what rowSource reads.
    return useMemo(() => rowSource(datasetId, rowTemplate), [datasetId, rowTemplate, datasets, rows, table, mapping]);
}

/** The current input of the builder (text, JSON state or a table row), resolved for a request. */
export function useResolvedInput() {
    const mode = useDecisionInputStore((state) => state.mode);
    const text = useDecisionInputStore((state) => state.text);
    const jsonText = useDeferredValue(useDecisionInputStore((state) => state.jsonText));
    const rowIndex = useDecisionInputStore((state) => state.rowIndex);
    const table = useRowSource();
    return useMemo(() => resolveDecisionInput({mode, text, jsonText, rowIndex}, table), [mode, text, jsonText, rowIndex, table]);
}

/** The same, read once outside React (when Run is pressed). */
export function currentInput(): ResolvedInput {
    const input = useDecisionInputStore.getState();
    return resolveDecisionInput(input, rowSource(input.datasetId, input.rowTemplate));
}

/**
 * The input a decision request carried, as the studio edits it: text, or a JSON state (on /v1/decisions a state is sent
 * as JSON text, so text that reads as a JSON object or array comes back as one), and its images in order.
 */
export function inputFromRequest(format: QuestionFormat, body: Record<string, unknown>): Partial<DecisionInput> {
    const images: DraftImage[] = [];
    const image = (dataUrl: unknown) => {
        if (typeof dataUrl === "string") images.push({id: newId(), name: imageName(images.length), dataUrl});
    };
    let value: unknown;
    if (format === "decisions") {
        const texts: string[] = [];
        const input = body.input;
        if (typeof input === "string") texts.push(input);
        else if (Array.isArray(input)) for (const message of input as Array<{content?: unknown}>) {
            if (typeof message.content === "string") texts.push(message.content);
            else if (Array.isArray(message.content)) for (const part of message.content as Array<{type?: string, text?: unknown, image_url?: unknown}>) {
                if (part.type === "input_text" && typeof part.text === "string") texts.push(part.text);
                if (part.type === "input_image") image(part.image_url);
            }
        }
        value = texts.join("\n\n");
    } else {
        value = body.state;
        const named = (body.x_svc as {images?: Record<string, unknown>} | undefined)?.images ?? {};
        for (const url of Object.values(named)) image(url);
    }
    if (typeof value === "string") {
        const state = readStructured(value);
        if (state === undefined) return {mode: "text", text: value, images};
        value = state;
    }
    return {mode: "json", jsonText: `${JSON.stringify(value, null, 2)}\n`, images};
}

function readStructured(text: string): unknown {
    if (!/^\s*[[{]/.test(text)) return undefined;
    try {
        return JSON.parse(text);
    } catch {
        return undefined;
    }
}
