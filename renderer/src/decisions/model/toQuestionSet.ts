import type {QuestionSet} from "../../../../client/scoring/index.ts";
import type {SystemoneQuestion} from "../../../../protocol/decisions/types.ts";
import {toDecisionsQuestion} from "./toDecisionsQuestion.ts";
import {toSystemoneQuestion} from "./toSystemoneQuestion.ts";
import type {DraftSet} from "./types.ts";

/**
 * The draft as a question set file (client/questions), keys in a fixed order so saved files diff cleanly:
 * format, name, description, x_svc, questions, calibration. Empty name / description and an x_svc with
 * nothing to say are left out.
 */
export function toQuestionSet(draft: DraftSet): QuestionSet {
    const xSvc = {
        ...(draft.explain ? {explain: true} : {}),
        ...(draft.maxSoftTokens === null ? {} : {max_soft_tokens: draft.maxSoftTokens})
    };
    const head = {
        ...(draft.name === "" ? {} : {name: draft.name}),
        ...(draft.description === "" ? {} : {description: draft.description}),
        ...(Object.keys(xSvc).length === 0 ? {} : {x_svc: xSvc})
    };
    const calibration = draft.calibration !== null && Object.keys(draft.calibration).length > 0 ? {calibration: draft.calibration} : {};
    if (draft.format === "decisions")
        return {format: "decisions", ...head, questions: draft.questions.map(toDecisionsQuestion), ...calibration};
    // The first question of a name wins (validateDraft reports the others); fromEntries makes even a
    // question named "__proto__" an own key.
    const byName = new Map<string, SystemoneQuestion>();
    for (const question of draft.questions) if (!byName.has(question.name)) byName.set(question.name, toSystemoneQuestion(question));
    const questions: Record<string, SystemoneQuestion> = Object.fromEntries(byName);
    return {format: "systemone", ...head, questions, ...calibration};
}
