// The Decision studio's state: the input (text, JSON state, a table row; images), the last run, the compare sides.
import {useDeferredValue, useMemo} from "react";
import {create} from "zustand";
import type {QuestionSet, InputMapping, SheetRow} from "../../../../client/scoring/index.ts";
import type {ErrorInfo} from "../../ui/ApiErrorView.tsx";
import type {DraftImage} from "../../ui/images.tsx";
import {type AnswerView, rowInput, type InputValue} from "../questionSet/requests.ts";
import {useScoringStore} from "../scoring/scoringStore.ts";

export type InputMode = "text" | "json" | "row";

type DecisionInputState = {
    mode: InputMode,
    text: string,
    /** The JSON state as typed. */
    jsonText: string,
    /** Up to 8, named image_1... in this order. */
    images: DraftImage[],
    /** Data row of the table loaded on the scoring screen (0-based). */
    rowIndex: number,
    set: (patch: Partial<Omit<DecisionInputState, "set">>) => void
};

export const useDecisionInputStore = create<DecisionInputState>()((set) => ({
    mode: "text",
    text: "The new phone's battery lasts two days, but the camera is disappointing in low light.",
    jsonText: "{\n  \"review\": \"Great value, arrived late.\",\n  \"stars\": 4\n}\n",
    images: [],
    rowIndex: 0,
    set: (patch) => set(patch)
}));

export type DecisionRunResult = {
    status: "done" | "error" | "stopped",
    connectionName: string,
    format: QuestionSet["format"],
    /** The body sent. */
    body: unknown,
    views: AnswerView[] | null,
    /** `usage` of the response (spec 2.3), numbers only. */
    usage: Record<string, number> | null,
    /** From the response's Server-Timing header; null when absent. */
    serverTimingMs: number | null,
    /** Measured here, from the call to the whole body, retries included. */
    durationMs: number,
    attempts: number | null,
    error: ErrorInfo | null
};

export type StudioTab = "build" | "compare";

type DecisionRunState = {
    tab: StudioTab,
    running: boolean,
    result: DecisionRunResult | null,
    set: (patch: Partial<Omit<DecisionRunState, "set">>) => void
};

export const useDecisionRunStore = create<DecisionRunState>()((set) => ({
    tab: "build",
    running: false,
    result: null,
    set: (patch) => set(patch)
}));

/** Which question set a compare side asks: the builder's, or variant B (edited on the compare tab). */
export type SideSet = "current" | "variant";
/** Which connection a side asks: the local engine, or the active remote connection. */
export type SideConnection = "local" | "remote";

export type CompareSide = {set: SideSet, connection: SideConnection};

type CompareState = {
    a: CompareSide,
    b: CompareSide,
    /** Variant B as question set JSON; empty until copied from the builder or opened. */
    variantText: string,
    running: boolean,
    results: {a: DecisionRunResult, b: DecisionRunResult} | null,
    set: (patch: Partial<Omit<CompareState, "set">>) => void
};

export const useCompareStore = create<CompareState>()((set) => ({
    a: {set: "current", connection: "local"},
    b: {set: "variant", connection: "local"},
    variantText: "",
    running: false,
    results: null,
    set: (patch) => set(patch)
}));

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

/** The current input of the builder (text, JSON state or a table row), resolved for a request. */
export function useResolvedInput() {
    const mode = useDecisionInputStore((state) => state.mode);
    const text = useDecisionInputStore((state) => state.text);
    const jsonText = useDeferredValue(useDecisionInputStore((state) => state.jsonText));
    const rowIndex = useDecisionInputStore((state) => state.rowIndex);
    const table = useScoringStore((state) => state.table);
    const mapping = useScoringStore((state) => state.mapping);
    return useMemo(() => resolveDecisionInput({mode, text, jsonText, rowIndex}, table === null ? null : {columns: table.columns, rows: table.rows, mapping}),
        [mode, text, jsonText, rowIndex, table, mapping]);
}

/** The same, read once outside React (when Run is pressed). */
export function currentInput() {
    const input = useDecisionInputStore.getState();
    const scoring = useScoringStore.getState();
    return resolveDecisionInput(input, scoring.table === null ? null : {columns: scoring.table.columns, rows: scoring.table.rows, mapping: scoring.mapping});
}
