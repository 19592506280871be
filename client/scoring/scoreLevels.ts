// A score question's two numbers, defined once for every screen, export column and metric:
// - the expected score: the probability-weighted mean level, sum of level x P(level), levels counted from 0;
// - the predicted level: the most likely level, the level with the highest probability.
//
// Why the predicted level is the most likely level and not the expected score rounded: the rounded mean can land
// on a level the model gives almost no probability (an answer split between 0 and 4 averages to 2), so a
// confusion matrix, accuracy or F1 built on it would count "predictions" the model did not make; the top-label
// ECE compares the predicted level's own probability with how often it was right, which only means something
// when that level is the most likely one; and a choice question (and the server's `choice`) picks its most likely
// value too. The expected score keeps the ordinal information the level throws away: the mean absolute error and
// a ranking use it, and every screen that shows a level shows it beside.

/** The rules in words, for the hover text of every place that shows one of the two numbers. */
export const scoreDefinitions = {
    expected: "Expected score: the probability-weighted mean level, Σ level × P(level), levels counted from 0. The mean absolute error uses it.",
    predicted: "Predicted level: the most likely level, the one with the highest probability (on a tie, the tied level nearest the expected score). " +
        "The histogram, the confusion matrix, accuracy, F1 and ECE use it."
} as const;

/** Sum of level x probability over the levels, lowest (0) first. */
export function expectedScore(probabilities: readonly number[]): number {
    return probabilities.reduce((sum, probability, level) => sum + probability * level, 0);
}

/**
 * The level with the highest probability. Answers come rounded to hundredths, so ties happen: among tied levels
 * the one nearest `expected` wins (the lower one when two are equally near), not merely the lowest.
 */
export function mostLikelyLevel(probabilities: readonly number[], expected: number = expectedScore(probabilities)): number {
    let best = 0;
    for (let level = 1; level < probabilities.length; level++) {
        const probability = probabilities[level];
        if (probability > probabilities[best] || (probability === probabilities[best] && Math.abs(level - expected) < Math.abs(best - expected))) best = level;
    }
    return best;
}

export type ScoreReading = {
    /** The server's `score` when it sent one (it came from unrounded probabilities), else computed. */
    expected: number,
    /** Index of the predicted (most likely) level. */
    mostLikely: number
};

/** Both numbers of one score answer. */
export function readScore(answer: {probabilities: readonly number[], score?: number}): ScoreReading {
    const expected = answer.score ?? expectedScore(answer.probabilities);
    return {expected, mostLikely: mostLikelyLevel(answer.probabilities, expected)};
}

/** "expected 2.00" and "most likely 0": both numbers, as every screen writes them (a narrow card wraps between them). */
export function scoreReadingParts(reading: ScoreReading): [string, string] {
    return [`expected ${reading.expected.toFixed(2)}`, `most likely ${reading.mostLikely}`];
}

/** "expected 2.00 · most likely 0". */
export function formatScoreReading(reading: ScoreReading): string {
    return scoreReadingParts(reading).join(" · ");
}
