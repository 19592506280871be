// A set's questions: the list with add and reorder, each question's card, and every problem the server would report,
// each pointing at its card and field.
import {useDeferredValue, useMemo, useRef} from "react";
import {limits} from "../../../../protocol/limits.ts";
import {newId} from "../../ui/browser.ts";
import {usePendingFocus} from "../../ui/focus.ts";
import {duplicateQuestion, newQuestion, type DraftSet, type QuestionType, type DraftQuestion, type QuestionFormat} from "../questionSet/draft.ts";
import {problemFieldKey, validateDraft, type DraftProblem} from "../questionSet/validation.ts";
import {afterRemoval, moveItem, ChoiceListEditor, ItemActions, LevelListEditor, PredicateCriteriaEditor, fieldProps, problemLineId} from "./listEditors.tsx";

type QuestionListProps = {
    draft: DraftSet,
    update: (change: (draft: DraftSet) => DraftSet) => void
};

/** The questions as cards, the buttons that add one of each type, and the problems to fix before running. */
export function QuestionList({draft, update}: QuestionListProps) {
    // Validation runs every question through the server's parser: deferred, so typing never waits for it.
    const deferred = useDeferredValue(draft);
    const problems = useMemo(() => validateDraft(deferred), [deferred]);
    const max = draft.explain ? limits.questionsPerRequestWithExplain : limits.questionsPerRequest;
    const full = draft.questions.length >= max;
    const list = useRef<HTMLElement>(null);
    const focusNext = usePendingFocus();
    const add = (type: QuestionType) => {
        const id = newId();
        // The new card's name field takes the focus, its default selected: typing names the question.
        focusNext(() => list.current?.querySelector<HTMLElement>(`[data-field="${CSS.escape(`${id}:name`)}"]`));
        update((current) => ({...current, questions: [...current.questions, {...newQuestion(type, current.questions), id}]}));
    };
    const updateQuestion = (id: string, change: (question: DraftQuestion) => DraftQuestion) =>
        update((current) => ({...current, questions: current.questions.map((question) => question.id === id ? change(question) : question)}));
    return (
        <section className="question-list" data-testid="question-list" ref={list}>
            <ProblemList problems={problems} />
            {draft.questions.length === 0 && <div className="empty-state">No questions yet: add a predicate, a choice or a score question.</div>}
            {draft.questions.map((question, index) => (
                <QuestionCard key={question.id} question={question} index={index} count={draft.questions.length} format={draft.format}
                    problems={problems.filter((problem) => problem.questionId === question.id)}
                    onChange={(change) => updateQuestion(question.id, change)}
                    onMove={(offset) => update((current) => ({...current, questions: moveItem(current.questions, index, offset)}))}
                    onDuplicate={() => update((current) => {
                        const questions = [...current.questions];
                        questions.splice(index + 1, 0, duplicateQuestion(question, current.questions));
                        return {...current, questions};
                    })}
                    onRemove={() => {
                        focusNext(() => afterRemoval(list.current, "[data-testid=question-card]", "[data-testid=q-remove]", index, "[data-testid=add-predicate]"));
                        update((current) => ({...current, questions: current.questions.filter((item) => item.id !== question.id)}));
                    }} />
            ))}
            <div className="add-question-bar">
                {(["predicate", "choice", "score"] as const).map((type) => (
                    <button key={type} type="button" className="btn btn-dashed" disabled={full} data-testid={`add-${type}`} onClick={() => add(type)}
                        title={full ? `At most ${max} questions per request${draft.explain ? " with explanations" : ""}` : undefined}>
                        + {type === "predicate" && draft.format === "systemone" ? "noul" : type}
                    </button>
                ))}
                <span className={`muted small${problems.length > 0 ? " has-problems" : ""}`} data-testid="qs-problem-count">
                    {problems.length === 0 ? "The server would accept this set." : `${problems.length} problem${problems.length === 1 ? "" : "s"} to fix before running.`}
                </span>
            </div>
        </section>
    );
}

/**
 * Every problem of the set, numbered as the cards are; each one takes you to its field. The server's own words and
 * 0-based path are in the title.
 */
