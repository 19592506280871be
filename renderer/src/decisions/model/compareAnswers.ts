import type {AnswerView} from "./answerViews.ts";

export type AnswerComparison = {
    name: string,
    a: AnswerView | null,
    b: AnswerView | null,
    /** Largest |P_a - P_b| over the options both answers have; null unless both answered. */
    maxDifference: number | null,
    /** Whether both picked the same option; null unless both answered. */
    samePick: boolean | null,
    /** b - a of P(true) (yes/no) or of the expected level (score); null otherwise. */
    delta: number | null
};

/**
 * Pairs the answers of two runs by question name (two variants of a set may order or name questions
 * differently; a question only one of them has is listed with the other side null), in A's order then B's.
 */
export function compareAnswers(a: readonly AnswerView[], b: readonly AnswerView[]): AnswerComparison[] {
    const names = [...new Set([...a.map((view) => view.name), ...b.map((view) => view.name)])];
    return names.map((name) => {
        const left = a.find((view) => view.name === name) ?? null;
        const right = b.find((view) => view.name === name) ?? null;
        if (left === null || right === null) return {name, a: left, b: right, maxDifference: null, samePick: null, delta: null};
        const rightByKey = new Map(right.options.map((option) => [optionKey(option.value), option]));
        let maxDifference = 0;
        for (const option of left.options) {
            const other = rightByKey.get(optionKey(option.value));
            if (other !== undefined) maxDifference = Math.max(maxDifference, Math.abs(option.probability - other.probability));
        }
        const pick = (view: AnswerView) => view.options.find((option) => option.picked)?.value;
        const delta = left.kind === "yesno" && right.kind === "yesno" ? right.probability! - left.probability!
            : left.kind === "score" && right.kind === "score" ? right.score! - left.score! : null;
        return {name, a: left, b: right, maxDifference, samePick: optionKey(pick(left)) === optionKey(pick(right)), delta};
    });
}

/** Options match by value and type: a boolean true is not the string "true". */
function optionKey(value: unknown): string {
    return `${typeof value}:${String(value)}`;
}
