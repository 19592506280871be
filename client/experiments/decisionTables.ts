import type {CellResult, DecisionPrompt, MetricKey} from "./types.ts";
import {type MetricTable, numberOrNaN} from "./metricTables.ts";
import {RowPatterns} from "./rowPatterns.ts";
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

/** A row's terms and slots, in its pattern: [right 0/1, Brier, log loss, |error|, ECE x, confusion cell, ECE bin slot, AUC slot or -1]. */
const patternWidth = 8;
/** Where a row's Brier, log-loss and |error| terms sit in its pattern. */
const meanTerms = 1;

/**
 * Questions whose rows have more patterns than this share of their rows (a score question's Brier terms are nearly
 * all different) keep those three terms per row and group the rows by the rest (right, ECE x and the slots).
 */
const compressible = 1 / 4;

/**
 * The rows' patterns from their terms (`patternWidth` numbers per row, in the order of `rows`): with `perRow`, the
 * Brier, log-loss and |error| terms are left out of the patterns and kept per position instead.
 */
function rowPatterns(rows: readonly LabelledRow[], positions: number, terms: Float64Array, perRow: boolean): {patterns: RowPatterns, means: Float64Array | null} {
    const patterns = new RowPatterns(positions, patternWidth);
    const means = perRow ? new Float64Array(positions * 3) : null;
    const key = new Float64Array(patternWidth);
    rows.forEach((row, index) => {
        for (let term = 0; term < patternWidth; term++) key[term] = terms[index * patternWidth + term];
        if (means !== null) for (let term = 0; term < 3; term++) {
            means[row.position * 3 + term] = key[meanTerms + term];
            key[meanTerms + term] = 0;
        }
        patterns.add(row.position, key);
    });
    return {patterns, means};
}

/**
 * One question's rows, raw or calibrated, kept as per-row terms so that any weighting of them (a bootstrap
 * resample) is evaluated in one pass: the Brier score, log loss, accuracy and MAE are weighted means of the terms;
 * the macro F1 comes from the weighted confusion matrix (macroF1OfConfusion); the ECE from reliabilityBins given
 * one weighted pseudo-row per bin and outcome at the bin's mean x (the same counts, sums and ECE as the rows);
 * the AUC from the weighted yes / no counts at each distinct P(yes) (rocAuc). The unweighted values equal reportOf's.
 * Rows with the same terms share a pattern (rowPatterns.ts), so a resample costs one weight per row and one pass
 * over the patterns.
 */
function questionTable(info: QuestionInfo, calibrated: boolean, positions: number, rows: readonly LabelledRow[]): MetricTable {
    const k = info.options.length;
    const used = new Uint8Array(positions), correct = new Uint8Array(positions);
    // Distinct P(yes), highest first, for the AUC's sweep.
    const levels = info.kind === "yesno" ? [...new Set(rows.map((row) => row.answer.probabilities[0]))].sort((a, b) => b - a) : [];
    const levelOf = new Map(levels.map((probability, index) => [probability, index]));
    const terms = new Float64Array(rows.length * patternWidth);
    rows.forEach((row, index) => {
        const term = rowTerms(info, row);
        const {position} = row;
        used[position] = 1;
        correct[position] = term.predicted === row.label ? 1 : 0;
        // ECE bins hold [weight of outcome 1, sum of x, weight of outcome 0, sum of x]; the AUC all yes levels, then all no.
        const level = levelOf.get(row.answer.probabilities[0]);
        terms.set([correct[position], term.brier, term.logLoss, term.absoluteError, term.eceX, row.label * k + term.predicted,
            reliabilityBinIndex(term.eceX, eceBinCount) * 4 + (term.eceHit ? 0 : 2), level === undefined ? -1 : level + (term.eceHit ? 0 : levels.length)], index * patternWidth);
    });
    let {patterns, means} = rowPatterns(rows, positions, terms, false);
    if (patterns.count > Math.max(256, rows.length * compressible)) ({patterns, means} = rowPatterns(rows, positions, terms, true));
    // The slots as whole numbers, for indexing.
    const slots = Int32Array.from({length: patterns.count * 3}, (_unused, index) => patterns.values[Math.floor(index / 3) * patternWidth + 5 + index % 3]);
    const metrics = metricsOf(info.kind);
    const bins = new Float64Array(eceBinCount * 4), confusion = new Float64Array(k * k), auc = new Float64Array(levels.length * 2);
    const summed = (at: Int32Array, counts: Int32Array | null) => {
        bins.fill(0);
        confusion.fill(0);
        auc.fill(0);
        let total = 0, hits = 0, brierSum = 0, logLossSum = 0, errorSum = 0;
        const weights = patterns.weigh(at, counts), values = patterns.values;
        for (let pattern = 0; pattern < weights.length; pattern++) {
            const weight = weights[pattern];
            if (weight === 0) continue;
            const term = pattern * patternWidth, slot = pattern * 3;
            total += weight;
            hits += weight * values[term];
            brierSum += weight * values[term + 1];
            logLossSum += weight * values[term + 2];
            errorSum += weight * values[term + 3];
            confusion[slots[slot]] += weight;
            const bin = slots[slot + 1];
            bins[bin] += weight;
            bins[bin + 1] += weight * values[term + 4];
            const level = slots[slot + 2];
            if (level >= 0) auc[level] += weight;
        }
        if (means !== null) for (let index = 0; index < at.length; index++) {
            const position = at[index];
            const count = counts === null ? 1 : counts[position];
            if (count === 0) continue;
            brierSum += count * means[position * 3];
            logLossSum += count * means[position * 3 + 1];
            errorSum += count * means[position * 3 + 2];
        }
        const x: number[] = [], hit: boolean[] = [], binWeights: number[] = [];
        for (let slot = 0; slot < bins.length; slot += 2) {
            if (bins[slot] === 0) continue;
            x.push(bins[slot + 1] / bins[slot]);
            hit.push(slot % 4 === 0);
            binWeights.push(bins[slot]);
        }
        const matrix = Array.from({length: k}, (_unused, actual) => Array.from(confusion.subarray(actual * k, actual * k + k)));
        return {total, hits, brierSum, logLossSum, errorSum, matrix, reliability: reliabilityBins(x, hit, eceBinCount, binWeights)};
    };
    // The AUC's weighted rows labelled yes, then no, per distinct P(yes).
    const yesAt = auc.subarray(0, levels.length), noAt = auc.subarray(levels.length);
    return {
        key: `question\u0000${info.name}\u0000${calibrated}`, question: info.name, kind: info.kind, calibrated, metrics,
        used,
        evaluate: (at, counts) => {
            const sums = summed(at, counts);
            const values: Partial<Record<MetricKey, number>> = sums.total === 0 ? {} : {
                accuracy: sums.hits / sums.total, macro_f1: numberOrNaN(macroF1OfConfusion(sums.matrix)), brier: sums.brierSum / sums.total,
                log_loss: sums.logLossSum / sums.total, ece: sums.reliability.ece, mae: sums.errorSum / sums.total,
                auc: levels.length === 0 ? Number.NaN : numberOrNaN(rocAuc(yesAt, noAt))
            };
            return Float64Array.from(metrics, (metric) => values[metric] ?? Number.NaN);
        },
        outcomes: new Map([["accuracy", correct]]),
        reliability: (at) => summed(at, null).reliability.reliability
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
