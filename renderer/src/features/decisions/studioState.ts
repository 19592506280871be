// The Decision studio's state, kept in the app's data folder (gateway/appData.ts) so a reload or a restart finds the
// studio as it was left: the tab, the input (text, JSON state, a table row; images), the last run, the compare sides.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import type {QuestionSet} from "../../../../client/scoring/index.ts";
import {appDataStorage} from "../../gateway/appData.ts";
import type {ErrorInfo} from "../../ui/ApiErrorView.tsx";
import type {DraftImage} from "../../ui/images.tsx";
import {restoredDocument, savedDocument, type DraftDocument, type SavedDocument} from "../questionSet/questionSetStore.ts";
import type {AnswerView} from "../questionSet/requests.ts";
import {elideDataUrls} from "../playground/viewCode.ts";

export type InputMode = "text" | "json" | "row";

export type DecisionInput = {
    mode: InputMode,
    text: string,
    /** The JSON state as typed. */
    jsonText: string,
    /** Up to 8, named image_1... in this order. */
    images: DraftImage[],
    /** Data row (0-based) of the table rows come from: the scoring screen's, or a saved dataset's. */
    rowIndex: number,
    /** Table row mode: the saved dataset rows come from, null for the table loaded on the scoring screen. */
    datasetId: string | null,
    /** Table row mode on a dataset: `{{column}}` template of the input; empty sends the row as JSON (the columns the
     * model sees). */
    rowTemplate: string
};

type DecisionInputState = DecisionInput & {
    set: (patch: Partial<DecisionInput>) => void
};

/**
 * Images bigger than this in all (their data URLs) are not kept across a reload: a saved document may hold 4 MiB, and
 * the rest of the input must still fit. The input panel says so when it happens.
 */
export const keptImageChars = 2 * 1024 * 1024;

export const imagesKept = (images: readonly DraftImage[]) => images.reduce((total, image) => total + image.dataUrl.length, 0) <= keptImageChars;

export const useDecisionInputStore = create<DecisionInputState>()(persist((set) => ({
    mode: "text",
    text: "The new phone's battery lasts two days, but the camera is disappointing in low light.",
    jsonText: "{\n  \"review\": \"Great value, arrived late.\",\n  \"stars\": 4\n}\n",
    images: [],
    rowIndex: 0,
    datasetId: null,
    rowTemplate: "",
    set: (patch) => set(patch)
}), {
    name: "svc-studio-decision-input",
    storage: createJSONStorage(() => appDataStorage),
    partialize: ({mode, text, jsonText, images, rowIndex, datasetId, rowTemplate}): DecisionInput => ({mode, text, jsonText, images: imagesKept(images) ? images : [], rowIndex, datasetId, rowTemplate})
}));

export type DecisionRunResult = {
    status: "done" | "error" | "stopped",
    connectionName: string,
    format: QuestionSet["format"],
    /** Whether the request was sent; a run refused here (a problem of the set or the input) was not. */
    sent: boolean,
    /** The body sent, or the one that would have been; null when there was none to make. */
    body: unknown,
    /** The response body as the server sent it (the answers, or the error's body); null when none came. */
    response: unknown,
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

/** A result as it is kept across a reload: image data shortened (History keeps the whole request). */
export const keptResult = (result: DecisionRunResult | null): DecisionRunResult | null => result === null ? null : {...result, body: elideDataUrls(result.body)};

export type StudioTab = "build" | "compare";

type DecisionRunState = {
    tab: StudioTab,
    running: boolean,
    result: DecisionRunResult | null,
    set: (patch: Partial<Omit<DecisionRunState, "set">>) => void
};

export const useDecisionRunStore = create<DecisionRunState>()(persist((set) => ({
    tab: "build",
    running: false,
    result: null,
    set: (patch) => set(patch)
}), {
    name: "svc-studio-decision-run",
    storage: createJSONStorage(() => appDataStorage),
    partialize: (state) => ({tab: state.tab, result: keptResult(state.result)})
}));

/** Which question set a compare side asks: the builder's, or variant B (edited on the compare tab). */
export type SideSet = "current" | "variant";
/** Which connection a side asks: the local engine, or the active remote connection. */
export type SideConnection = "local" | "remote";

export type CompareSide = {set: SideSet, connection: SideConnection};

/** How variant B is edited: with the builder's form, or as its JSON file. */
export type VariantView = "form" | "json";

type CompareState = {
    a: CompareSide,
    b: CompareSide,
    /** Variant B; null until copied from the builder, opened or started empty. */
    variant: DraftDocument | null,
    variantView: VariantView,
    running: boolean,
    results: {a: DecisionRunResult, b: DecisionRunResult} | null,
    set: (patch: Partial<Omit<CompareState, "set">>) => void
};

type SavedCompare = Pick<CompareState, "a" | "b" | "variantView" | "results"> & {variant: SavedDocument | null};

export const useCompareStore = create<CompareState>()(persist((set) => ({
    a: {set: "current", connection: "local"},
    b: {set: "variant", connection: "local"},
    variant: null,
    variantView: "form",
    running: false,
    results: null,
    set: (patch) => set(patch)
}), {
    name: "svc-studio-decision-compare",
    storage: createJSONStorage(() => appDataStorage),
    partialize: (state): SavedCompare => ({
        a: state.a, b: state.b, variantView: state.variantView,
        variant: state.variant === null ? null : savedDocument(state.variant),
        results: state.results === null ? null : {a: keptResult(state.results.a)!, b: keptResult(state.results.b)!}
    }),
    merge: (persisted, current) => {
        const saved = persisted as Partial<SavedCompare> | undefined;
        return {...current, ...saved, variant: saved?.variant == null ? null : restoredDocument(saved.variant)};
    }
}));
