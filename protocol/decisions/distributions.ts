import type {NormalizedQuestion} from "./types.ts";

// Spec 2.8: "confidence is the top probability rescaled so 0 is an even split across options and 1 is
// certainty", i.e. (n * p_max - 1) / (n - 1). The formatters feed it the raw (unrounded) distribution: rounding
// to hundredths would report 0.01 for an even three-way split (0.34 / 0.33 / 0.33) and 1 for p_max = 0.996,
// so the raw values are the only ones that give exactly 0 at an even split and 1 only at real certainty.

/** Distance from 0 or 1 below which floating-point noise is snapped away (n * (1 / n) need not be exactly 1). */
const snap = 1e-12;

export function confidence(probabilities: readonly number[]): number {
    const n = probabilities.length;
    if (n < 2) throw new RangeError(`confidence: needs at least two options, got ${n}`);
    let sum = 0;
    let top = 0;
    for (const probability of probabilities) {
        if (!Number.isFinite(probability) || probability < 0) throw new RangeError(`confidence: probabilities must be finite and non-negative, got ${probability}`);
        sum += probability;
        if (probability > top) top = probability;
    }
    if (!(sum > 0)) throw new RangeError("confidence: probabilities sum to zero");
    const value = (n * (top / sum) - 1) / (n - 1);
    if (value < snap) return 0;
    if (value > 1 - snap) return 1;
    return value;
}

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

// What both formatters report for one question, from the engine's raw distribution. Probabilities are
// rounded to hundredths by largest remainder so they sum to exactly 1.00. The most likely option, the score
// and the confidence come from the raw distribution (rounding would turn an even split into confidence 0.01
// and p = 0.996 into certainty); score and confidence are then rounded to `summaryDecimals` places, enough
// to rank on without printing float noise such as 2.4699999999999998.

export const summaryDecimals = 4;

export type DistributionSummary = {
    /** Rounded to hundredths, aligned with question.options, summing to exactly 1.00. */
    probabilities: number[],
    /** Index of the most likely option (first one on a tie). */
    top: number,
    /** Probability-weighted average option index (the score of a score question). */
    score: number,
    /** (n * p_max - 1) / (n - 1). */
    confidence: number
};

export function summarizeDistribution(question: NormalizedQuestion, raw: readonly number[]): DistributionSummary {
    if (raw.length !== question.options.length)
        throw new RangeError(`question ${question.index}: the engine gave ${raw.length} probabilities for ${question.options.length} options`);
    const sum = raw.reduce((total, value) => total + value, 0);
    const normalized = raw.map((value) => value / sum);
    let top = 0;
    normalized.forEach((value, index) => {
        if (value > normalized[top]) top = index;
    });
    const score = normalized.reduce((total, value, index) => total + index * value, 0);
    return {
        probabilities: largestRemainderRound(raw),
        top,
        score: roundTo(score, summaryDecimals),
        confidence: roundTo(confidence(raw), summaryDecimals)
    };
}

function roundTo(value: number, decimals: number): number {
    const scale = 10 ** decimals;
    return Math.round(value * scale) / scale;
}
