import type {NormalizedOption, NormalizedQuestion} from "../../protocol/decisions/types.ts";
import {planLabelTree, labelTreeNodes, type LabelTreeNode} from "./utils/labelTree.ts";

/** One model round of a question: the text that asks it and the labels whose next-token logits answer it. */
export type QuestionRound = {nodeKey: string, prompt: string, labels: string[]};

export type QuestionPresentation = {
    /** order[position] = index of the option shown at that position. */
    order: number[],
    tree: LabelTreeNode,
    rounds: QuestionRound[]
};

/**
 * The rounds that ask `question` with its options shown in `order`. Yes/no questions are one round answered
 * "Yes"/"No"; choice and score questions list lettered options, in nested rounds when there are more than 26.
 */
export function buildQuestionRounds(question: NormalizedQuestion, order: number[]): QuestionPresentation {
    const shown = order.map((index) => question.options[index]);
    const tree = planLabelTree(shown.length);
    if (question.kind === "yesno") {
        // The pair is asked in the presented order ("Yes or No" / "No or Yes"), so order debiasing applies here too.
        const words = order.map((index) => index === 0 ? "Yes" : "No");
        const criteria = shown.map((option) => option.description != null ? `${option.text === "yes" ? "Yes" : "No"} means: ${option.description}\n` : "").join("");
        return {
            order,
            tree,
            rounds: [{nodeKey: tree.key, labels: words, prompt: `Question: ${question.instructions}\n${criteria}Reply ${words[0]} or ${words[1]}.\nAnswer:`}]
        };
    }
    const rounds = labelTreeNodes(tree).map((node): QuestionRound => {
        const lines = node.children.map((child) => child.node == null
            ? `${child.label}. ${describeOption(shown[child.options[0]])}`
            : `${child.label}. one of: ${child.options.map((position) => shown[position].text).join("; ")}`);
        const narrowed = node.key === "" ? "" : " (the answer is among these)";
        // The instruction comes before the options: the text both orders share is then read once per question.
        return {
            nodeKey: node.key,
            labels: node.children.map((child) => child.label),
            prompt: `Question: ${question.instructions}\nReply with the letter of the best option.\nOptions${narrowed}:\n${lines.join("\n")}\nAnswer:`
        };
    });
    return {order, tree, rounds};
}

function describeOption(option: NormalizedOption): string {
    return option.description != null && option.description !== "" ? `${option.text}: ${option.description}` : option.text;
}
