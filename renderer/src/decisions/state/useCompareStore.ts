import {create} from "zustand";
import type {DecisionRunResult} from "../run/executeDecision.ts";

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
