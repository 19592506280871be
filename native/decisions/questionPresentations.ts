import type {NormalizedQuestion} from "../../protocol/decisions/types.ts";
import {buildQuestionRounds, type QuestionPresentation} from "./buildQuestionRounds.ts";
import {reversedOrder} from "./utils/averageOrders.ts";

/**
 * How a question is put to the model: its options in the given order and, with `orderDebias`, also reversed,
 * so each option is seen once early and once late and a position bias cancels in the average.
 */
export function questionPresentations(question: NormalizedQuestion, orderDebias: boolean): QuestionPresentation[] {
    const count = question.options.length;
    const given = Array.from({length: count}, (_, index) => index);
    return orderDebias
        ? [buildQuestionRounds(question, given), buildQuestionRounds(question, reversedOrder(count))]
        : [buildQuestionRounds(question, given)];
}
