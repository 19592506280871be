
// log(sum(exp(x))) without overflow: shifting by the maximum keeps every exp() in [0, 1]. Used to pool a
// label's token variants and to normalise label logits in log space along label-tree paths.

export function logSumExp(values: readonly number[]): number {
    let max = -Infinity;
    for (const value of values) {
        if (Number.isNaN(value)) throw new RangeError("logSumExp: NaN value");
        if (value > max) max = value;
    }
    if (max === -Infinity) return -Infinity;
    if (max === Infinity) return Infinity;
    let sum = 0;
    for (const value of values) sum += Math.exp(value - max);
    return max + Math.log(sum);
}

// Probabilities over a question's answer labels only (never the whole vocabulary): the model's mass on other
// tokens is renormalised away, as the decision endpoints report a distribution over the allowed answers.

/** Natural-log probabilities of `logits / temperature`; stays exact where the probabilities underflow. */
export function logSoftmax(logits: readonly number[], temperature = 1): number[] {
    if (logits.length === 0) throw new RangeError("softmax: no logits");
    if (!(temperature > 0) || !Number.isFinite(temperature)) throw new RangeError(`softmax: temperature must be positive, got ${temperature}`);
    const scaled = logits.map((logit) => logit / temperature);
    const norm = logSumExp(scaled);
    if (!Number.isFinite(norm)) throw new RangeError("softmax: logits must hold at least one finite value and no +Infinity");
    return scaled.map((value) => value - norm);
}

export function softmax(logits: readonly number[], temperature = 1): number[] {
    return logSoftmax(logits, temperature).map(Math.exp);
}

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

// Models favour options by position (often the first or the last). Asking the same question with the options
// in the given order and in reverse, then averaging each option's probability over both runs, cancels a bias
// that is symmetric in position. Each run is mapped back from presentation positions to option indices first.

export type OrderedRun = {
    /** order[position] = index of the option shown at that position. */
    order: readonly number[],
    /** probabilities[position], as the model gave them for the presented labels. */
    probabilities: readonly number[]
};

/** [n-1, ..., 0]: the reversed presentation used for debiasing. */
export function reversedOrder(optionCount: number): number[] {
    return Array.from({length: optionCount}, (_, position) => optionCount - 1 - position);
}

/** Mean of the runs' distributions, indexed by option. Every run must present every option exactly once. */
export function averageOrders(runs: readonly OrderedRun[]): number[] {
    if (runs.length === 0) throw new RangeError("averageOrders: no runs");
    const optionCount = runs[0].order.length;
    const total = new Array<number>(optionCount).fill(0);
    for (const run of runs) {
        if (run.order.length !== optionCount || run.probabilities.length !== optionCount)
            throw new RangeError("averageOrders: every run must cover the same options");
        const seen = new Set<number>();
        run.order.forEach((option, position) => {
            if (!Number.isInteger(option) || option < 0 || option >= optionCount || seen.has(option))
                throw new RangeError(`averageOrders: order is not a permutation of 0..${optionCount - 1}`);
            seen.add(option);
            total[option] += run.probabilities[position];
        });
    }
    return total.map((sum) => sum / runs.length);
}
