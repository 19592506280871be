// The Evaluation screen's choices, kept in the app's data folder (gateway/appData.ts) so a reload or the next launch
// keeps them: which column holds each question's labels, and each yes/no question's decision threshold.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import {appDataStorage} from "../../gateway/appData.ts";

type EvaluationSettings = {
    /** Question name -> label column; "" = none chosen on purpose (no guess). */
    labelColumns: Record<string, string>,
    /** Yes/no question name -> threshold above which an answer counts as true. */
    thresholds: Record<string, number>,
    setLabelColumn: (question: string, column: string) => void,
    setThreshold: (question: string, threshold: number) => void
};

export const useEvaluationSettings = create<EvaluationSettings>()(persist((set) => ({
    labelColumns: {},
    thresholds: {},
    setLabelColumn: (question, column) => set((state) => ({labelColumns: {...state.labelColumns, [question]: column}})),
    setThreshold: (question, threshold) => set((state) => ({thresholds: {...state.thresholds, [question]: threshold}}))
}), {
    name: "svc-studio-evaluation",
    storage: createJSONStorage(() => appDataStorage),
    partialize: (state) => ({labelColumns: state.labelColumns, thresholds: state.thresholds})
}));

/**
 * The label column of a question in a table: the one chosen for it when the table has it, none when "none" was
 * chosen, else the guess (`guess`). A choice made for another table's columns does not apply here.
 */
export function chosenLabelColumn(chosen: string | undefined, columns: readonly string[], guess: () => string | null): string | null {
    if (chosen === "") return null;
    if (chosen !== undefined && columns.includes(chosen)) return chosen;
    return guess();
}
