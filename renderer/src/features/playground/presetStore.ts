// The saved presets (in the app's data folder) and the two things a playground does with them: save its request as
// one, and load one into its draft.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import {appDataStorage} from "../../gateway/appData.ts";
import {draftFromChatRequest} from "./chat.ts";
import {draftFromCompletionsRequest} from "./completions.ts";
import type {PlaygroundKind} from "./params.ts";
import {type Preset, type PresetDraft, playgroundNames, presetFor, presetFromDraft, readPreset} from "./presets.ts";
import {draftFromResponsesRequest} from "./responses.ts";
import {useChatStore, useCompletionsStore, useResponsesStore} from "./stores.ts";

type PresetsState = {
    presets: Preset[],
    /** Adds a preset; one of the same name and playground is replaced. */
    save: (preset: Preset) => void,
    remove: (id: string) => void,
    /** Imported presets replace saved ones of the same name and playground. */
    merge: (presets: Preset[]) => void
};

const sameSlot = (a: Preset, b: Preset) => a.name === b.name && a.kind === b.kind;

export const usePresetsStore = create<PresetsState>()(persist((set) => ({
    presets: [],
    save: (preset) => set((state) => ({presets: [...state.presets.filter((item) => !sameSlot(item, preset)), preset]})),
    remove: (id) => set((state) => ({presets: state.presets.filter((preset) => preset.id !== id)})),
    merge: (incoming) => set((state) => ({
        presets: [...state.presets.filter((preset) => !incoming.some((item) => sameSlot(item, preset))), ...incoming]
    }))
}), {
    name: "svc-studio-presets",
    storage: createJSONStorage(() => appDataStorage),
    partialize: (state) => ({presets: state.presets}),
    // Each saved preset is read as an imported one is; one that does not read (edited by hand, say) is left out.
    merge: (saved, current) => {
        const list = (saved as {presets?: unknown} | null)?.presets;
        const presets = (Array.isArray(list) ? list : []).flatMap((raw, index) => {
            try {
                return [readPreset(raw, `presets[${index}]`)];
            } catch {
                return [];
            }
        });
        return {...current, presets};
    }
}));

/** The current draft of a playground, as a preset is made from it. */
export function currentDraft(kind: PlaygroundKind): PresetDraft {
    if (kind === "chat") return {kind, draft: useChatStore.getState().draft};
    if (kind === "responses") return {kind, draft: useResponsesStore.getState().draft};
    return {kind, draft: useCompletionsStore.getState().draft};
}

/** Saves the playground's request as a preset named `name`; the message says what was saved, or why not. */
export function saveCurrentAsPreset(kind: PlaygroundKind, name: string): {ok: boolean, text: string} {
    const preset = presetFromDraft(name, currentDraft(kind));
    if ("error" in preset) return {ok: false, text: preset.error};
    const replaced = usePresetsStore.getState().presets.some((item) => item.name === name && item.kind === kind);
    usePresetsStore.getState().save(preset);
    return {ok: true, text: `${replaced ? "Replaced" : "Saved"} "${name}".`};
}

/**
 * Loads a preset into the `target` playground: its prompt replaces the draft's (a preset that holds only parameters
 * keeps the draft's prompt), its parameters replace the panel's. The message says what came from elsewhere or was
 * left out.
 */
export function loadPreset(target: PlaygroundKind, preset: Preset): {ok: boolean, text: string} {
    const use = presetFor(target, preset);
    if ("unusable" in use) return {ok: false, text: `"${preset.name}" cannot be used here: it ${use.unusable}.`};
    const {params, prompt} = use;
    if (target === "chat") {
        const store = useChatStore.getState();
        if (prompt == null) store.setParams(params);
        else store.loadDraft({...draftFromChatRequest(prompt), params});
    } else if (target === "responses") {
        const store = useResponsesStore.getState();
        if (prompt == null) store.setParams(params);
        else store.loadDraft({...draftFromResponsesRequest(prompt), params});
    } else {
        const store = useCompletionsStore.getState();
        if (prompt == null) store.setParams(params);
        else store.loadDraft({...draftFromCompletionsRequest(prompt), params});
    }
    const from = preset.kind === target ? "" : ` from ${playgroundNames[preset.kind]}`;
    const dropped = use.dropped.length === 0 ? ""
        : ` ${use.dropped.join(", ")} ${use.dropped.length === 1 ? "has" : "have"} no ${playgroundNames[target]} parameter and ${use.dropped.length === 1 ? "was" : "were"} left out.`;
    return {ok: true, text: `Loaded "${preset.name}"${from}${prompt == null ? " (parameters only)" : ""}.${dropped}`};
}
