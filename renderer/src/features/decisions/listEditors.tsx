// The builder's list editors: choices, levels, predicate criteria, and the move / duplicate / remove actions they share.
import {useRef} from "react";
import {limits} from "../../../../protocol/limits.ts";
import {newId} from "../../ui/browser.ts";
import {Icon} from "../../ui/controls.tsx";
import {usePendingFocus} from "../../ui/focus.ts";
import {uniqueName, type DraftChoice, type QuestionFormat, levelText, type DraftLevel, type DraftQuestion} from "../questionSet/draft.ts";
import {problemFieldKey, type DraftProblem} from "../questionSet/validation.ts";

/** The id of the line of a question card's problem list (`index` in that list) that describes a field at fault. */
export const problemLineId = (problem: DraftProblem, index: number) => `problem-${problem.questionId}-${index}`;

/**
 * A field's attributes: `data-field`, its key (a problem's link finds it by that), and when a problem of its card
 * (`problems`) is about it, aria-invalid and the problem lines that describe it.
 */
export function fieldProps(key: string, problems: readonly DraftProblem[]) {
    const ids = problems.flatMap((problem, index) => problemFieldKey(problem) === key ? [problemLineId(problem, index)] : []);
    return {"data-field": key, ...(ids.length === 0 ? {} : {"aria-invalid": true, "aria-describedby": ids.join(" ")})};
}

/** A copy of `items` with the item at `from` moved by `offset` places; unchanged when that leaves the list. */
export function moveItem<T>(items: readonly T[], from: number, offset: number): T[] {
    const to = from + offset;
    if (from < 0 || from >= items.length || to < 0 || to >= items.length) return [...items];
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item);
    return next;
}

/**
 * The element to focus once the item at `index` of `container`'s items (`itemSelector`) is removed: the Remove button
 * (`removeSelector`) of the item that takes its place, else of the one before, else `fallback` (the Add button).
 */
export function afterRemoval(container: Element | null, itemSelector: string, removeSelector: string, index: number, fallback: string): HTMLElement | null {
    const items = [...container?.querySelectorAll(itemSelector) ?? []];
    const item = items[index] ?? items[index - 1];
    return item?.querySelector<HTMLElement>(removeSelector) ?? container?.querySelector<HTMLElement>(fallback) ?? null;
}

type ItemActionsProps = {
    label: string,
    onUp?: () => void,
    onDown?: () => void,
    onDuplicate?: () => void,
    onRemove: () => void,
    testId: string
};

/** Move up / down, duplicate and remove buttons of a list item; a missing handler disables its button. */
export function ItemActions({label, onUp, onDown, onDuplicate, onRemove, testId}: ItemActionsProps) {
    return (
        <div className="item-actions">
            <button type="button" className="icon-btn" aria-label={`Move ${label} up`} disabled={!onUp} onClick={onUp} data-testid={`${testId}-up`}><Icon name="up" /></button>
            <button type="button" className="icon-btn" aria-label={`Move ${label} down`} disabled={!onDown} onClick={onDown} data-testid={`${testId}-down`}><Icon name="down" /></button>
            {onDuplicate && <button type="button" className="icon-btn" aria-label={`Duplicate ${label}`} onClick={onDuplicate} data-testid={`${testId}-duplicate`}><DuplicateIcon /></button>}
            <button type="button" className="icon-btn danger" aria-label={`Remove ${label}`} onClick={onRemove} data-testid={`${testId}-remove`}><Icon name="close" /></button>
        </div>
    );
}

/** Two overlapping sheets, drawn like ui/controls Icon (which has no "duplicate" glyph). */
export function DuplicateIcon() {
    return (
        <svg className="icon" width={16} height={16} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M9 9h11v11H9zM5 15H4V4h11v1" />
        </svg>
    );
}

type ChoiceListEditorProps = {questionId: string, problems: readonly DraftProblem[], choices: DraftChoice[], format: QuestionFormat, onChange: (choices: DraftChoice[]) => void};

