import {useDeferredValue, useMemo} from "react";
import {limits} from "../../../../protocol/limits.ts";
import {moveItem} from "../model/moveItem.ts";
import {duplicateQuestion, newQuestion} from "../model/newQuestion.ts";
import type {QuestionType} from "../model/types.ts";
import {validateDraft} from "../model/validateDraft.ts";
import {useQuestionSetStore} from "../state/useQuestionSetStore.ts";
import {QuestionCard} from "./QuestionCard.tsx";

/** The questions as cards, the buttons that add one of each type, and the set-wide problems. */
export function QuestionList() {
    const draft = useQuestionSetStore((state) => state.draft);
    const update = useQuestionSetStore((state) => state.update);
    const updateQuestion = useQuestionSetStore((state) => state.updateQuestion);
    // Validation runs every question through the server's parser: deferred, so typing never waits for it.
    const deferred = useDeferredValue(draft);
    const problems = useMemo(() => validateDraft(deferred), [deferred]);
    const setProblems = problems.filter((problem) => problem.questionId === null);
    const max = draft.explain ? limits.questionsPerRequestWithExplain : limits.questionsPerRequest;
    const full = draft.questions.length >= max;
    const add = (type: QuestionType) => update((current) => ({...current, questions: [...current.questions, newQuestion(type, current.questions)]}));
    return (
        <section className="question-list" data-testid="question-list">
            {setProblems.length > 0 && (
                <ul className="problem-list card" role="alert" data-testid="qs-problems">
                    {setProblems.map((problem) => <li key={problem.message} className="field-error">{problem.message}</li>)}
                </ul>
            )}
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
                    onRemove={() => update((current) => ({...current, questions: current.questions.filter((item) => item.id !== question.id)}))} />
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