export function ProblemList({problems}: {problems: DraftProblem[]}) {
    if (problems.length === 0) return null;
    return (
        <div className="problem-list card" role="alert" data-testid="qs-problems">
            <div className="problem-list-head">{problems.length} problem{problems.length === 1 ? "" : "s"} the server would refuse:</div>
            <ul>
                {problems.map((problem) => (
                    <li key={`${problemFieldKey(problem)} ${problem.message}`}>
                        <button type="button" className="link-btn problem-link" data-testid="qs-problem" title={`The server reports: ${problem.serverMessage}`}
                            onClick={() => showField(problemFieldKey(problem))}>{problem.message}</button>
                    </li>
                ))}
            </ul>
        </div>
    );
}

/** Scrolls the field a problem is about into view and puts the cursor in it (or in its card's first field). */
function showField(key: string) {
    const target = document.querySelector<HTMLElement>(`[data-field="${CSS.escape(key)}"]`);
    if (target === null) return;
    target.scrollIntoView({block: "center", behavior: "smooth"});
    const focusable = target.matches("input, select, textarea") ? target : target.querySelector<HTMLElement>("input, select, textarea");
    focusable?.focus({preventScroll: true});
}

type QuestionCardProps = {
    question: DraftQuestion,
    index: number,
    count: number,
    format: QuestionFormat,
    problems: DraftProblem[],
    onChange: (change: (question: DraftQuestion) => DraftQuestion) => void,
    onMove: (offset: number) => void,
    onDuplicate: () => void,
    onRemove: () => void
};

const typeLabels: Record<QuestionFormat, Record<QuestionType, string>> = {
    decisions: {predicate: "predicate", choice: "choice", score: "score"},
    systemone: {predicate: "noul", choice: "choice", score: "score"}
};

/** One question: type, name, instructions, its options, order actions, and the server's complaints about it. */
export function QuestionCard({question, index, count, format, problems, onChange, onMove, onDuplicate, onRemove}: QuestionCardProps) {
    const label = question.name || `question ${index + 1}`;
    const field = (name: string) => fieldProps(`${question.id}:${name}`, problems);
    return (
        <article className={`card question-card type-${question.type}${problems.length > 0 ? " has-problems" : ""}`} data-testid="question-card" data-type={question.type}
            data-field={question.id}>
            <div className="question-head">
                <span className="question-index mono">#{index + 1}</span>
                <select className="input input-sm question-type" value={question.type} aria-label={`Type of ${label}`} data-testid="q-type" {...field("type")}
                    onChange={(event) => onChange((current) => ({...current, type: event.target.value as QuestionType}))}>
                    {(["predicate", "choice", "score"] as const).map((type) => <option key={type} value={type}>{typeLabels[format][type]}</option>)}
                </select>
                <input className="input input-sm mono question-name" value={question.name} aria-label={`Name of ${label}`} data-testid="q-name" {...field("name")}
                    placeholder={format === "decisions" ? "name (optional)" : "name (required)"}
                    onChange={(event) => onChange((current) => ({...current, name: event.target.value}))} />
                <ItemActions label={label} testId="q"
                    onUp={index > 0 ? () => onMove(-1) : undefined}
                    onDown={index < count - 1 ? () => onMove(1) : undefined}
                    onDuplicate={onDuplicate} onRemove={onRemove} />
            </div>
            <textarea className="input textarea question-instructions" rows={2} value={question.instructions} placeholder="Instructions: what to evaluate"
                aria-label={`Instructions of ${label}`} data-testid="q-instructions" {...field("instructions")}
                onChange={(event) => onChange((current) => ({...current, instructions: event.target.value}))} />
            {question.type === "choice" && <ChoiceListEditor questionId={question.id} problems={problems} choices={question.choices} format={format}
                onChange={(choices) => onChange((current) => ({...current, choices}))} />}
            {question.type === "score" && <LevelListEditor questionId={question.id} problems={problems} levels={question.levels} format={format}
                onChange={(levels) => onChange((current) => ({...current, levels}))} />}
            {question.type === "predicate" && <PredicateCriteriaEditor question={question} format={format} onChange={(patch) => onChange((current) => ({...current, ...patch}))} />}
            {problems.length > 0 && (
                <ul className="problem-list">
                    {problems.map((problem, problemIndex) => (
                        <li key={`${problemFieldKey(problem)} ${problem.message}`} className="field-error" data-testid="q-problem" id={problemLineId(problem, problemIndex)}
                            title={`The server reports: ${problem.serverMessage}`}>{problem.message}</li>
                    ))}
                </ul>
            )}
        </article>
    );
}
