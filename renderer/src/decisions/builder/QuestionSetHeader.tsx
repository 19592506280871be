import {limits} from "../../../../protocol/limits.ts";
import {conversionNotes} from "../model/conversionNotes.ts";
import {useQuestionSetStore} from "../state/useQuestionSetStore.ts";
import {FormatSwitch} from "./FormatSwitch.tsx";
import {QuestionSetFileActions} from "./QuestionSetFileActions.tsx";

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
