/** numerator / denominator, or null when the denominator is 0 (a metric undefined on this data). */
export function ratio(numerator: number, denominator: number): number | null {
    return denominator === 0 ? null : numerator / denominator;
}

/**
 * F1 as 2tp / (2tp + fp + fn): the harmonic mean of precision and recall where both exist, 0 for a class
 * that is labelled but never predicted (or predicted but never labelled), null only when it is neither.
 */
export function f1Score(tp: number, fp: number, fn: number): number | null {
    return ratio(2 * tp, 2 * tp + fp + fn);
}
