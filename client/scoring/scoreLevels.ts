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

// A score question's label cell names a level by the level's label, compared trimmed and in any case ("3.0" also
// names a level labelled "3"), or else by its index (0 = lowest). Labels come first because a person writes the
// level as it reads: a 1–5 rating column against levels labelled "1" … "5" means the level labelled "5", not index
// 5. An index is read only where it cannot be mistaken for a label, that is when no level's label holds a digit:
// against levels labelled "1" … "5" (or "1 star" … "5 stars") a "0" matches no label, and reading it as index 0
// would make every other number in its column ambiguous (1 = index 1 = the level labelled "2"?), so it is refused.

/** Whether some level's label holds a digit: a number in a label column could then mean a label, so no index is read. */
export function levelsAreNumbered(levels: readonly {label: string}[]): boolean {
    return levels.some((level) => /\d/.test(level.label));
}

const numeral = /^[-+]?\d+(\.\d+)?$/;
const levelIndex = /^\d+(\.0+)?$/;

/** The level a label's text names (see above): by label, else by index where indexes are read; undefined when none. */
export function readLevelLabel(levels: readonly {label: string}[], text: string): number | undefined {
    const exact = levels.findIndex((level) => level.label === text);
    if (exact >= 0) return exact;
    const wanted = text.trim().toLowerCase();
    const folded = levels.findIndex((level) => level.label.trim().toLowerCase() === wanted);
    if (folded >= 0) return folded;
    if (numeral.test(wanted)) {
        const same = levels.findIndex((level) => numeral.test(level.label.trim()) && Number(level.label) === Number(wanted));
        if (same >= 0) return same;
    }
    if (levelsAreNumbered(levels) || !levelIndex.test(wanted)) return undefined;
    const index = Number(wanted);
    return index < levels.length ? index : undefined;
}

/**
 * Whether a label's text names no level only because the levels are numbered: it is a level index (0 = lowest)
 * but no level's label, as "0" against levels labelled "1" … "5". Such a value says its column may count levels
 * from 0, where its other numbers would be read one level off; a check reports it apart from plain unknown labels.
 */
export function isUnreadLevelIndex(levels: readonly {label: string}[], text: string): boolean {
    const wanted = text.trim();
    return levelsAreNumbered(levels) && levelIndex.test(wanted) && Number(wanted) < levels.length && readLevelLabel(levels, wanted) === undefined;
}
