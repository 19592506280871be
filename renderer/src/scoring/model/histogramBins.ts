import type {NormalizedAnswer, QuestionInfo} from "../../../../client/scoring/index.ts";

export type HistogramBin = {label: string, count: number};

/**
 * What one question's answers look like over all rows: yes/no, P(true) in ten bins of 0.1 (the last one
 * closed, so 1.00 counts); choice, how often each value was picked; score, how often the expected level
 * rounded to each level.
 */
export function histogramBins(info: QuestionInfo, answers: Iterable<NormalizedAnswer | null>): HistogramBin[] {
    if (info.kind === "yesno") {
        const bins = Array.from({length: 10}, (_, index) => ({label: `${(index / 10).toFixed(1)}–${((index + 1) / 10).toFixed(1)}`, count: 0}));
        for (const answer of answers) if (answer !== null) bins[Math.min(9, Math.floor(answer.probabilities[0] * 10))].count++;
        return bins;
    }
    const bins = info.options.map((option) => ({label: info.kind === "score" ? `${option.value} · ${option.label}` : String(option.value), count: 0}));
    for (const answer of answers) {
        if (answer === null) continue;
        const index = info.kind === "choice"
            ? info.options.findIndex((option) => option.value === answer.choice)
            : Math.min(info.options.length - 1, Math.max(0, Math.round(answer.score ?? 0)));
        if (index >= 0) bins[index].count++;
    }
    return bins;
}
