// The experiment being set up on the Experiments screen: its dataset and sample, variants, checks and grader. Kept in the
// app's data folder (gateway/appData.ts), so a reload or a restart finds the setup as it was left.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import type {Check, Sample} from "../../../../client/experiments/types.ts";
import {appDataStorage} from "../../gateway/appData.ts";
import {newId} from "../../ui/browser.ts";
import type {QuestionCalibration} from "../../../../client/scoring/calibration.ts";

/** A variant as edited: which saved version (null: its item's latest), where it is sent, with what. */
export type VariantDraft = {
    id: string,
    name: string,
    itemId: string | null,
    version: number | null,
    /** "local" or a saved remote profile's id. */
    connection: string,
    model: string,
    /** JSON object text of parameter overrides ("" for none). */
    params: string,
    /** Prices per million tokens ("" for none). */
    inputPrice: string,
    outputPrice: string
};

/** A check as edited: every field of every kind, so switching the kind keeps what was typed. */
export type CheckDraft = {
    id: string,
    kind: "equals" | "contains" | "regex" | "is_json" | "json_schema",
    column: string,
    caseSensitive: boolean,
    pattern: string,
    flags: string,
    /** JSON schema text. */
    schema: string
};

/**
 * The decision-question grader of chat replies; `enabled` false: none. `humanLabelColumn`: people's verdicts to measure
 * it against; `calibration`: the one fitted on them, applied to its score (graderCalibration.ts).
 */
export type GraderDraft = {enabled: boolean, name: string, question: string, template: string, threshold: string, humanLabelColumn?: string, calibration?: QuestionCalibration};

export type ExperimentDraft = {
    name: string,
    datasetId: string | null,
    sample: Sample,
    variants: VariantDraft[],
    checks: CheckDraft[],
    grader: GraderDraft,
    /** Checks the screen does not edit (an imported suite's: scoped, negated, weighted, more graders), kept as they are. */
    keptChecks?: Check[],
    /** The column whose rows belong together (the experiment's `cluster`); absent or null: rows are independent. */
    cluster?: string | null,
    /** How many times each chat row is asked (the experiment's `repeats`); absent or 1: once. */
    repeats?: number,
    seed: number,
    concurrency: number
};

const variantNames = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A new variant, named after the next free letter. */
export function newVariant(taken: readonly VariantDraft[], from?: Partial<VariantDraft>): VariantDraft {
    const name = [...variantNames].find((letter) => !taken.some((variant) => variant.name === letter)) ?? `V${taken.length + 1}`;
    return {id: newId(), name, itemId: null, version: null, connection: "local", model: "", params: "", inputPrice: "", outputPrice: "", ...from};
}

export function newCheck(from?: Partial<CheckDraft>): CheckDraft {
    return {id: newId(), kind: "equals", column: "", caseSensitive: false, pattern: "", flags: "", schema: "{\n  \"type\": \"object\"\n}", ...from};
}

export const defaultGrader: GraderDraft = {
    enabled: false,
    name: "grounded",
    question: "Does the reply answer the question correctly?",
    template: "Question: {{question}}\nReply: {{reply}}",
    threshold: "0.5"
};

export function emptyDraft(): ExperimentDraft {
    const first = newVariant([]);
    return {name: "", datasetId: null, sample: {kind: "all"}, variants: [first, newVariant([first])], checks: [], grader: defaultGrader, seed: 1, concurrency: 4};
}

type DraftState = {draft: ExperimentDraft, set: (change: Partial<ExperimentDraft>) => void, replace: (draft: ExperimentDraft) => void};

export const useDraftStore = create<DraftState>()(persist((set) => ({
    draft: emptyDraft(),
    set: (change) => set((state) => ({draft: {...state.draft, ...change}})),
    replace: (draft) => set({draft})
}), {
    name: "svc-studio-experiment-draft",
    version: 1,
    storage: createJSONStorage(() => appDataStorage),
    partialize: (state) => ({draft: state.draft}),
    // A saved draft missing fields (an older or hand-edited file) takes the defaults for them.
    merge: (saved, current) => {
        const draft = (saved as {draft?: Partial<ExperimentDraft>} | null)?.draft;
        if (draft === undefined || draft === null || typeof draft !== "object") return current;
        return {...current, draft: {...emptyDraft(), ...draft, variants: Array.isArray(draft.variants) ? draft.variants : current.draft.variants,
            checks: Array.isArray(draft.checks) ? draft.checks : [], grader: {...defaultGrader, ...draft.grader}}};
    }
}));

/** Changes one variant of the draft. */
export function updateVariant(id: string, change: Partial<VariantDraft>) {
    const {draft, set} = useDraftStore.getState();
    set({variants: draft.variants.map((variant) => variant.id === id ? {...variant, ...change} : variant)});
}

export function updateCheck(id: string, change: Partial<CheckDraft>) {
    const {draft, set} = useDraftStore.getState();
    set({checks: draft.checks.map((check) => check.id === id ? {...check, ...change} : check)});
}
