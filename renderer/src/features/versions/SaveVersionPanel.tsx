// "Save as new version" where a prompt is made (the chat and Responses playgrounds, the Decision studio, which give it
// their prompt through `getPrompt`, so versions import none of them): the item it belongs to (or a new one), a note,
// and what happened, with Undo after a version was opened there from the Versions list.
import {useState} from "react";
import {create} from "zustand";
import type {PromptVersionBody} from "../../../../client/experiments/types.ts";
import {ActionMessage, type ActionMessageValue} from "../../ui/ActionMessage.tsx";
import {useNavStore} from "../../ui/appState.ts";
import {itemsOfKind, promptKindNames, saveVersion, useVersionsStore, type PromptKind} from "./versionStore.ts";

/** What opening a version did, for the screen's save panel: Undo where it replaced a draft. */
export type Opened = ActionMessageValue;

type PanelState = {
    /** The item each screen saves to by default: the one last saved to or opened there. */
    current: Partial<Record<PromptKind, string>>,
    /** What the last open or save did on each screen. */
    notice: Partial<Record<PromptKind, Opened>>,
    set: (kind: PromptKind, patch: {current?: string, notice?: Opened | undefined}) => void
};

export const useVersionPanelStore = create<PanelState>()((set) => ({
    current: {},
    notice: {},
    set: (kind, patch) => set((state) => ({
        current: patch.current === undefined ? state.current : {...state.current, [kind]: patch.current},
        notice: "notice" in patch ? {...state.notice, [kind]: patch.notice} : state.notice
    }))
}));

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
    const itemId = [chosen, current].find((id) => id !== null && id !== undefined && (id === newItem || items.some((item) => item.itemId === id))) ?? newItem;
    const item = items.find((candidate) => candidate.itemId === itemId);
    const save = () => {
        const prompt = getPrompt();
        if ("error" in prompt) {
            setPanel(kind, {notice: {ok: false, text: prompt.error}});
            return;
        }
        const saved = saveVersion({itemId: item?.itemId ?? null, itemName: item?.itemName ?? (name.trim() || suggestedName), prompt, note});
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
            save();
        }}>
            <div className="version-save-head">
                <span className="card-label">Save as new version</span>
                <button type="button" className="link-btn" data-testid="version-list-link" onClick={() => useNavStore.getState().go("versions")}>Versions</button>
            </div>
            <select className="input" value={itemId} aria-label="Prompt to add a version to" data-testid="version-item"
                onChange={(event) => setChosen(event.target.value)}>
                <option value={newItem}>New {promptKindNames[kind].toLowerCase()}{kind === "decision" ? "" : " prompt"}…</option>
                {items.map((candidate) => <option key={candidate.itemId} value={candidate.itemId}>{`${candidate.itemName} (v${candidate.latest + 1} next)`}</option>)}
            </select>
            {item === undefined && (
                <input className="input" value={name} placeholder={suggestedName || "Prompt name"} aria-label="New prompt name" data-testid="version-name"
                    onChange={(event) => setName(event.target.value)} />
            )}
            <input className="input" value={note} placeholder="Note: what changed and why" aria-label="Version note" data-testid="version-note"
                onChange={(event) => setNote(event.target.value)} />
            <button type="submit" className="btn btn-sm" data-testid="version-save-button"
                disabled={item === undefined && name.trim() === "" && suggestedName.trim() === ""}>Save version</button>
            <div className="param-help">
                Experiments run saved versions: write {"{{column}}"} {kind === "decision" ? "in the input " : ""}to take a dataset row's cell. Presets stay quick settings.
            </div>
            {notice && <ActionMessage message={notice} onDone={(next) => setPanel(kind, {notice: next ?? undefined})} undone="Undone: the draft from before is back."
                testId="version-message" />}
        </form>
    );
}
