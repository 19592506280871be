// Scoring results as the screens use them: export, histogram bins, sorting and filtering rows, cached per-row answers.
import {type RowBatch, type SheetRow, type ResultLayout, exportRows, type ResultStore, type CellValue, formatCsv, buildXlsx, type NormalizedAnswer, type QuestionInfo, readAnswers, type RowResult, readScore} from "../../../../client/scoring/index.ts";
import type {ScoringJob} from "./scoringStore.ts";

/**
 * Rows held in memory as the batches a JobRunner or an export reads, with a macrotask break between batches so
 * a page stays responsive while 100,000 rows go by.
 */
export async function* memoryBatches(rows: readonly SheetRow[], batchRows = 1000): AsyncGenerator<RowBatch, void, undefined> {
    for (let start = 0; start < rows.length; start += batchRows) {
        yield {start, rows: rows.slice(start, start + batchRows)};
        await new Promise((resolve) => setTimeout(resolve, 0));
    }
}

export type ExportSource = {columns: readonly string[], rows: readonly SheetRow[], store: ResultStore, jobId: string, layout: ResultLayout};

/** Every row with its answer columns (client/jobs resultLayout), as CSV with a byte order mark for Excel. */
export async function exportCsv(source: ExportSource): Promise<string> {
    const lines: CellValue[][] = [[...source.columns, ...source.layout.columns]];
    for await (const row of exportRows(memoryBatches(source.rows), source.store, source.jobId, source.layout)) lines.push(row);
    return formatCsv(lines, {bom: true});
}

/** Builds the workbook from a header and rows: client's buildXlsx, or the page's Web Worker running it. */
export type XlsxBuilder = (columns: readonly string[], rows: AsyncIterable<CellValue[]>) => Promise<Uint8Array>;

/** The same rows as an XLSX workbook (one sheet, bold header). */
export async function exportXlsx(source: ExportSource, build: XlsxBuilder = buildXlsx): Promise<Uint8Array> {
    return build([...source.columns, ...source.layout.columns], exportRows(memoryBatches(source.rows), source.store, source.jobId, source.layout));
}

/**
 * The column most likely to hold the text to evaluate: the one with the longest cells on average over the
 * first rows (ids, labels and numbers are short); the first column when there are no rows.
 */
export function textColumn(columns: readonly string[], rows: readonly SheetRow[], sample = 50): string | null {
    if (columns.length === 0) return null;
    const head = rows.slice(0, sample);
    let best = 0, bestLength = -1;
    columns.forEach((_, index) => {
        const length = head.reduce((sum, row) => sum + (typeof row[index] === "string" ? (row[index] as string).length : 0), 0);
        if (length > bestLength) {
            best = index;
            bestLength = length;
        }
    });
    return columns[best];
}

export type HistogramBin = {label: string, count: number};

/**
 * What one question's answers look like over all rows: yes/no, P(true) in ten bins of 0.1 (the last one
 * closed, so 1.00 counts); choice, how often each value was picked; score, how often each level was the most
 * likely one (the predicted level, client/scoring/scoreLevels.ts).
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
            : readScore(answer).mostLikely;
        if (index >= 0) bins[index].count++;
    }
    return bins;
}

/** The mean expected score of a score question's answers (null when none): what the histogram of levels sits beside. */
export function meanExpectedScore(answers: Iterable<NormalizedAnswer | null>): number | null {
    let sum = 0, count = 0;
    for (const answer of answers) {
        if (answer === null) continue;
        sum += readScore(answer).expected;
        count++;
    }
    return count === 0 ? null : sum / count;
}

export type SortDirection = "asc" | "desc";

/**
 * Row indexes ordered by one column: numbers (and numeric text) by value, other text in natural locale order,
 * booleans as false < true; empty cells always last. Stable: equal cells keep their row order.
 */
