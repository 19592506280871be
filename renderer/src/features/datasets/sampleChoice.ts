// The sample each dataset's sample panel was left on (kind, size, seed, filter), kept in the app's data folder so a
// reload or a restart finds it as it was.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import type {Sample} from "../../../../client/experiments/types.ts";
import {appDataStorage} from "../../gateway/appData.ts";

/** Every field of the panel, whichever kind is chosen: switching kinds keeps what the others held. */
export type SampleChoice = {kind: Sample["kind"], n: number, seed: number, column: string, op: "equals" | "not_equals" | "contains", value: string};

type SampleChoiceState = {
    byDataset: Record<string, SampleChoice>,
    set: (datasetId: string, choice: SampleChoice) => void
};

export const useSampleChoices = create<SampleChoiceState>()(persist((set) => ({
    byDataset: {},
    set: (datasetId, choice) => set((state) => ({byDataset: {...state.byDataset, [datasetId]: choice}}))
}), {
    name: "svc-studio-dataset-samples",
    storage: createJSONStorage(() => appDataStorage),
    partialize: (state) => ({byDataset: state.byDataset})
}));

/** The sample the panel shows for a dataset: the one it was left on, else its first 50 rows. */
export function sampleChoiceOf(choices: Record<string, SampleChoice>, dataset: {id: string, rows: readonly unknown[], columns: readonly string[], labelColumns: readonly string[]}): SampleChoice {
    return choices[dataset.id] ?? {kind: "first", n: Math.min(50, Math.max(1, dataset.rows.length)), seed: 1, column: dataset.labelColumns[0] ?? dataset.columns[0] ?? "", op: "equals", value: ""};
}

/** The chosen fields as the Sample they describe. */
export function sampleOf({kind, n, seed, column, op, value}: SampleChoice): Sample {
    return kind === "all" ? {kind} : kind === "first" ? {kind, n} : kind === "random" ? {kind, n, seed} : {kind, column, op, value};
}
