// The question set's header: name, format switch, options, and opening and saving set files.
import {useRef, useState} from "react";
import {limits} from "../../../../protocol/limits.ts";
import {downloadFile} from "../../ui/browser.ts";
import {conversionNotes, type QuestionFormat, formatQuestionSetFile} from "../questionSet/draft.ts";
import {useQuestionSetStore, emptyDraft} from "../questionSet/questionSetStore.ts";

/** The set's name, endpoint format, x_svc options, question count against its limit, and file actions. */
export function QuestionSetHeader() {
    const draft = useQuestionSetStore((state) => state.draft);
    const update = useQuestionSetStore((state) => state.update);
    const max = draft.explain ? limits.questionsPerRequestWithExplain : limits.questionsPerRequest;
    const notes = conversionNotes(draft);
    return (
        <section className="card qs-header" data-testid="qs-header">
            <div className="qs-header-row">
                <input className="input qs-name" value={draft.name} placeholder="Question set name" aria-label="Question set name" data-testid="qs-name"
                    onChange={(event) => update((current) => ({...current, name: event.target.value}))} />
                <QuestionSetFileActions />
            </div>
            <div className="qs-header-row">
                <FormatSwitch format={draft.format} testId="qs-format" onChange={(format) => update((current) => ({...current, format}))} />
                <label className="check">
                    <input type="checkbox" checked={draft.explain} data-testid="qs-explain" onChange={(event) => update((current) => ({...current, explain: event.target.checked}))} />
                    Explain answers <span className="muted small">(x_svc.explain)</span>
                </label>
                <label className="check">
                    <span className="muted small">max_soft_tokens</span>
                    <input className="input input-sm qs-soft-tokens" type="number" min={1} step={1} value={draft.maxSoftTokens ?? ""} placeholder="default" data-testid="qs-max-soft-tokens"
                        onChange={(event) => update((current) => ({...current, maxSoftTokens: event.target.value === "" ? null : Math.floor(Number(event.target.value))}))} />
                </label>
                <span className={`badge push-right${draft.questions.length > max ? " badge-danger" : ""}`} data-testid="qs-count">
                    {draft.questions.length} / {max} questions
                </span>
            </div>
            {notes.length > 0 && (
                <ul className="qs-notes" data-testid="qs-conversion-notes">
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

/** New, open (file picker), save (download) and the sets saved or opened recently on this machine. */
export function QuestionSetFileActions() {
    const recent = useQuestionSetStore((state) => state.recent);
    const input = useRef<HTMLInputElement>(null);
    const [message, setMessage] = useState<{ok: boolean, text: string} | null>(null);
    const store = useQuestionSetStore.getState;

    const open = (text: string, name: string) => {
        try {
            store().open(text);
            store().remember({name, text, savedAt: Date.now()});
            setMessage({ok: true, text: `Opened ${name}.`});
        } catch (error) {
            setMessage({ok: false, text: `${name}: ${(error as Error).message}`});
        }
    };
    const save = () => {
        const {draft} = store();
        const text = formatQuestionSetFile(draft);
        const name = fileNameFor(draft.name);
        downloadFile(name, text);
        store().remember({name, text, savedAt: Date.now()});
        setMessage({ok: true, text: `Saved ${name}.`});
    };

    return (
        <div className="qs-file-actions">
            <button type="button" className="btn btn-sm" data-testid="qs-new" onClick={() => {
                store().update(() => ({...emptyDraft(), questions: []}));
                setMessage(null);
            }}>New</button>
            <button type="button" className="btn btn-sm" data-testid="qs-open" onClick={() => input.current?.click()}>Open…</button>
            <input ref={input} type="file" accept="application/json,.json" hidden data-testid="qs-open-input" onChange={async (event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (file) open(await file.text(), file.name);
            }} />
            <button type="button" className="btn btn-sm" data-testid="qs-save" onClick={save}>Save</button>
            <select className="input input-sm" value="" data-testid="qs-recent" aria-label="Recent question sets" disabled={recent.length === 0}
                onChange={(event) => {
                    const entry = recent[Number(event.target.value)];
                    if (entry) open(entry.text, entry.name);
                }}>
                <option value="">Recent…</option>
                {recent.map((entry, index) => <option key={`${entry.name}-${entry.savedAt}`} value={index}>{entry.name}</option>)}
            </select>
            {message && <span className={message.ok ? "field-ok inline" : "field-error inline"} role="status" data-testid="qs-file-message">{message.text}</span>}
        </div>
    );
}

/** `My set!` -> `my-set.questions.json`: a file name that survives every file system. */
export function fileNameFor(setName: string): string {
    const slug = setName.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
    return `${slug || "question-set"}.questions.json`;
}
