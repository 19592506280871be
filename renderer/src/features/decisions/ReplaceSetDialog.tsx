// The question asked before New, Open or a run from History replaces a set that holds unsaved edits.
import {useEffect, useRef} from "react";
import {useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {answerPending, useSetReplacement} from "./setReplacement.ts";

/** A modal dialog: save the set first, discard its edits, or keep working on it (Escape and Cancel). */
export function ReplaceSetDialog() {
    const pending = useSetReplacement((state) => state.pending);
    const name = useQuestionSetStore((state) => state.draft.name);
    const ref = useRef<HTMLDialogElement>(null);
    const cancel = useRef<HTMLButtonElement>(null);
    /** Whether the question is shown, and what had the focus when it was asked. */
    const asked = useRef<{opener: Element | null} | null>(null);
    useEffect(() => {
        const dialog = ref.current;
        if (pending === null) {
            // Answered (Escape included): the focus goes back where it was when the question was asked (New, Open, the
            // recent sets), or to the studio's tab when that is gone (a run opened from History), never to the page.
            if (asked.current === null) return;
            const {opener} = asked.current;
            asked.current = null;
            const back = opener instanceof HTMLElement && opener.isConnected ? opener
                : document.querySelector<HTMLElement>("[data-testid=decision-studio] [role=tab][aria-selected=true]");
            back?.focus();
            return;
        }
        if (dialog === null || dialog.open) return;
        asked.current = {opener: document.activeElement};
        dialog.showModal();
        // The answer that loses nothing has the focus: Enter keeps the edits.
        cancel.current?.focus();
    }, [pending]);
    if (pending === null) return null;
    return (
        <dialog ref={ref} className="modal-dialog" data-testid="replace-set-dialog" aria-labelledby="replace-set-title" aria-describedby="replace-set-text"
            onCancel={(event) => {
                event.preventDefault();
                answerPending("cancel");
            }}>
            <h3 id="replace-set-title">Unsaved changes</h3>
            <p id="replace-set-text">
                “{name || "Untitled question set"}” has edits that no saved file has. Opening {pending.what} replaces it, and the answers
                shown for it go too.
            </p>
            <div className="modal-actions">
                <button type="button" className="btn btn-primary" data-testid="replace-set-save" onClick={() => answerPending("save")}>Save it first</button>
                <button type="button" className="btn btn-danger" data-testid="replace-set-discard" onClick={() => answerPending("discard")}>Discard changes</button>
                <button type="button" className="btn push-right" ref={cancel} data-testid="replace-set-cancel" onClick={() => answerPending("cancel")}>Cancel</button>
            </div>
        </dialog>
    );
}
