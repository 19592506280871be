// The question set being edited (builder and JSON text in step), kept in the app's data folder with the recently opened
// sets (gateway/appData.ts).
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import {appDataStorage} from "../../gateway/appData.ts";
import {type QuestionCalibration, parseQuestionSet} from "../../../../client/scoring/index.ts";
import {formatQuestionSetFile, newQuestion, type DraftQuestion, type DraftSet} from "./draft.ts";
import {draftFromQuestionSet} from "./draftFromQuestionSet.ts";
import {validateDraft} from "./validation.ts";

/** A question set remembered on this machine: the browser cannot reopen a file by its path, so the text is kept. */
export type RecentSet = {name: string, text: string, savedAt: number};

export const maxRecentSets = 10;

/** The list with `entry` first; an older entry with the same text, or the same name, is dropped. */
export function addRecentSet(list: readonly RecentSet[], entry: RecentSet): RecentSet[] {
    return [entry, ...list.filter((item) => item.text !== entry.text && item.name !== entry.name)].slice(0, maxRecentSets);
}

/**
 * A draft with its JSON text in step: a builder edit rewrites the text; an edit of the text updates the draft as soon as
 * the text can be read, and is then kept exactly as typed. The builder's set and the compare tab's variant B are both.
 */
export type DraftDocument = {
    draft: DraftSet,
    jsonText: string,
    /** Why the JSON text cannot be shown in the builder (syntax, or a shape it cannot hold); null when it can. */
    jsonError: string | null
};

/** The document after a builder edit, or of a draft just opened. */
export function documentOf(draft: DraftSet): DraftDocument {
    return {draft, jsonText: formatQuestionSetFile(draft), jsonError: null};
}

/** The document after an edit of its JSON text; `previous` keeps ids and what the format cannot carry. */
export function documentFromText(text: string, previous: DraftSet): DraftDocument {
    try {
        return {draft: draftFromQuestionSet(JSON.parse(text), previous), jsonText: text, jsonError: null};
    } catch (error) {
        return {draft: previous, jsonText: text, jsonError: (error as Error).message};
    }
}

/** What a document keeps across a reload: its draft, and its text while that cannot be read (else it is the draft's). */
export type SavedDocument = {draft: DraftSet, jsonText?: string};

export function savedDocument(document: DraftDocument): SavedDocument {
    return document.jsonError === null ? {draft: document.draft} : {draft: document.draft, jsonText: document.jsonText};
}

export function restoredDocument(saved: SavedDocument): DraftDocument {
    return saved.jsonText === undefined ? documentOf(saved.draft) : documentFromText(saved.jsonText, saved.draft);
}

type QuestionSetState = DraftDocument & {
    /** The set's file text when it was last saved, opened or started: the draft has unsaved edits when it differs. */
    savedText: string,
    recent: RecentSet[],
    /** A builder edit: the JSON text follows. */
    update: (change: (draft: DraftSet) => DraftSet) => void,
    updateQuestion: (id: string, change: (question: DraftQuestion) => DraftQuestion) => void,
    /** An edit in the JSON editor: the builder follows when the text can be read. */
    setJsonText: (text: string) => void,
    /** Replaces the set with a file's text; throws when it cannot be read (nothing changes then). */
    open: (text: string) => void,
    /** Replaces the set with `draft`, as saved when `saved` (a new set, a file), else as unsaved edits (an undo). */
    replace: (draft: DraftSet, saved: boolean) => void,
    /** The draft as it is now was saved to a file. */
    markSaved: () => void,
    remember: (entry: RecentSet) => void,
    setCalibration: (question: string, calibration: QuestionCalibration | null) => void
};

export function emptyDraft(): DraftSet {
    return {format: "decisions", name: "Untitled question set", description: "", explain: false, maxSoftTokens: null, questions: [newQuestion("predicate", [])], calibration: null};
}

/** Whether the set holds edits that neither a saved file nor the last New or Open has: New and Open would lose them. */
export function hasUnsavedEdits(state: Pick<QuestionSetState, "draft" | "jsonError" | "savedText">): boolean {
    return state.jsonError !== null || formatQuestionSetFile(state.draft) !== state.savedText;
}

type SavedQuestionSet = SavedDocument & Partial<Pick<QuestionSetState, "savedText" | "recent">>;

export const useQuestionSetStore = create<QuestionSetState>()(persist((set, get) => {
    const initial = emptyDraft();
    return {
        ...documentOf(initial),
        savedText: formatQuestionSetFile(initial),
        recent: [],
        update: (change) => set(documentOf(change(get().draft))),
        updateQuestion: (id, change) => get().update((draft) => ({...draft, questions: draft.questions.map((question) => question.id === id ? change(question) : question)})),
        setJsonText: (text) => set(documentFromText(text, get().draft)),
        open: (text) => get().replace(draftFromQuestionSet(JSON.parse(text)), true),
        replace: (draft, saved) => set({...documentOf(draft), ...(saved ? {savedText: formatQuestionSetFile(draft)} : {})}),
        markSaved: () => set({savedText: formatQuestionSetFile(get().draft)}),
        remember: (entry) => set({recent: addRecentSet(get().recent, entry)}),
        setCalibration: (question, calibration) => get().update((draft) => {
            const next = {...draft.calibration};
            if (calibration === null) delete next[question];
            else next[question] = calibration;
            return {...draft, calibration: Object.keys(next).length === 0 ? null : next};
        })
    };
}, {
    name: "svc-studio-question-set",
    // A set too big to save (or ten of them in the recent list) is refused by the gateway: the app says so in its note
    // and goes on editing in memory.
    storage: createJSONStorage(() => appDataStorage),
    partialize: (state): SavedQuestionSet => ({...savedDocument(state), savedText: state.savedText, recent: state.recent}),
    merge: (persisted, current) => {
        const saved = persisted as SavedQuestionSet | undefined;
        // A set saved before the app tracked saved text counts as unsaved edits: New then asks before dropping it.
        return saved?.draft === undefined ? current
            : {...current, ...restoredDocument(saved), savedText: saved.savedText ?? formatQuestionSetFile(emptyDraft()), recent: saved.recent ?? []};
    }
}));

/**
 * What is wrong with a document's JSON as the server (and a scoring job) would see it, null when nothing: why the text
 * cannot be read, else the set's problems as the builder lists them (numbered as its cards are), else the file's own.
 */
export function documentProblem({draft, jsonText, jsonError}: DraftDocument): string | null {
    if (jsonError !== null) return jsonError;
    const problems = validateDraft(draft);
    if (problems.length > 0)
        return `${problems.length} problem${problems.length === 1 ? "" : "s"} the server would refuse, listed with the questions; the first: ${problems[0].message}`;
    try {
        parseQuestionSet(JSON.parse(jsonText));
        return null;
    } catch (error) {
        return (error as Error).message;
    }
}
