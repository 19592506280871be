import type {CellResult, DecisionPrompt, MetricKey} from "./types.ts";
import {type MetricTable, numberOrNaN} from "./metricTables.ts";
import {QuestionPatterns, termWidth, type QuestionSums} from "./questionPatterns.ts";
import {parseQuestionSet, questionInfos, readAnswers, type NormalizedAnswer, type QuestionInfo, type StoredResponse} from "../scoring/questions.ts";
import {eceBinCount, multiclassRowOf, readLabel, reliabilityBinIndex, reliabilityBins} from "../scoring/evaluation.ts";
import {binaryRowTerms, macroF1OfConfusion, multiclassRowTerms, rocAuc} from "../scoring/metrics.ts";
import {calibrateAnswer} from "../scoring/calibration.ts";
import {guessLabelColumn} from "../scoring/labelColumns.ts";
import type {CellValue, SheetRow} from "../scoring/types.ts";

// A decision variant's answers per question against the dataset's labels, raw and (when the question set holds a
// saved calibration) calibrated. Every number is built from client/scoring's own per-row terms, confusion, ECE
// and AUC functions, so it equals reportOf's (one accuracy, one ECE), at any weighting of the rows.

export type DecisionDataset = {columns: readonly string[], rows: readonly SheetRow[], labelColumns?: readonly string[]};

/** Per question: the raw answer of each sample position (null: none) and its label, for the disagreements. */
export type DecisionAnswers = {info: QuestionInfo, answers: Array<NormalizedAnswer | null>, labels: Array<number | null>};

export type DecisionVariantTables = {tables: MetricTable[], answers: DecisionAnswers[], warnings: string[]};

/** The column holding a question's labels: among the label columns first, then any column; null when none fits. */
export function labelColumnOf(question: string, dataset: DecisionDataset): number {
    const guess = guessLabelColumn(question, dataset.labelColumns ?? []) ?? (dataset.labelColumns?.length ? null : guessLabelColumn(question, dataset.columns));
    return guess === null ? -1 : dataset.columns.indexOf(guess);
}

/** The metrics of a question of this kind, in the order its table returns them. */
export function metricsOf(kind: QuestionInfo["kind"]): MetricKey[] {
    const common: MetricKey[] = ["accuracy", "macro_f1", "brier", "log_loss", "ece"];
    return kind === "yesno" ? [...common, "auc"] : kind === "score" ? [...common, "mae"] : common;
}

type LabelledRow = {position: number, answer: NormalizedAnswer, label: number};

/** reportOf's yes/no threshold: P(yes) >= 0.5 predicts yes, as predictedIndex does. */
const yesThreshold = 0.5;

/**
 * What one row adds to its question's report, from client/scoring's own per-row functions (binaryRowTerms,
 * multiclassRowTerms): predicted option, Brier and log-loss terms, the absolute error of a score, and the ECE's
 * x (yes/no: P(yes); else the predicted option's probability) and outcome (yes/no: labelled yes; else right).
 */
function rowTerms(info: QuestionInfo, row: LabelledRow) {
    if (info.kind === "yesno") {
        const probability = row.answer.probabilities[0];
        const terms = binaryRowTerms(probability, row.label === 0, yesThreshold);
        const predicted = terms.predicted ? 0 : 1;
        return {predicted, brier: terms.brier, logLoss: terms.logLoss, absoluteError: 0, eceX: probability, eceHit: row.label === 0};
    }
    const terms = multiclassRowTerms(multiclassRowOf(info, row), info.kind === "score");
    return {predicted: terms.predicted, brier: terms.brier, logLoss: terms.logLoss, absoluteError: terms.absoluteError, eceX: terms.confidence, eceHit: terms.hit};
}

/**
 * The rows' terms while a question's patterns are made from them, one buffer for every question in turn: a summary
 * of 100,000 rows would otherwise let go of megabytes per question, which the garbage collector pays for.
 */
let termScratch = new Float64Array(0);

/**
 * One question's rows, raw or calibrated, kept as per-row terms so that any weighting of them (a bootstrap
 * resample) is evaluated in one pass: the Brier score, log loss, accuracy and MAE are weighted means of the terms;
 * the macro F1 comes from the weighted confusion matrix (macroF1OfConfusion); the ECE from reliabilityBins given
 * one weighted pseudo-row per bin and outcome at the bin's mean x (the same counts, sums and ECE as the rows);
 * the AUC from the weighted yes / no counts at each distinct P(yes) (rocAuc). The unweighted values equal reportOf's.
 * The rows are kept as patterns of their terms (questionPatterns.ts), weighed per resample or per batch of them.
 */
