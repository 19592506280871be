import {useRef, useState} from "react";
import {downloadFile} from "../../utils/downloadFile.ts";
import {formatQuestionSetFile} from "../model/formatQuestionSetFile.ts";
import {fileNameFor} from "../model/fileNameFor.ts";
import {emptyDraft, useQuestionSetStore} from "../state/useQuestionSetStore.ts";

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
