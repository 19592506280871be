import type {DraftProblem, DraftQuestion, QuestionFormat, QuestionType} from "../model/types.ts";
import {ChoiceListEditor} from "./ChoiceListEditor.tsx";
import {ItemActions} from "./ItemActions.tsx";
import {LevelListEditor} from "./LevelListEditor.tsx";
import {PredicateCriteriaEditor} from "./PredicateCriteriaEditor.tsx";

type Props = {
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
export function QuestionCard({question, index, count, format, problems, onChange, onMove, onDuplicate, onRemove}: Props) {
    const label = question.name || `question ${index + 1}`;
    return (
        <article className={`card question-card type-${question.type}${problems.length > 0 ? " has-problems" : ""}`} data-testid="question-card" data-type={question.type}>
            <div className="question-head">
                <span className="question-index mono">#{index + 1}</span>
                <select className="input input-sm question-type" value={question.type} aria-label={`Type of ${label}`} data-testid="q-type"
                    onChange={(event) => onChange((current) => ({...current, type: event.target.value as QuestionType}))}>
                    {(["predicate", "choice", "score"] as const).map((type) => <option key={type} value={type}>{typeLabels[format][type]}</option>)}
                </select>
                <input className="input input-sm mono question-name" value={question.name} aria-label={`Name of ${label}`} data-testid="q-name"
                    placeholder={format === "decisions" ? "name (optional)" : "name (required)"}
                    onChange={(event) => onChange((current) => ({...current, name: event.target.value}))} />
                <ItemActions label={label} testId="q"
                    onUp={index > 0 ? () => onMove(-1) : undefined}
                    onDown={index < count - 1 ? () => onMove(1) : undefined}
                    onDuplicate={onDuplicate} onRemove={onRemove} />
            </div>
            <textarea className="input textarea question-instructions" rows={2} value={question.instructions} placeholder="Instructions: what to evaluate"
                aria-label={`Instructions of ${label}`} data-testid="q-instructions"
                onChange={(event) => onChange((current) => ({...current, instructions: event.target.value}))} />
            {question.type === "choice" && <ChoiceListEditor choices={question.choices} format={format} onChange={(choices) => onChange((current) => ({...current, choices}))} />}
            {question.type === "score" && <LevelListEditor levels={question.levels} format={format} onChange={(levels) => onChange((current) => ({...current, levels}))} />}
            {question.type === "predicate" && <PredicateCriteriaEditor question={question} format={format} onChange={(patch) => onChange((current) => ({...current, ...patch}))} />}
            {problems.length > 0 && (
                <ul className="problem-list" role="alert">
                    {problems.map((problem) => <li key={problem.message} className="field-error" data-testid="q-problem">{problem.message}</li>)}
                </ul>
            )}
        </article>
    );
}
