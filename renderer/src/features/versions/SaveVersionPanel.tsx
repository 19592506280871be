// "Save as new version" where a prompt is made (the chat and Responses playgrounds, the Decision studio, which give it
// their prompt through `getPrompt`, so versions import none of them): the item it belongs to (or a new one), a note,
// and what happened, with Undo after a version was opened there from the Versions list.
import {useState} from "react";
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import type {PromptVersionBody} from "../../../../client/experiments/types.ts";
import {appDataStorage} from "../../gateway/appData.ts";
import {ActionMessage, type ActionMessageValue} from "../../ui/ActionMessage.tsx";
import {useNavStore} from "../../ui/appState.ts";
import {itemsOfKind, promptKindNames, saveVersion, useVersionsStore, type PromptItem, type PromptKind} from "./versionStore.ts";

/** What opening a version did, for the screen's save panel: Undo where it replaced a draft. */
export type Opened = ActionMessageValue;

type PanelState = {
    /** The item each screen saves to by default: the one last saved to or opened there. */
    current: Partial<Record<PromptKind, string>>,
    /** What the last open or save did on each screen. */
    notice: Partial<Record<PromptKind, Opened>>,
    set: (kind: PromptKind, patch: {current?: string, notice?: Opened | undefined}) => void
};

/**
 * The item each screen saves to is kept in the app's data folder, so a reload or the next launch still adds versions
 * to the item being edited rather than starting a second one of the same name. What happened last is not kept.
 */
export const useVersionPanelStore = create<PanelState>()(persist((set) => ({
    current: {},
    notice: {},
    set: (kind, patch) => set((state) => ({
        current: patch.current === undefined ? state.current : {...state.current, [kind]: patch.current},
        notice: "notice" in patch ? {...state.notice, [kind]: patch.notice} : state.notice
    }))
}), {
    name: "svc-studio-version-panel",
    version: 1,
    storage: createJSONStorage(() => appDataStorage),
    partialize: (state) => ({current: state.current}),
    merge: (saved, current) => {
        const kept = (saved as {current?: unknown} | null)?.current;
        const entries = typeof kept === "object" && kept !== null ? Object.entries(kept).filter(([kind, itemId]) => kind in promptKindNames && typeof itemId === "string") : [];
        return {...current, current: Object.fromEntries(entries) as PanelState["current"]};
    }
}));

/** The item of that kind already named `name` (spaces around and letter case aside), if any. */
export function sameNamedItem(items: readonly PromptItem[], name: string): PromptItem | undefined {
    const wanted = name.trim().toLowerCase();
    return wanted === "" ? undefined : items.find((item) => item.itemName.trim().toLowerCase() === wanted);
}

const newItem = "";

type Props = {
    kind: PromptKind,
    /** What the screen would send now, or why it cannot be saved. */
    getPrompt: () => PromptVersionBody | {error: string},
    /** The name a new item gets when none is typed (the question set's name). */
    suggestedName?: string
};

/** The save form of one screen. */
export function SaveVersionPanel({kind, getPrompt, suggestedName = ""}: Props) {
    const items = itemsOfKind(useVersionsStore((state) => state.items), kind);
    const current = useVersionPanelStore((state) => state.current[kind]);
    const notice = useVersionPanelStore((state) => state.notice[kind]);
    const setPanel = useVersionPanelStore((state) => state.set);
    const [chosen, setChosen] = useState<string | null>(null);
    const [name, setName] = useState("");
    const [note, setNote] = useState("");
    /** A new item's name that another item of this kind has: the person chooses before anything is saved. */
    const [clash, setClash] = useState<PromptItem | null>(null);
    const itemId = [chosen, current].find((id) => id !== null && id !== undefined && (id === newItem || items.some((item) => item.itemId === id))) ?? newItem;
    const item = items.find((candidate) => candidate.itemId === itemId);
    const newName = name.trim() || suggestedName.trim();
    /** `into`: the item to add the version to; null makes a new one even when the name is taken. */
    const save = async (into: PromptItem | null | undefined = item) => {
        const prompt = getPrompt();
        if ("error" in prompt) {
            setPanel(kind, {notice: {ok: false, text: prompt.error}});
            return;
        }
        if (into === undefined) {
            const taken = sameNamedItem(items, newName);
            if (taken !== undefined) {
                setClash(taken);
                return;
            }
        }
        setClash(null);
        const saved = await saveVersion({itemId: into?.itemId ?? null, itemName: into?.itemName ?? newName, prompt, note});
        if (!saved.ok) {
            setPanel(kind, {notice: {ok: false, text: saved.text}});
            return;
        }
        setNote("");
        setName("");
        setChosen(null);
        setPanel(kind, {current: saved.version.itemId, notice: {ok: true, text: `Saved version ${saved.version.version} of "${saved.version.itemName}".`}});
    };
    return (
        <form className="version-save" data-testid={`version-save-${kind}`} onSubmit={(event) => {
            event.preventDefault();
            void save();
        }}>
            <div className="version-save-head">
                <span className="card-label">Save as new version</span>
                <button type="button" className="link-btn" data-testid="version-list-link" onClick={() => useNavStore.getState().go("versions")}>Versions</button>
            </div>
            <select className="input" value={itemId} aria-label="Prompt to add a version to" data-testid="version-item"
                onChange={(event) => {
                    setChosen(event.target.value);
                    setClash(null);
                }}>
                <option value={newItem}>New {promptKindNames[kind].toLowerCase()}{kind === "decision" ? "" : " prompt"}…</option>
                {items.map((candidate) => <option key={candidate.itemId} value={candidate.itemId}>{`${candidate.itemName} (v${candidate.latest + 1} next)`}</option>)}
            </select>
            {item === undefined && (
                <input className="input" value={name} placeholder={suggestedName || "Prompt name"} aria-label="New prompt name" data-testid="version-name"
                    onChange={(event) => {
                        setName(event.target.value);
                        setClash(null);
                    }} />
            )}
            <input className="input" value={note} placeholder="Note: what changed and why" aria-label="Version note" data-testid="version-note"
                onChange={(event) => setNote(event.target.value)} />
            <button type="submit" className="btn btn-sm" data-testid="version-save-button"
                disabled={clash !== null || item === undefined && newName === ""}>Save version</button>
            {clash !== null && (
                <div className="field-warning" role="group" aria-label="A prompt of that name exists" data-testid="version-name-taken">
                    <div>{promptKindNames[kind]}{kind === "decision" ? "" : " prompt"} "{clash.itemName}" exists already: add this as its version {clash.latest + 1}, or make another one with the same name?</div>
                    <div className="row-gap">
                        <button type="button" className="btn btn-sm btn-primary" data-testid="version-name-add" onClick={() => save(clash)}>Add version {clash.latest + 1} to "{clash.itemName}"</button>
                        <button type="button" className="btn btn-sm" data-testid="version-name-new" onClick={() => save(null)}>Make a new "{newName}"</button>
                        <button type="button" className="btn btn-sm" data-testid="version-name-cancel" onClick={() => setClash(null)}>Cancel</button>
                    </div>
                </div>
            )}
            <div className="param-help">
                Experiments run saved versions: write {"{{column}}"} {kind === "decision" ? "in the input " : ""}to take a dataset row's cell. Presets stay quick settings.
            </div>
            {notice && <ActionMessage message={notice} onDone={(next) => setPanel(kind, {notice: next ?? undefined})} undone="Undone: the draft from before is back."
                testId="version-message" />}
        </form>
    );
}