/**
 * The options of a choice question: a value that is text or a boolean (true and "true" are different values
 * on /v1/decisions, the same key on /v1/systemone), an optional description, order; at most 512.
 */
export function ChoiceListEditor({questionId, problems, choices, format, onChange}: ChoiceListEditorProps) {
    const change = (index: number, patch: Partial<DraftChoice>) => onChange(choices.map((choice, at) => at === index ? {...choice, ...patch} : choice));
    const full = choices.length >= limits.optionsPerChoice;
    const list = useRef<HTMLDivElement>(null);
    const focusNext = usePendingFocus();
    return (
        <div className="option-list" data-testid="choice-list" data-field={`${questionId}:choices`} ref={list}>
            <div className="option-list-head">
                <span className="group-title">Choices</span>
                <span className="muted small" data-testid="choice-count">{choices.length} / {limits.optionsPerChoice}</span>
            </div>
            {choices.map((choice, index) => {
                // The value's own control carries the problem: its text field, or the type menu of a boolean.
                const item = fieldProps(`${questionId}:item:${choice.id}`, problems);
                return (
                <div className="option-row" key={choice.id} data-testid="choice-row">
                    <select className="input input-sm option-kind" aria-label={`Type of choice ${index + 1}`} data-testid="choice-kind"
                        {...(typeof choice.value === "boolean" ? item : {})} value={typeof choice.value === "boolean" ? String(choice.value) : "text"}
                        onChange={(event) => change(index, {value: event.target.value === "text" ? (typeof choice.value === "string" ? choice.value : String(choice.value)) : event.target.value === "true"})}>
                        <option value="text">text</option>
                        <option value="true">true (boolean)</option>
                        <option value="false">false (boolean)</option>
                    </select>
                    {typeof choice.value === "string"
                        ? <input className="input input-sm mono" value={choice.value} placeholder="value" aria-label={`Value of choice ${index + 1}`} data-testid="choice-value"
                            {...item} onChange={(event) => change(index, {value: event.target.value})} />
                        : <span className="option-bool mono" data-testid="choice-value-bool">{String(choice.value)}</span>}
                    <input className="input input-sm" value={choice.description} placeholder={format === "systemone" ? "description (null when empty)" : "description (optional)"}
                        aria-label={`Description of choice ${index + 1}`} data-testid="choice-description" onChange={(event) => change(index, {description: event.target.value})} />
                    <ItemActions label={`choice ${index + 1}`} testId="choice"
                        onUp={index > 0 ? () => onChange(moveItem(choices, index, -1)) : undefined}
                        onDown={index < choices.length - 1 ? () => onChange(moveItem(choices, index, 1)) : undefined}
                        onRemove={() => {
                            focusNext(() => afterRemoval(list.current, "[data-testid=choice-row]", "[data-testid=choice-remove]", index, "[data-testid=choice-add]"));
                            onChange(choices.filter((_, at) => at !== index));
                        }} />
                </div>
                );
            })}
            <button type="button" className="btn btn-dashed btn-sm" disabled={full} data-testid="choice-add"
                title={full ? `At most ${limits.optionsPerChoice} choices per question` : undefined}
                onClick={() => {
                    const id = newId();
                    // The new choice's value field takes the focus, its default selected: typing names it.
                    focusNext(() => list.current?.querySelector<HTMLElement>(`[data-field="${CSS.escape(`${questionId}:item:${id}`)}"]`));
                    onChange([...choices, {id, value: uniqueName(`option_${choices.length + 1}`, new Set(choices.map((choice) => String(choice.value)))), description: ""}]);
                }}>
                + Add choice
            </button>
        </div>
    );
}

type LevelListEditorProps = {questionId: string, problems: readonly DraftProblem[], levels: DraftLevel[], format: QuestionFormat, onChange: (levels: DraftLevel[]) => void};

