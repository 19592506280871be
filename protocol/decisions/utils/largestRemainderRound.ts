// Spec 2.8: probabilities are rounded to two decimals and sum to 1. Naive per-value rounding makes sums such
// as 0.99 or 1.01 that strict clients reject, so we share out whole hundredths by the largest-remainder
// (Hamilton) method: every value gets its floor, and the hundredths still missing go to the largest remainders.

/** Below this distance from an integer a scaled value counts as that integer, so 0.29 * 100 = 28.999... is 29. */
const integerSnap = 1e-9;

/**
 * Shares `total` whole units among `weights` in proportion to them; the result sums to exactly `total`.
 * Weights need not sum to 1 (they are normalised first). Ties between equal remainders go to the earlier
 * index, so the same input always gives the same output.
 */
export function largestRemainderUnits(weights: readonly number[], total: number): number[] {
    if (weights.length === 0) throw new RangeError("largestRemainderUnits: no weights");
    if (!Number.isInteger(total) || total < 0) throw new RangeError(`largestRemainderUnits: total must be a non-negative integer, got ${total}`);
    let sum = 0;
    for (const weight of weights) {
        if (!Number.isFinite(weight) || weight < 0) throw new RangeError(`largestRemainderUnits: weights must be finite and non-negative, got ${weight}`);
        sum += weight;
    }
    if (!(sum > 0)) throw new RangeError("largestRemainderUnits: weights sum to zero");

    const units: number[] = [];
    const remainders: number[] = [];
    let assigned = 0;
    for (const weight of weights) {
        const scaled = weight / sum * total;
        const nearest = Math.round(scaled);
        const exact = Math.abs(scaled - nearest) < integerSnap ? nearest : scaled;
        const floor = Math.floor(exact);
        units.push(floor);
        remainders.push(exact - floor);
        assigned += floor;
    }

    const order = remainders.map((_, index) => index)
        .sort((a, b) => (remainders[b] - remainders[a]) || (a - b));
    // The floors lose less than one unit each, so fewer than weights.length units are missing.
    for (let rank = 0; assigned < total; rank++, assigned++) units[order[rank]]++;
    return units;
}

/** Rounds a probability distribution to two decimals so the values sum to exactly 1.00 (in hundredths). */
export function largestRemainderRound(probabilities: readonly number[]): number[] {
    return largestRemainderUnits(probabilities, 100).map((hundredths) => hundredths / 100);
}
