import type {CellResult, DecisionPrompt, MetricKey} from "./types.ts";
import {type MetricTable, GroupIndex, numberOrNaN} from "./metricTables.ts";
import {parseQuestionSet, questionInfos, readAnswers, type NormalizedAnswer, type QuestionInfo, type StoredResponse} from "../scoring/questions.ts";
import {readLabel, reportOf, type ReadLabelledAnswer, type Report} from "../scoring/evaluation.ts";
import {calibrateAnswer} from "../scoring/calibration.ts";
import {guessLabelColumn} from "../scoring/labelColumns.ts";
import type {CellValue, SheetRow} from "../scoring/types.ts";

// A decision variant's answers per question against the dataset's labels, raw and (when the question set holds a
// saved calibration) calibrated. Every number comes from client/scoring's reportOf: one accuracy, one ECE.

export type DecisionDataset = {columns: readonly string[], rows: readonly SheetRow[], labelColumns?: readonly string[]};

/** Per question: the raw answer of each sample position (null: none) and its label, for the disagreements. */
export type DecisionAnswers = {info: QuestionInfo, answers: Array<NormalizedAnswer | null>, labels: Array<number | null>};

export type DecisionVariantTables = {tables: MetricTable[], answers: DecisionAnswers[], warnings: string[]};

/** The column holding a question's labels: among the label columns first, then any column; null when none fits. */
export function labelColumnOf(question: string, dataset: DecisionDataset): number {
    const guess = guessLabelColumn(question, dataset.labelColumns ?? []) ?? (dataset.labelColumns?.length ? null : guessLabelColumn(question, dataset.columns));
    return guess === null ? -1 : dataset.columns.indexOf(guess);
}

/** The metrics of one question's report, in the order `metricsOf` lists them. */
export function metricsOf(kind: QuestionInfo["kind"]): MetricKey[] {
    const common: MetricKey[] = ["accuracy", "macro_f1", "brier", "log_loss", "ece"];
    return kind === "yesno" ? [...common, "auc"] : kind === "score" ? [...common, "mae"] : common;
}

function readMetric(report: Report, metric: MetricKey): number {
    switch (metric) {
        case "accuracy": return report.accuracy;
        case "macro_f1": return numberOrNaN(report.macroF1);
        case "brier": return report.brier;
        case "log_loss": return report.logLoss;
        case "ece": return report.ece;
        case "auc": return report.kind === "binary" ? numberOrNaN(report.auc) : Number.NaN;
        case "mae": return report.kind === "multiclass" ? numberOrNaN(report.meanAbsoluteError) : Number.NaN;
        default: return Number.NaN;
    }
}

/** What reportOf reads of an answer and its label: rows with the same key are the same row to every metric. */
function groupKey(info: QuestionInfo, answer: NormalizedAnswer, label: number): string {
    if (info.kind === "yesno") return `${answer.probabilities[0]}|${label}`;
    return `${answer.probabilities.join(",")}|${String(answer.choice ?? "")}|${answer.score ?? ""}|${label}`;
}

function tableOf(info: QuestionInfo, calibrated: boolean, positions: number, rows: ReadonlyArray<{position: number, answer: NormalizedAnswer, label: number}>): MetricTable {
    const groups = new GroupIndex<ReadLabelledAnswer>();
    const groupOf = new Int32Array(positions).fill(-1);
    for (const {position, answer, label} of rows) groupOf[position] = groups.idOf(groupKey(info, answer, label), () => ({answer, label}));
    const metrics = metricsOf(info.kind);
    const weighted = (weights: Float64Array): Report | null => {
        const used: ReadLabelledAnswer[] = [];
        groups.members.forEach((member, group) => {
            if (weights[group] > 0) used.push({...member, weight: weights[group]});
        });
        return used.length === 0 ? null : reportOf(info, used);
    };
    return {
        key: `question\u0000${info.name}\u0000${calibrated}`,
        question: info.name,
        kind: info.kind,
        calibrated,
        metrics,
        groupOf,
        groupCount: groups.members.length,
        evaluate: (weights) => {
            const report = weighted(weights);
            return Float64Array.from(metrics, (metric) => report === null ? Number.NaN : readMetric(report, metric));
        },
        // A row is right when its one-row report's accuracy is 1: the same predicted option as every metric's.
        correct: Uint8Array.from(groups.members, (member) => reportOf(info, [member]).accuracy === 1 ? 1 : 0),
        pairedOutcome: "accuracy",
        reliability: (weights) => weighted(weights)?.reliability ?? []
    };
}

/**
 * The metric tables of one decision variant: per question, raw and calibrated (when its question set has a saved
 * calibration for it). `positionOf` maps a dataset row index to its position in the sample (-1: not sampled).
 */
export function decisionTables(prompt: DecisionPrompt, cells: readonly CellResult[], dataset: DecisionDataset, positionOf: (rowIndex: number) => number, positions: number): DecisionVariantTables {
    const warnings: string[] = [];
    let infos: QuestionInfo[];
    try {
        infos = questionInfos(parseQuestionSet(prompt.questionSet).normalized);
    } catch (error) {
        return {tables: [], answers: [], warnings: [(error as Error).message]};
    }
    const format = prompt.questionSet.format;
    const answers: DecisionAnswers[] = infos.map((info) => ({info, answers: new Array<NormalizedAnswer | null>(positions).fill(null), labels: new Array<number | null>(positions).fill(null)}));
    let unreadable = 0;
    for (const cell of cells) {
        const position = positionOf(cell.rowIndex);
        if (position < 0 || !cell.ok || cell.response === undefined) continue;
        try {
            readAnswers(format, infos, cell.response as StoredResponse).forEach((answer, question) => answers[question].answers[position] = answer);
        } catch {
            unreadable++;
        }
    }
    if (unreadable > 0) warnings.push(`${unreadable} answers did not fit the question set and were left out`);

    const tables: MetricTable[] = [];
    infos.forEach((info, question) => {
        const column = labelColumnOf(info.name, dataset);
        if (column < 0) {
            warnings.push(`no label column for question ${JSON.stringify(info.name)}: its metrics are not computed`);
            return;
        }
        const entry = answers[question];
        const raw: Array<{position: number, answer: NormalizedAnswer, label: number}> = [];
        dataset.rows.forEach((row, rowIndex) => {
            const position = positionOf(rowIndex);
            if (position < 0) return;
            const label = readLabel(info, row[column] as CellValue);
            entry.labels[position] = typeof label === "number" ? label : null;
            const answer = entry.answers[position];
            if (answer !== null && typeof label === "number") raw.push({position, answer, label});
        });
        tables.push(tableOf(info, false, positions, raw));
        const calibration = prompt.questionSet.calibration?.[info.name];
        if (calibration === undefined) return;
        try {
            tables.push(tableOf(info, true, positions, raw.map((row) => ({...row, answer: calibrateAnswer(info, calibration, row.answer)}))));
        } catch (error) {
            warnings.push((error as Error).message);
        }
    });
    return {tables, answers, warnings};
}
