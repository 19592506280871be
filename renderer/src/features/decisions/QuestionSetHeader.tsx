// A question set's header: name, format switch, options; for the builder's set also opening and saving set files.
import {useRef, type ReactNode} from "react";
import {limits} from "../../../../protocol/limits.ts";
import {conversionNotes, type DraftSet, type QuestionFormat} from "../questionSet/draft.ts";
import {draftFromQuestionSet} from "../questionSet/draftFromQuestionSet.ts";
import {emptyDraft, hasUnsavedEdits, useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {reportFileAction, requestReplacement, saveBuilderSet, undoReplacement, useSetReplacement} from "./setReplacement.ts";

/** The builder's set: its name and options, and New, Open, Save and the recent sets. */
export function QuestionSetHeader() {
    const draft = useQuestionSetStore((state) => state.draft);
    const update = useQuestionSetStore((state) => state.update);
    return <SetBasics draft={draft} update={update} testId="qs"><QuestionSetFileActions /></SetBasics>;
}

type SetBasicsProps = {
    draft: DraftSet,
    update: (change: (draft: DraftSet) => DraftSet) => void,
    /** Prefix of the controls' test ids: `qs` for the builder's set, `variant` for variant B. */
    testId: string,
    /** Beside the name: the file actions. */
    children?: ReactNode
};

/** A set's name, endpoint format, x_svc options, and its question count against the limit. */
export function SetBasics({draft, update, testId, children}: SetBasicsProps) {
    const max = draft.explain ? limits.questionsPerRequestWithExplain : limits.questionsPerRequest;
    const notes = conversionNotes(draft);
    return (
        <section className="card qs-header" data-testid={`${testId}-header`}>
            <div className="qs-header-row">
                <input className="input qs-name" value={draft.name} placeholder="Question set name" aria-label="Question set name" data-testid={`${testId}-name`}
                    onChange={(event) => update((current) => ({...current, name: event.target.value}))} />
                {children}
            </div>
            <div className="qs-header-row">
                <FormatSwitch format={draft.format} testId={`${testId}-format`} onChange={(format) => update((current) => ({...current, format}))} />
                <label className="check">
                    <input type="checkbox" checked={draft.explain} data-testid={`${testId}-explain`} onChange={(event) => update((current) => ({...current, explain: event.target.checked}))} />
                    Explain answers <span className="muted small">(x_svc.explain)</span>
                </label>
                <label className="check">
                    <span className="muted small">max_soft_tokens</span>
                    <input className="input input-sm qs-soft-tokens" type="number" min={1} step={1} value={draft.maxSoftTokens ?? ""} placeholder="default" data-testid={`${testId}-max-soft-tokens`}
                        onChange={(event) => update((current) => ({...current, maxSoftTokens: event.target.value === "" ? null : Math.floor(Number(event.target.value))}))} />
                </label>
                <span className={`badge push-right${draft.questions.length > max ? " badge-danger" : ""}`} data-testid={`${testId}-count`}>
                    {draft.questions.length} / {max} questions
                </span>
            </div>
            {notes.length > 0 && (
                <ul className="qs-notes" data-testid={`${testId}-conversion-notes`}>
                    {notes.map((note) => <li key={note}>{note}</li>)}
                </ul>
            )}
        </section>
    );
}

type FormatSwitchProps = {format: QuestionFormat, onChange: (format: QuestionFormat) => void, testId: string};

const formats: Array<{id: QuestionFormat, label: string}> = [
    {id: "decisions", label: "/v1/decisions"},
    {id: "systemone", label: "/v1/systemone"}
];

/** Which endpoint the set is written for; the draft keeps what the other format needs for a switch back. */
export function FormatSwitch({format, onChange, testId}: FormatSwitchProps) {
    return (
        <div className="segmented" role="radiogroup" aria-label="Endpoint format" data-testid={testId}>
            {formats.map((item) => (
                <button key={item.id} type="button" role="radio" aria-checked={format === item.id} className={format === item.id ? "active" : ""}
                    data-testid={`${testId}-${item.id}`} onClick={() => onChange(item.id)}>{item.label}</button>
            ))}
        </div>
    );
}

/**
 * New, open (file picker), save (download) and the sets saved or opened recently on this machine. New and Open ask
 * before they drop unsaved edits, and can be undone.
 */
export function QuestionSetFileActions() {
    const recent = useQuestionSetStore((state) => state.recent);
    const unsaved = useQuestionSetStore(hasUnsavedEdits);
    const message = useSetReplacement((state) => state.message);
    const undo = useSetReplacement((state) => state.undo);
    const input = useRef<HTMLInputElement>(null);

    const open = (text: string, name: string) => {
        let draft: DraftSet;
        try {
            draft = draftFromQuestionSet(JSON.parse(text));
        } catch (error) {
            return reportFileAction(false, `${name}: ${(error as Error).message}`);
        }
        useQuestionSetStore.getState().remember({name, text, savedAt: Date.now()});
        requestReplacement({what: name, draft, saved: true, done: `Opened ${name}.`});
    };

    return (
        <div className="qs-file-actions">
            <button type="button" className="btn btn-sm" data-testid="qs-new"
                onClick={() => requestReplacement({what: "a new set", draft: {...emptyDraft(), questions: []}, saved: true, done: "Started a new set."})}>New</button>
            <button type="button" className="btn btn-sm" data-testid="qs-open" onClick={() => input.current?.click()}>Open…</button>
            <input ref={input} type="file" accept="application/json,.json" hidden data-testid="qs-open-input" onChange={async (event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (file) open(await file.text(), file.name);
            }} />
            <button type="button" className="btn btn-sm" data-testid="qs-save" title={unsaved ? "The set has edits no saved file has" : "Saved"}
                onClick={() => reportFileAction(true, `Saved ${saveBuilderSet()}.`)}>
                Save{unsaved && <span className="unsaved-dot" data-testid="qs-unsaved" aria-label="(unsaved edits)" />}
            </button>
            <select className="input input-sm" value="" data-testid="qs-recent" aria-label="Recent question sets" disabled={recent.length === 0}
                onChange={(event) => {
                    const entry = recent[Number(event.target.value)];
                    if (entry) open(entry.text, entry.name);
                }}>
                <option value="">Recent…</option>
                {recent.map((entry, index) => <option key={`${entry.name}-${entry.savedAt}`} value={index}>{entry.name}</option>)}
            </select>
            {message && (
                <span className={message.ok ? "field-ok inline" : "field-error inline"} role="status" data-testid="qs-file-message">
                    {message.text}
                    {undo && <> <button type="button" className="link-btn" data-testid="qs-undo" onClick={undoReplacement}>Undo</button></>}
                </span>
            )}
        </div>
    );
}
