import type {NormalizedAnswer, QuestionInfo} from "../../questions/types.ts";
import {argmax} from "../evaluateMulticlass.ts";

/**
 * The option an answer picks: the server's `choice` when it names an option (it came from unrounded values,
 * so it breaks ties that rounding made), else the most probable option.
 */
export function predictedIndex(info: QuestionInfo, answer: NormalizedAnswer): number {
    if (answer.choice !== undefined) {
        const index = info.options.findIndex((option) => option.value === answer.choice);
        if (index >= 0 && answer.probabilities[index] === Math.max(...answer.probabilities)) return index;
    }
    return argmax(answer.probabilities);
}
