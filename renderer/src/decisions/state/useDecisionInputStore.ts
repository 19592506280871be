import {create} from "zustand";
import type {DraftImage} from "../../chat/types.ts";

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
