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