/** The levels of a score question, lowest first and numbered from 0: label and description; at most 64. */
export function LevelListEditor({questionId, problems, levels, format, onChange}: LevelListEditorProps) {
    const change = (index: number, patch: Partial<DraftLevel>) => onChange(levels.map((level, at) => at === index ? {...level, ...patch} : level));
    const full = levels.length >= limits.levelsPerScore;
    const list = useRef<HTMLDivElement>(null);
    const focusNext = usePendingFocus();
    return (
        <div className="option-list" data-testid="level-list" data-field={`${questionId}:levels`} ref={list}>
            <div className="option-list-head">
                <span className="group-title">Levels, lowest first</span>
                <span className="muted small" data-testid="level-count">{levels.length} / {limits.levelsPerScore}</span>
            </div>
            {levels.map((level, index) => {
                const item = fieldProps(`${questionId}:item:${level.id}`, problems);
                return (
                <div className="option-row level-row" key={level.id} data-testid="level-row">
                    <span className="level-index mono" title={format === "systemone" ? `sent as ${JSON.stringify(levelText(level))}` : undefined}>{index}</span>
                    <input className="input input-sm" value={level.label} placeholder="label" aria-label={`Label of level ${index}`} data-testid="level-label"
                        {...item} onChange={(event) => change(index, {label: event.target.value})} />
                    <input className="input input-sm" value={level.description} placeholder="description (optional)" aria-label={`Description of level ${index}`} data-testid="level-description"
                        onChange={(event) => change(index, {description: event.target.value})} />
                    <ItemActions label={`level ${index}`} testId="level"
                        onUp={index > 0 ? () => onChange(moveItem(levels, index, -1)) : undefined}
                        onDown={index < levels.length - 1 ? () => onChange(moveItem(levels, index, 1)) : undefined}
                        onRemove={() => {
                            focusNext(() => afterRemoval(list.current, "[data-testid=level-row]", "[data-testid=level-remove]", index, "[data-testid=level-add]"));
                            onChange(levels.filter((_, at) => at !== index));
                        }} />
                </div>
                );
            })}
            <button type="button" className="btn btn-dashed btn-sm" disabled={full} data-testid="level-add"
                title={full ? `At most ${limits.levelsPerScore} levels per question` : undefined}
                onClick={() => {
                    const id = newId();
                    focusNext(() => list.current?.querySelector<HTMLElement>(`[data-field="${CSS.escape(`${questionId}:item:${id}`)}"]`));
                    onChange([...levels, {id, label: `level ${levels.length}`, description: ""}]);
                }}>
                + Add level
            </button>
        </div>
    );
}

type PredicateCriteriaEditorProps = {question: DraftQuestion, format: QuestionFormat, onChange: (patch: Pick<DraftQuestion, "trueDescription" | "falseDescription">) => void};

/** What true and false mean: `noul` criteria on /v1/systemone; kept but not sent on /v1/decisions. */
export function PredicateCriteriaEditor({question, format, onChange}: PredicateCriteriaEditorProps) {
    const fields = (
        <div className="criteria-grid">
            <label>
                <span className="muted small">true means</span>
                <input className="input input-sm" value={question.trueDescription} placeholder="optional" data-testid="pred-true"
                    onChange={(event) => onChange({trueDescription: event.target.value, falseDescription: question.falseDescription})} />
            </label>
            <label>
                <span className="muted small">false means</span>
                <input className="input input-sm" value={question.falseDescription} placeholder="optional" data-testid="pred-false"
                    onChange={(event) => onChange({trueDescription: question.trueDescription, falseDescription: event.target.value})} />
            </label>
        </div>
    );
    if (format === "systemone") return fields;
    return (
        <details className="criteria-details">
            <summary className="muted small">What true / false mean (sent on /v1/systemone only)</summary>
            {fields}
        </details>
    );
}
