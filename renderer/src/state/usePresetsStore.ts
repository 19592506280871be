import {create} from "zustand";
import {persist} from "zustand/middleware";
import type {HistoryKind} from "../history/types.ts";
import type {ParamValues} from "../params/types.ts";
import type {Preset} from "../presets/types.ts";
import {newId} from "../utils/newId.ts";

type PresetsState = {
    presets: Preset[],
    save: (name: string, kind: HistoryKind, params: ParamValues) => void,
    remove: (id: string) => void,
    /** Imported presets replace saved ones of the same name and playground. */
    merge: (presets: Preset[]) => void
};

export const usePresetsStore = create<PresetsState>()(persist((set) => ({
    presets: [],
    save: (name, kind, params) => set((state) => ({
        presets: [...state.presets.filter((preset) => !(preset.name === name && preset.kind === kind)), {id: newId(), name, kind, params: {...params}, createdAt: Date.now()}]
    })),
    remove: (id) => set((state) => ({presets: state.presets.filter((preset) => preset.id !== id)})),
    merge: (incoming) => set((state) => ({
        presets: [...state.presets.filter((preset) => !incoming.some((item) => item.name === preset.name && item.kind === preset.kind)), ...incoming]
    }))
}), {name: "svc-studio-presets"}));
