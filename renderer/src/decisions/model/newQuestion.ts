import {newId} from "../../utils/newId.ts";
import type {DraftQuestion, QuestionType} from "./types.ts";
import {uniqueName} from "./uniqueName.ts";

const defaults: Record<QuestionType, {name: string, instructions: string}> = {
    predicate: {name: "is_relevant", instructions: "Is the text relevant to the topic?"},
    choice: {name: "category", instructions: "Which category fits the text best?"},
    score: {name: "quality", instructions: "How well written is the text?"}
};

/** A new question of `type` with a name no other question has and options that pass the server's checks. */
export function newQuestion(type: QuestionType, existing: readonly DraftQuestion[]): DraftQuestion {
    const taken = new Set(existing.map((question) => question.name));
    return {
        id: newId(),
        type,
        name: uniqueName(defaults[type].name, taken),
        instructions: defaults[type].instructions,
        choices: [
            {id: newId(), value: "option_a", description: ""},
            {id: newId(), value: "option_b", description: ""}
        ],
        levels: ["poor", "fair", "good"].map((label) => ({id: newId(), label, description: ""})),
        trueDescription: "",
        falseDescription: ""
    };
}

/** A copy with fresh ids, named `<name>_copy` (or `_copy_2`...) so names stay unique. */
export function duplicateQuestion(question: DraftQuestion, existing: readonly DraftQuestion[]): DraftQuestion {
    const taken = new Set(existing.map((item) => item.name));
    return {
        ...question,
        id: newId(),
        name: question.name === "" ? "" : uniqueName(`${question.name}_copy`, taken),
        choices: question.choices.map((choice) => ({...choice, id: newId()})),
        levels: question.levels.map((level) => ({...level, id: newId()}))
    };
}
