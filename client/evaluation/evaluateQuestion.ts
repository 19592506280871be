import type {NormalizedAnswer, QuestionInfo} from "../questions/types.ts";
import type {CellValue} from "../spreadsheets/types.ts";
import {evaluateBinary, type BinaryOptions} from "./evaluateBinary.ts";
import {evaluateMulticlass} from "./evaluateMulticlass.ts";
import {readLabel} from "./readLabel.ts";
import type {Report} from "./types.ts";
import {predictedIndex} from "./utils/predictedIndex.ts";

export type LabelledAnswer = {
    /** The row's answer; null when the row has none (an error, or not scored yet). */
    answer: NormalizedAnswer | null,
    /** The cell of the label column. */
    label: CellValue
};

export type QuestionEvaluation = {
    question: string,
    kind: QuestionInfo["kind"],
    /** Rows used: answered and labelled with a known option. */
    used: number,
    skipped: {unlabelled: number, unanswered: number, unknownLabel: number},
    /** Up to 10 distinct labels that named no option, to show next to the label column picker. */
    unknownLabels: string[],
    /** Null when no row could be used. */
    report: Report | null,
    /** True when the answers were calibrated ones. */
    calibrated: boolean
};

export type EvaluateOptions = BinaryOptions;

/** Pairs each answer with its label (readLabel) and reports the question's metrics (binary or multiclass). */
export function evaluateQuestion(info: QuestionInfo, rows: readonly LabelledAnswer[], options: EvaluateOptions = {}): QuestionEvaluation {
    const skipped = {unlabelled: 0, unanswered: 0, unknownLabel: 0};
    const unknown = new Set<string>();
    const used: Array<{answer: NormalizedAnswer, label: number}> = [];
    for (const row of rows) {
        const label = readLabel(info, row.label);
        if (label === null) skipped.unlabelled++;
        else if (label === undefined) {
            skipped.unknownLabel++;
            if (unknown.size < 10) unknown.add(String(row.label));
        } else if (row.answer === null) skipped.unanswered++;
        else used.push({answer: row.answer, label});
    }
    return {
        question: info.name,
        kind: info.kind,
        used: used.length,
        skipped,
        unknownLabels: [...unknown],
        report: used.length === 0 ? null : report(info, used, options),
        calibrated: used.length > 0 && used.every((row) => row.answer.calibrated === true)
    };
}

function report(info: QuestionInfo, rows: Array<{answer: NormalizedAnswer, label: number}>, options: EvaluateOptions): Report {
    if (info.kind === "yesno")
        return evaluateBinary(rows.map((row) => ({probability: row.answer.probabilities[0], label: row.label === 0})), options);
    const labels = info.options.map((option) => info.kind === "score" ? `${option.value}: ${option.label}` : String(option.value));
    return evaluateMulticlass(
        rows.map((row) => ({probabilities: row.answer.probabilities, predicted: predictedIndex(info, row.answer), label: row.label})),
        labels,
        {bins: options.bins, ordinal: info.kind === "score"}
    );
}
