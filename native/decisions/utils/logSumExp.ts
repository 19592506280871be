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
