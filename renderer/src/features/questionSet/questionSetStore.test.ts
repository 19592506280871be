import assert from "node:assert/strict";
import {test} from "node:test";
import {formatQuestionSetFile, newQuestion} from "./draft.ts";
import {documentFromText, documentOf, documentProblem, emptyDraft, hasUnsavedEdits, restoredDocument, savedDocument, useQuestionSetStore} from "./questionSetStore.ts";

test("a document keeps its JSON text as typed while it cannot be read, and keeps it across a reload", () => {
    const draft = emptyDraft();
    const typed = documentFromText("{\"questions\": [", draft);
    assert.equal(typed.draft, draft, "the builder keeps the set before the unreadable edit");
    assert.equal(typed.jsonText, "{\"questions\": [");
    assert.match(typed.jsonError ?? "", /JSON/);
    assert.deepEqual(restoredDocument(JSON.parse(JSON.stringify(savedDocument(typed)))), {...typed, draft: JSON.parse(JSON.stringify(draft))});
    // A readable document keeps only its draft: its text is the draft's file.
    const readable = documentOf(draft);
    assert.deepEqual(savedDocument(readable), {draft});
    assert.deepEqual(restoredDocument(savedDocument(readable)), readable);
});

test("unsaved edits: none after New, Open or a save; any edit, or unreadable JSON, is one", () => {
    const store = useQuestionSetStore.getState();
    store.replace({...emptyDraft(), questions: []}, true);
    assert.equal(hasUnsavedEdits(useQuestionSetStore.getState()), false);
    store.update((draft) => ({...draft, name: "Mine"}));
    assert.equal(hasUnsavedEdits(useQuestionSetStore.getState()), true);
    store.markSaved();
    assert.equal(hasUnsavedEdits(useQuestionSetStore.getState()), false);
    store.setJsonText("{");
    assert.equal(hasUnsavedEdits(useQuestionSetStore.getState()), true, "text that cannot be read is an edit too");
    store.open(formatQuestionSetFile({...emptyDraft(), name: "Opened"}));
    assert.equal(hasUnsavedEdits(useQuestionSetStore.getState()), false);
    // A set put back as unsaved (an undo, a run from History) stays unsaved.
    store.replace({...emptyDraft(), name: "Back"}, false);
    assert.equal(hasUnsavedEdits(useQuestionSetStore.getState()), true);
});

test("the JSON's problem: unreadable text, else the set's problems numbered as the builder's cards, else none", () => {
    const draft = emptyDraft();
    assert.equal(documentProblem(documentOf(draft)), null);
    assert.match(documentProblem(documentFromText("[", draft)) ?? "", /JSON/);
    const second = newQuestion("predicate", draft.questions);
    const twice = {...draft, questions: [...draft.questions, {...second, name: draft.questions[0].name}]};
    assert.equal(documentProblem(documentOf(twice)),
        "1 problem the server would refuse, listed with the questions; the first: #2 · name: duplicates the name of #1 (\"is_relevant\"); names must be unique");
});
