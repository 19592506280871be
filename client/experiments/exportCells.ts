import {repeatsOf} from "./repeats.ts";
import type {CellResult, ExperimentSpec, Variant} from "./types.ts";
import type {CellValue, RowResult, SheetRow} from "../scoring/types.ts";
import {parseQuestionSet, questionInfos, type StoredResponse} from "../scoring/questions.ts";
import {resultLayout} from "../scoring/results.ts";
import {predictedIndex, readLabel} from "../scoring/evaluation.ts";
import {formatCsv} from "../scoring/csv.ts";
import {labelColumnOf, type DecisionDataset} from "./decisionTables.ts";
import {checkNames} from "./chatTables.ts";

// The per-row results of an experiment as one table for CSV / XLSX: the row's own cells, then per variant its
// answers (decision: the scoring export's columns, the same names and numbers, plus whether each is right) or its
// reply and checks (chat), then tokens and latency. Text that a spreadsheet would run as a formula is defused.

export type ExportTable = {columns: string[], rows: CellValue[][]};

/**
 * A cell safe to open in a spreadsheet: text starting with =, +, -, @, a tab or a carriage return gets a leading
 * apostrophe, so Excel, LibreOffice and Sheets show it as text instead of evaluating it (CSV injection).
 * Numbers and booleans are kept as they are.
 */
export function defuseCell(value: CellValue): CellValue {
    return typeof value === "string" && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

type VariantColumns = {columns: string[], cells: (cell: CellResult | undefined, row: SheetRow) => CellValue[]};

const usageColumns = ["prompt_tokens", "completion_tokens", "latency_ms"];

function usageCells(cell: CellResult | undefined): CellValue[] {
    return cell === undefined ? [null, null, null] : [cell.usage?.promptTokens ?? null, cell.usage?.completionTokens ?? null, Math.round(cell.latencyMs * 10) / 10];
}

function toRowResult(cell: CellResult): RowResult {
    return {rowIndex: cell.rowIndex, ok: cell.ok, ...(cell.response === undefined ? {} : {response: cell.response as StoredResponse}),
        ...(cell.error === undefined ? {} : {error: cell.error}), attempts: cell.attempts, durationMs: cell.latencyMs, completedAt: cell.completedAt};
}

function decisionColumns(variant: Variant, dataset: DecisionDataset): VariantColumns {
    const prompt = variant.version.prompt;
    if (prompt.kind !== "decision") throw new TypeError("not a decision variant");
    const infos = questionInfos(parseQuestionSet(prompt.questionSet).normalized);
    const layout = resultLayout(prompt.questionSet, infos, dataset.columns);
    const labelColumns = infos.map((info) => labelColumnOf(info.name, dataset));
    const correctColumns = infos.flatMap((info, index) => labelColumns[index] < 0 ? [] : [`${info.name}.correct`]);
    return {
        columns: [...layout.columns, ...correctColumns, ...usageColumns],
        cells: (cell, row) => {
            const result = cell === undefined ? undefined : toRowResult(cell);
            let answers = null;
            try {
                answers = layout.answers(result);
            } catch {
                // An answer that does not fit the question set: its cells stay empty, as in the summary.
            }
            const values = answers === null && result?.ok ? new Array<CellValue>(layout.columns.length).fill(null) : layout.cells(result);
            const correct = infos.flatMap((info, index): CellValue[] => {
                if (labelColumns[index] < 0) return [];
                const label = readLabel(info, row[labelColumns[index]] ?? null);
                return [answers === null || typeof label !== "number" ? null : predictedIndex(info, answers[index]) === label];
            });
            return [...values, ...correct, ...usageCells(cell)];
        }
    };
}

function chatColumns(names: readonly string[]): VariantColumns {
    return {
        columns: ["reply", "pass", ...names.map((name) => `check.${name}`), "error", ...usageColumns],
        cells: (cell) => {
            if (cell === undefined) return new Array<CellValue>(3 + names.length + usageColumns.length).fill(null);
            const checks = cell.checks ?? [];
            const scores = names.map((name) => checks.find((check) => check.name === name)?.score ?? null);
            const error = cell.error === undefined ? null : `${cell.error.status ?? "-"} ${cell.error.code}: ${cell.error.message}`;
            return [cell.reply ?? null, cell.ok && checks.length > 0 ? checks.every((check) => check.pass) : null, ...scores, error, ...usageCells(cell)];
        }
    };
}

/**
 * The export table: `row` (1-based, as the screens number rows), with repeats `repeat` (a line per answer), the
 * dataset's columns, then per variant its
 * columns prefixed `<variant>.`. `rowIndexes` are the sample's rows (default every row); every cell is defused.
 */
export function experimentExportTable(spec: ExperimentSpec, dataset: DecisionDataset, cells: readonly CellResult[], rowIndexes?: readonly number[]): ExportTable {
    const names = checkNames(cells);
    const perVariant = spec.variants.map((variant): VariantColumns => {
        if (variant.version.prompt.kind !== "decision") return chatColumns(names);
        try {
            return decisionColumns(variant, dataset);
        } catch {
            return chatColumns([]);
        }
    });
    // With repeats, a line per row and repeat, numbered in a `repeat` column (1-based) after `row`.
    const repeats = repeatsOf(spec);
    const cellAt = spec.variants.map(() => new Map<number, CellResult>());
    for (const cell of cells) cellAt[cell.variant]?.set(cell.rowIndex * repeats + (cell.repeat ?? 0), cell);
    const columns = ["row", ...(repeats > 1 ? ["repeat"] : []), ...dataset.columns, ...perVariant.flatMap((entry, variant) => entry.columns.map((column) => `${spec.variants[variant].name}.${column}`))];
    const rows = (rowIndexes ?? dataset.rows.map((_row, index) => index)).flatMap((rowIndex) => Array.from({length: repeats}, (_unused, repeat) => {
        const row = dataset.rows[rowIndex] ?? [];
        const values: CellValue[] = [rowIndex + 1, ...(repeats > 1 ? [repeat + 1] : []), ...dataset.columns.map((_column, index) => row[index] ?? null)];
        perVariant.forEach((entry, variant) => values.push(...entry.cells(cellAt[variant].get(rowIndex * repeats + repeat), row)));
        return values.map(defuseCell);
    }));
    return {columns: columns.map((column) => defuseCell(column) as string), rows};
}

/** The table as CSV text through client/scoring's writer (RFC 4180, UTF-8 with a byte-order mark for Excel). */
export function exportTableCsv(table: ExportTable): string {
    return formatCsv([table.columns, ...table.rows], {bom: true});
}
