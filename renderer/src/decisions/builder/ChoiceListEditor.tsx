import {limits} from "../../../../protocol/limits.ts";
import {newId} from "../../utils/newId.ts";
import {moveItem} from "../model/moveItem.ts";
import {uniqueName} from "../model/uniqueName.ts";
import type {DraftChoice, QuestionFormat} from "../model/types.ts";
import {ItemActions} from "./ItemActions.tsx";

type Props = {choices: DraftChoice[], format: QuestionFormat, onChange: (choices: DraftChoice[]) => void};

/**
 * The options of a choice question: a value that is text or a boolean (true and "true" are different values
 * on /v1/decisions, the same key on /v1/systemone), an optional description, order; at most 512.
 */
export function ChoiceListEditor({choices, format, onChange}: Props) {
    const change = (index: number, patch: Partial<DraftChoice>) => onChange(choices.map((choice, at) => at === index ? {...choice, ...patch} : choice));
    const full = choices.length >= limits.optionsPerChoice;
    return (
        <div className="option-list" data-testid="choice-list">
            <div className="option-list-head">
                <span className="group-title">Choices</span>
                <span className="muted small" data-testid="choice-count">{choices.length} / {limits.optionsPerChoice}</span>
            </div>
            {choices.map((choice, index) => (
                <div className="option-row" key={choice.id} data-testid="choice-row">
                    <select className="input input-sm option-kind" aria-label={`Type of choice ${index + 1}`} data-testid="choice-kind"
                        value={typeof choice.value === "boolean" ? String(choice.value) : "text"}
                        onChange={(event) => change(index, {value: event.target.value === "text" ? (typeof choice.value === "string" ? choice.value : String(choice.value)) : event.target.value === "true"})}>
                        <option value="text">text</option>
                        <option value="true">true (boolean)</option>
                        <option value="false">false (boolean)</option>
                    </select>
                    {typeof choice.value === "string"
                        ? <input className="input input-sm mono" value={choice.value} placeholder="value" aria-label={`Value of choice ${index + 1}`} data-testid="choice-value"
                            onChange={(event) => change(index, {value: event.target.value})} />
                        : <span className="option-bool mono" data-testid="choice-value-bool">{String(choice.value)}</span>}
                    <input className="input input-sm" value={choice.description} placeholder={format === "systemone" ? "description (null when empty)" : "description (optional)"}
                        aria-label={`Description of choice ${index + 1}`} data-testid="choice-description" onChange={(event) => change(index, {description: event.target.value})} />
                    <ItemActions label={`choice ${index + 1}`} testId="choice"
                        onUp={index > 0 ? () => onChange(moveItem(choices, index, -1)) : undefined}
                        onDown={index < choices.length - 1 ? () => onChange(moveItem(choices, index, 1)) : undefined}
                        onRemove={() => onChange(choices.filter((_, at) => at !== index))} />
                </div>
            ))}
            <button type="button" className="btn btn-dashed btn-sm" disabled={full} data-testid="choice-add"
                title={full ? `At most ${limits.optionsPerChoice} choices per question` : undefined}
                onClick={() => onChange([...choices, {id: newId(), value: uniqueName(`option_${choices.length + 1}`, new Set(choices.map((choice) => String(choice.value)))), description: ""}])}>
                + Add choice
            </button>
        </div>
    );
}
