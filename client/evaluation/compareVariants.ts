import type {NormalizedAnswer, QuestionInfo} from "../questions/types.ts";
import type {CellValue} from "../spreadsheets/types.ts";
import {evaluateQuestion, type EvaluateOptions} from "./evaluateQuestion.ts";
import {readLabel} from "./readLabel.ts";
import type {Report} from "./types.ts";
import {mcnemarExactP} from "./utils/mcnemarExactP.ts";
import {predictedIndex} from "./utils/predictedIndex.ts";

export type VariantRow = {label: CellValue, a: NormalizedAnswer | null, b: NormalizedAnswer | null};

export type VariantComparison = {
    /** Rows where both variants answered and the label names an option: the only rows either report uses. */
    n: number,
    a: Report | null,
    b: Report | null,
    /** b minus a; negative is better for logLoss, brier and ece. Null where either side is undefined. */
    deltas: {accuracy: number | null, logLoss: number | null, brier: number | null, ece: number | null, auc: number | null, macroF1: number | null},
    /** Paired outcomes per row. */
    bothRight: number,
    onlyA: number,
    onlyB: number,
    bothWrong: number,
    /** Share of rows where the two variants predicted the same option. */
    agreement: number | null,
    /** Two-sided exact McNemar test on onlyA vs onlyB: a small value means the accuracies really differ. */
    mcnemarP: number | null
};

/**
 * Compares two variants of one question (same kind and options, e.g. two wordings) on the same labelled rows:
 * both reports on exactly the rows both answered, metric deltas, and the paired right / wrong counts.
 */
export function compareVariants(infoA: QuestionInfo, infoB: QuestionInfo, rows: readonly VariantRow[], options: EvaluateOptions = {}): VariantComparison {
    if (infoA.kind !== infoB.kind || infoA.options.length !== infoB.options.length || infoA.options.some((option, index) => option.value !== infoB.options[index].value))
        throw new RangeError(`compareVariants: ${JSON.stringify(infoA.name)} and ${JSON.stringify(infoB.name)} must be the same kind of question with the same options`);
    const paired = rows.filter((row): row is {label: CellValue, a: NormalizedAnswer, b: NormalizedAnswer} =>
        row.a !== null && row.b !== null && typeof readLabel(infoA, row.label) === "number");
    const a = evaluateQuestion(infoA, paired.map((row) => ({answer: row.a, label: row.label})), options).report;
    const b = evaluateQuestion(infoB, paired.map((row) => ({answer: row.b, label: row.label})), options).report;
    let bothRight = 0, onlyA = 0, onlyB = 0, bothWrong = 0, same = 0;
    for (const row of paired) {
        const label = readLabel(infoA, row.label) as number;
        const pickA = pick(infoA, row.a, options.threshold), pickB = pick(infoB, row.b, options.threshold);
        if (pickA === pickB) same++;
        const rightA = pickA === label, rightB = pickB === label;
        if (rightA && rightB) bothRight++;
        else if (rightA) onlyA++;
        else if (rightB) onlyB++;
        else bothWrong++;
    }
    const delta = (get: (report: Report) => number | null | undefined) => {
        const x = a === null ? null : get(a) ?? null, y = b === null ? null : get(b) ?? null;
        return x === null || y === null ? null : y - x;
    };
    return {
        n: paired.length,
        a,
        b,
        deltas: {
            accuracy: delta((report) => report.accuracy),
            logLoss: delta((report) => report.logLoss),
            brier: delta((report) => report.brier),
            ece: delta((report) => report.ece),
            auc: delta((report) => report.kind === "binary" ? report.auc : null),
            macroF1: delta((report) => report.kind === "multiclass" ? report.macroF1 : report.f1)
        },
        bothRight,
        onlyA,
        onlyB,
        bothWrong,
        agreement: paired.length === 0 ? null : same / paired.length,
        mcnemarP: paired.length === 0 ? null : mcnemarExactP(onlyA, onlyB)
    };
}

/** Yes/no: 0 (true) when P(true) >= threshold, else 1, as evaluateBinary counts it. */
function pick(info: QuestionInfo, answer: NormalizedAnswer, threshold = 0.5): number {
    if (info.kind === "yesno") return answer.probabilities[0] >= threshold ? 0 : 1;
    return predictedIndex(info, answer);
}
