import type {NormalizedQuestion} from "../types.ts";
import {confidence} from "./confidence.ts";
import {largestRemainderRound} from "./largestRemainderRound.ts";

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
