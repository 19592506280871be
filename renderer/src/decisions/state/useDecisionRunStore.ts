import {create} from "zustand";
import type {DecisionRunResult} from "../run/executeDecision.ts";

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
