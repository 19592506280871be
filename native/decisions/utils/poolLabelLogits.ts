import {logSumExp} from "./logSumExp.ts";

// A model can answer "A", "a", " A" or " a" and mean the same label; each spelling is a different token. We
// pool them by adding their probabilities, which in logit space is log-sum-exp of the variants' logits: the
// softmax over the pooled logits then equals the summed softmax mass of each label's variants.

/** The spellings of a label the engine should look up as single tokens: as given, lower, upper, each with and without a leading space. */
export function labelVariants(label: string): string[] {
    const cases = [label, label.toLowerCase(), label.toUpperCase(), label.charAt(0).toUpperCase() + label.slice(1).toLowerCase()];
    const variants = [...cases, ...cases.map((text) => ` ${text}`)];
    return [...new Set(variants)];
}

/**
 * Pooled logit per label: `tokenIdsPerLabel[i]` holds the token ids of label i's single-token variants (see
 * labelVariants), `logits` the next-token logits by token id. Duplicate ids within a label count once; an id
 * shared by two labels, or a label with no variant, is a labelling bug and throws.
 */
export function poolLabelLogits(tokenIdsPerLabel: readonly (readonly number[])[], logits: ArrayLike<number>): number[] {
    const owner = new Map<number, number>();
    return tokenIdsPerLabel.map((tokenIds, labelIndex) => {
        const unique = [...new Set(tokenIds)];
        if (unique.length === 0) throw new RangeError(`poolLabelLogits: label ${labelIndex} has no single-token variant`);
        for (const id of unique) {
            const previous = owner.get(id);
            if (previous !== undefined) throw new RangeError(`poolLabelLogits: token ${id} belongs to labels ${previous} and ${labelIndex}`);
            owner.set(id, labelIndex);
            if (!Number.isInteger(id) || id < 0 || id >= logits.length) throw new RangeError(`poolLabelLogits: token ${id} is outside the logits`);
        }
        return logSumExp(unique.map((id) => logits[id]));
    });
}
