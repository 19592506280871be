import {limits} from "../../../../protocol/limits.ts";
import {newId} from "../../utils/newId.ts";
import {levelText} from "../model/levelText.ts";
import {moveItem} from "../model/moveItem.ts";
import type {DraftLevel, QuestionFormat} from "../model/types.ts";
import {ItemActions} from "./ItemActions.tsx";

type Props = {levels: DraftLevel[], format: QuestionFormat, onChange: (levels: DraftLevel[]) => void};

/** The levels of a score question, lowest first and numbered from 0: label and description; at most 64. */
export function LevelListEditor({levels, format, onChange}: Props) {
    const change = (index: number, patch: Partial<DraftLevel>) => onChange(levels.map((level, at) => at === index ? {...level, ...patch} : level));
    const full = levels.length >= limits.levelsPerScore;
    return (
        <div className="option-list" data-testid="level-list">
            <div className="option-list-head">
                <span className="group-title">Levels, lowest first</span>
                <span className="muted small" data-testid="level-count">{levels.length} / {limits.levelsPerScore}</span>
            </div>
            {levels.map((level, index) => (
                <div className="option-row level-row" key={level.id} data-testid="level-row">
                    <span className="level-index mono" title={format === "systemone" ? `sent as ${JSON.stringify(levelText(level))}` : undefined}>{index}</span>
                    <input className="input input-sm" value={level.label} placeholder="label" aria-label={`Label of level ${index}`} data-testid="level-label"
                        onChange={(event) => change(index, {label: event.target.value})} />
                    <input className="input input-sm" value={level.description} placeholder="description (optional)" aria-label={`Description of level ${index}`} data-testid="level-description"
                        onChange={(event) => change(index, {description: event.target.value})} />
                    <ItemActions label={`level ${index}`} testId="level"
                        onUp={index > 0 ? () => onChange(moveItem(levels, index, -1)) : undefined}
                        onDown={index < levels.length - 1 ? () => onChange(moveItem(levels, index, 1)) : undefined}
                        onRemove={() => onChange(levels.filter((_, at) => at !== index))} />
                </div>
            ))}
            <button type="button" className="btn btn-dashed btn-sm" disabled={full} data-testid="level-add"
                title={full ? `At most ${limits.levelsPerScore} levels per question` : undefined}
                onClick={() => onChange([...levels, {id: newId(), label: `level ${levels.length}`, description: ""}])}>
                + Add level
            </button>
        </div>
    );
}
