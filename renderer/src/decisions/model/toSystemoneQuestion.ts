import type {SystemoneQuestion} from "../../../../protocol/decisions/types.ts";
import {levelText} from "./levelText.ts";
import type {DraftQuestion} from "./types.ts";

/**
 * A draft question as /v1/systemone has it (spec 2.8): `noul` with its true / false descriptions when set,
 * choice values as criteria keys (a boolean becomes "true" / "false"; a missing description is null), levels
 * as the criteria array (levelText). Two choices with the same key collapse here: validateDraft reports them.
 */
export function toSystemoneQuestion(question: DraftQuestion): SystemoneQuestion {
    if (question.type === "choice") {
        const criteria = new Map<string, string | null>();
        for (const choice of question.choices) criteria.set(String(choice.value), choice.description === "" ? null : choice.description);
        return {type: "choice", instructions: question.instructions, criteria: Object.fromEntries(criteria)};
    }
    if (question.type === "score") return {type: "score", instructions: question.instructions, criteria: question.levels.map(levelText)};
    const criteria = {
        ...(question.trueDescription === "" ? {} : {true: question.trueDescription}),
        ...(question.falseDescription === "" ? {} : {false: question.falseDescription})
    };
    return Object.keys(criteria).length === 0 ? {type: "noul", instructions: question.instructions} : {type: "noul", instructions: question.instructions, criteria};
}