export function sortRowOrder(order: readonly number[], cellOf: (rowIndex: number) => CellValue | undefined, direction: SortDirection): number[] {
    const sign = direction === "asc" ? 1 : -1;
    const keyed = order.map((rowIndex, position) => ({rowIndex, position, key: sortKey(cellOf(rowIndex))}));
    const collator = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});
    keyed.sort((a, b) => {
        if (a.key === null || b.key === null) return a.key === b.key ? a.position - b.position : a.key === null ? 1 : -1;
        let compared: number;
        if (typeof a.key === "number" && typeof b.key === "number") compared = a.key - b.key;
        else if (typeof a.key === "number") compared = -1;
        else if (typeof b.key === "number") compared = 1;
        else compared = collator.compare(a.key, b.key);
        return compared === 0 ? a.position - b.position : compared * sign;
    });
    return keyed.map((entry) => entry.rowIndex);
}

function sortKey(cell: CellValue | undefined): number | string | null {
    if (cell === null || cell === undefined || cell === "") return null;
    if (typeof cell === "number") return cell;
    if (typeof cell === "boolean") return cell ? 1 : 0;
    const trimmed = cell.trim();
    const number = Number(trimmed);
    return trimmed !== "" && Number.isFinite(number) ? number : cell;
}

export type RowFilter = {
    /** Case-insensitive text every kept row holds in `column` (or in any column when null); "" keeps all. */
    text: string,
    column: number | null,
    /** Keep only rows whose request failed. */
    errorsOnly: boolean
};

/** The rows of `order` that pass the filter, in the same order. */
export function filterRowOrder(order: readonly number[], cellsOf: (rowIndex: number) => readonly (CellValue | undefined)[], isError: (rowIndex: number) => boolean, filter: RowFilter): number[] {
    const needle = filter.text.trim().toLocaleLowerCase();
    if (needle === "" && !filter.errorsOnly) return [...order];
    return order.filter((rowIndex) => {
        if (filter.errorsOnly && !isError(rowIndex)) return false;
        if (needle === "") return true;
        const cells = cellsOf(rowIndex);
        const holds = (cell: CellValue | undefined) => cell !== null && cell !== undefined && String(cell).toLocaleLowerCase().includes(needle);
        return filter.column === null ? cells.some(holds) : holds(cells[filter.column]);
    });
}

/** A grid cell's text: fractions to at most 4 decimals (the export keeps every digit), the rest as written. */
export function formatCell(cell: CellValue | undefined): string {
    if (cell === null || cell === undefined) return "";
    if (typeof cell === "number") return Number.isInteger(cell) ? String(cell) : String(Number(cell.toFixed(4)));
    return String(cell);
}

// Per-row values derived from a job's results, computed once per result: the grid, its sorting, the histograms
// and the evaluation ask for them again every time results arrive, over up to 100,000+ rows.

type Entry<T> = {result: RowResult | undefined, value: T};
type Caches = {cells: Array<Entry<CellValue[]>>, answers: Array<Entry<NormalizedAnswer[] | null>>, raw: Array<Entry<NormalizedAnswer[] | null>>};

const caches = new WeakMap<ScoringJob, Caches>();

function cached<T>(job: ScoringJob, kind: keyof Caches, rowIndex: number, compute: (result: RowResult | undefined) => T): T {
    let all = caches.get(job);
    if (all === undefined) caches.set(job, all = {cells: [], answers: [], raw: []});
    const list = all[kind] as Array<Entry<T>>;
    const result = job.results[rowIndex];
    const entry = list[rowIndex];
    if (entry !== undefined && entry.result === result) return entry.value;
    const value = compute(result);
    list[rowIndex] = {result, value};
    return value;
}

/** The row's answer cells (job.layout.columns); all empty until it has a result. */
export function resultCellsOf(job: ScoringJob, rowIndex: number): CellValue[] {
    return cached(job, "cells", rowIndex, (result) => job.layout.cells(result));
}

/** The row's answers as the results show them (calibrated where the job's set carried a calibration). */
export function answersOf(job: ScoringJob, rowIndex: number): NormalizedAnswer[] | null {
    return cached(job, "answers", rowIndex, (result) => job.layout.answers(result));
}

/** The row's answers exactly as the server sent them (for fitting a calibration). */
export function rawAnswersOf(job: ScoringJob, rowIndex: number): NormalizedAnswer[] | null {
    return cached(job, "raw", rowIndex, (result) => result?.ok && result.response ? readAnswers(job.spec.questionSet.format, job.infos, result.response) : null);
}
