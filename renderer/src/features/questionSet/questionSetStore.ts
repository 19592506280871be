// The question set being edited (builder and JSON text in step), kept in the app's data folder with the recently opened
// sets (gateway/appData.ts).
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import {appDataStorage} from "../../gateway/appData.ts";
import {type QuestionCalibration, parseQuestionSet} from "../../../../client/scoring/index.ts";
import {formatQuestionSetFile, newQuestion, type DraftQuestion, type DraftSet} from "./draft.ts";
import {draftFromQuestionSet} from "./draftFromQuestionSet.ts";

/** A question set remembered on this machine: the browser cannot reopen a file by its path, so the text is kept. */
export type RecentSet = {name: string, text: string, savedAt: number};

export const maxRecentSets = 10;

/** The list with `entry` first; an older entry with the same text, or the same name, is dropped. */
export function addRecentSet(list: readonly RecentSet[], entry: RecentSet): RecentSet[] {
    return [entry, ...list.filter((item) => item.text !== entry.text && item.name !== entry.name)].slice(0, maxRecentSets);
}

type QuestionSetState = {
    draft: DraftSet,
    /** The JSON editor's text: rewritten from the draft after every builder edit, kept as typed after an edit in it. */
    jsonText: string,
    /** Why the JSON text cannot be shown in the builder (syntax, or a shape it cannot hold); null when it can. */
    jsonError: string | null,
    recent: RecentSet[],
    /** A builder edit: the JSON text follows. */
    update: (change: (draft: DraftSet) => DraftSet) => void,
    updateQuestion: (id: string, change: (question: DraftQuestion) => DraftQuestion) => void,
    /** An edit in the JSON editor: the builder follows when the text can be read. */
    setJsonText: (text: string) => void,
    /** Replaces the set with a file's text; throws when it cannot be read (nothing changes then). */
    open: (text: string) => void,
    remember: (entry: RecentSet) => void,
    setCalibration: (question: string, calibration: QuestionCalibration | null) => void
};

export function emptyDraft(): DraftSet {
    return {format: "decisions", name: "Untitled question set", description: "", explain: false, maxSoftTokens: null, questions: [newQuestion("predicate", [])], calibration: null};
}

function readText(text: string, previous: DraftSet | null): DraftSet {
    return draftFromQuestionSet(JSON.parse(text), previous);
}

export const useQuestionSetStore = create<QuestionSetState>()(persist((set, get) => {
    const initial = emptyDraft();
    return {
        draft: initial,
        jsonText: formatQuestionSetFile(initial),
        jsonError: null,
        recent: [],
        update: (change) => {
            const draft = change(get().draft);
            set({draft, jsonText: formatQuestionSetFile(draft), jsonError: null});
        },
        updateQuestion: (id, change) => get().update((draft) => ({...draft, questions: draft.questions.map((question) => question.id === id ? change(question) : question)})),
        setJsonText: (text) => {
            try {
                set({jsonText: text, draft: readText(text, get().draft), jsonError: null});
            } catch (error) {
                set({jsonText: text, jsonError: (error as Error).message});
            }
        },
        open: (text) => {
            const draft = readText(text, null);
            set({draft, jsonText: formatQuestionSetFile(draft), jsonError: null});
        },
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
    partialize: (state) => ({draft: state.draft, recent: state.recent}),
    merge: (persisted, current) => {
        const saved = persisted as Partial<Pick<QuestionSetState, "draft" | "recent">> | undefined;
        const draft = saved?.draft ?? current.draft;
        return {...current, draft, recent: saved?.recent ?? [], jsonText: formatQuestionSetFile(draft)};
    }
}));

/** What is wrong with question set JSON text as the server (and a scoring job) would see it; null when nothing. */
export function questionSetTextError(text: string, readError: string | null): string | null {
    if (readError !== null) return readError;
    try {
        parseQuestionSet(JSON.parse(text));
        return null;
    } catch (error) {
        return (error as Error).message;
    }
}
