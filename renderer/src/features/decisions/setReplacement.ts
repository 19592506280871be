// Replacing the builder's question set (New, Open, a recent set, a run from History): never on one click while the set
// holds unsaved edits (the user is asked first), always undoable, and the old set's answers go with it.
import {create} from "zustand";
import {downloadFile} from "../../ui/browser.ts";
import {formatQuestionSetFile, type DraftSet} from "../questionSet/draft.ts";
import {hasUnsavedEdits, useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {abandonRuns} from "./run.ts";
import {useCompareStore, useDecisionInputStore, useDecisionRunStore, type DecisionInput, type DecisionRunResult} from "./studioState.ts";

/** A set to put in the builder: `what` names it in messages ("a new set", "shared.questions.json"). */
export type Replacement = {
    what: string,
    draft: DraftSet,
    /** Whether the set is as saved (a new set, a file) or unsaved edits (a run's set from History). */
    saved: boolean,
    /** The input the set comes with (a run from History), else the input stays. */
    input?: Partial<DecisionInput>,
    /** The answers the set comes with (a run from History), else there are none. */
    result?: DecisionRunResult | null,
    /** After it is done: "Opened shared.questions.json." */
    done: string
};

/** What a replacement took away, for Undo. */
type Snapshot = {
    draft: DraftSet,
    saved: boolean,
    input: DecisionInput,
    result: DecisionRunResult | null,
    compare: ReturnType<typeof useCompareStore.getState>["results"]
};

type ReplacementState = {
    /** A replacement waiting for the user's word, because the set holds unsaved edits. */
    pending: Replacement | null,
    /** What the last replacement took away; cleared by the next edit's message or Undo. */
    undo: Snapshot | null,
    /** The outcome of the last file action, shown beside them. */
    message: {ok: boolean, text: string} | null
};

export const useSetReplacement = create<ReplacementState>()(() => ({pending: null, undo: null, message: null}));

/** Shows `text` beside the file actions (an open that failed, a save), with no Undo. */
export function reportFileAction(ok: boolean, text: string) {
    useSetReplacement.setState({message: {ok, text}, undo: null});
}

/** Replaces the builder's set now, or asks first when the set holds unsaved edits. */
export function requestReplacement(replacement: Replacement) {
    if (hasUnsavedEdits(useQuestionSetStore.getState())) useSetReplacement.setState({pending: replacement});
    else applyReplacement(replacement);
}

/** The answer to the question: "save" downloads the set first, "discard" drops its edits, "cancel" keeps everything. */
export function answerPending(answer: "save" | "discard" | "cancel") {
    const {pending} = useSetReplacement.getState();
    useSetReplacement.setState({pending: null});
    if (pending === null || answer === "cancel") return;
    if (answer === "save") saveBuilderSet();
    applyReplacement(pending);
}

/** Downloads the builder's set as its file, remembers it among the recent sets and marks it saved; returns its name. */
export function saveBuilderSet(): string {
    const store = useQuestionSetStore.getState();
    const text = formatQuestionSetFile(store.draft);
    const name = fileNameFor(store.draft.name);
    downloadFile(name, text);
    store.remember({name, text, savedAt: Date.now()});
    store.markSaved();
    return name;
}

function applyReplacement(replacement: Replacement) {
    const sets = useQuestionSetStore.getState();
    const run = useDecisionRunStore.getState();
    const compare = useCompareStore.getState();
    const {set: _set, ...input} = useDecisionInputStore.getState();
    const snapshot: Snapshot = {draft: sets.draft, saved: !hasUnsavedEdits(sets), input, result: run.result, compare: compare.results};
    sets.replace(replacement.draft, replacement.saved);
    if (replacement.input) useDecisionInputStore.getState().set(replacement.input);
    // The old set's answers would read as this set's: they go, with any run still asking it.
    abandonRuns();
    run.set({result: replacement.result ?? null});
    compare.set({results: null});
    useSetReplacement.setState({undo: snapshot, message: {ok: true, text: replacement.done}});
}

/** Puts back the set, input and answers the last replacement took away. */
export function undoReplacement() {
    const {undo} = useSetReplacement.getState();
    if (undo === null) return;
    useQuestionSetStore.getState().replace(undo.draft, undo.saved);
    useDecisionInputStore.getState().set(undo.input);
    useDecisionRunStore.getState().set({result: undo.result});
    useCompareStore.getState().set({results: undo.compare});
    useSetReplacement.setState({undo: null, message: {ok: true, text: "Undone: the previous set is back."}});
}

/** `My set!` -> `my-set.questions.json`: a file name that survives every file system. */
export function fileNameFor(setName: string): string {
    const slug = setName.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
    return `${slug || "question-set"}.questions.json`;
}
