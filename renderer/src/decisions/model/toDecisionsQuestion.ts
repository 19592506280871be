import type {DecisionsQuestion} from "../../../../protocol/decisions/types.ts";
import type {DraftQuestion} from "./types.ts";

/** A draft question as /v1/decisions has it (spec 2.9); an empty name or description is left out. */
export function toDecisionsQuestion(question: DraftQuestion): DecisionsQuestion {
    const head = {type: question.type, ...(question.name === "" ? {} : {name: question.name}), instructions: question.instructions};
    if (question.type === "choice")
        return {...head, type: "choice", choices: question.choices.map((choice) => choice.description === "" ? {value: choice.value} : {value: choice.value, description: choice.description})};
    if (question.type === "score")
        return {...head, type: "score", levels: question.levels.map((level) => level.description === "" ? {label: level.label} : {label: level.label, description: level.description})};
    return {...head, type: "predicate"};
}