function questionTable(info: QuestionInfo, calibrated: boolean, positions: number, rows: readonly LabelledRow[]): MetricTable {
    const k = info.options.length;
    const used = new Uint8Array(positions), correct = new Uint8Array(positions);
    // Distinct P(yes), highest first, for the AUC's sweep.
    const levels = info.kind === "yesno" ? [...new Set(rows.map((row) => row.answer.probabilities[0]))].sort((a, b) => b - a) : [];
    const levelOf = new Map(levels.map((probability, index) => [probability, index]));
    if (termScratch.length < rows.length * termWidth) termScratch = new Float64Array(rows.length * termWidth);
    const terms = termScratch;
    rows.forEach((row, index) => {
        const term = rowTerms(info, row);
        const {position} = row;
        used[position] = 1;
        correct[position] = term.predicted === row.label ? 1 : 0;
        // ECE bins hold [weight of outcome 1, sum of x, weight of outcome 0, sum of x]; the AUC all yes levels, then all no.
        const level = levelOf.get(row.answer.probabilities[0]);
        const at = index * termWidth;
        terms[at] = correct[position];
        terms[at + 1] = term.brier;
        terms[at + 2] = term.logLoss;
        terms[at + 3] = term.absoluteError;
        terms[at + 4] = term.eceX;
        terms[at + 5] = row.label * k + term.predicted;
        terms[at + 6] = reliabilityBinIndex(term.eceX, eceBinCount) * 4 + (term.eceHit ? 0 : 2);
        terms[at + 7] = level === undefined ? -1 : level + (term.eceHit ? 0 : levels.length);
    });
    const patterns = new QuestionPatterns(rows.map((row) => row.position), terms, positions, {cells: k * k, bins: eceBinCount, aucSlots: levels.length * 2});
    const metrics = metricsOf(info.kind);
    const reliability = ({bins}: QuestionSums) => {
        const x: number[] = [], hit: boolean[] = [], weights: number[] = [];
        for (let slot = 0; slot < bins.length; slot += 2) {
            if (bins[slot] === 0) continue;
            x.push(bins[slot + 1] / bins[slot]);
            hit.push(slot % 4 === 0);
            weights.push(bins[slot]);
        }
        return reliabilityBins(x, hit, eceBinCount, weights);
    };
    const valuesOf = (sums: QuestionSums) => {
        const {total, confusion, auc} = sums;
        const matrix = Array.from({length: k}, (_unused, actual) => Array.from(confusion.subarray(actual * k, actual * k + k)));
        // The AUC's weighted rows labelled yes, then no, per distinct P(yes).
        const values: Partial<Record<MetricKey, number>> = total === 0 ? {} : {
            accuracy: sums.hits / total, macro_f1: numberOrNaN(macroF1OfConfusion(matrix)), brier: sums.brierSum / total,
            log_loss: sums.logLossSum / total, ece: reliability(sums).ece, mae: sums.errorSum / total,
            auc: levels.length === 0 ? Number.NaN : numberOrNaN(rocAuc(auc.subarray(0, levels.length), auc.subarray(levels.length)))
        };
        return Float64Array.from(metrics, (metric) => values[metric] ?? Number.NaN);
    };
    return {
        key: `question\u0000${info.name}\u0000${calibrated}`, question: info.name, kind: info.kind, calibrated, metrics,
        used,
        evaluate: (at, counts) => valuesOf(patterns.summed(at, counts)),
        evaluateLanes: (at, counts) => patterns.summedLanes(at, counts).map(valuesOf),
        outcomes: new Map([["accuracy", correct]]),
        reliability: (at) => reliability(patterns.summed(at, null)).reliability
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
        const raw: LabelledRow[] = [];
        // A label column holds few distinct values: each is read once.
        const read = new Map<CellValue, number | null | undefined>();
        dataset.rows.forEach((row, rowIndex) => {
            const position = positionOf(rowIndex);
            if (position < 0) return;
            const cell = row[column] ?? null;
            if (!read.has(cell)) read.set(cell, readLabel(info, cell));
            const label = read.get(cell);
            entry.labels[position] = typeof label === "number" ? label : null;
            const answer = entry.answers[position];
            if (answer !== null && typeof label === "number") raw.push({position, answer, label});
        });
        tables.push(questionTable(info, false, positions, raw));
        const calibration = prompt.questionSet.calibration?.[info.name];
        if (calibration === undefined) return;
        try {
            tables.push(questionTable(info, true, positions, raw.map((row) => ({...row, answer: calibrateAnswer(info, calibration, row.answer)}))));
        } catch (error) {
            warnings.push((error as Error).message);
        }
    });
    return {tables, answers, warnings};
}
