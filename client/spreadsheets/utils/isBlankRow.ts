import type {CellValue} from "../types.ts";

/** A row with no cell holding anything: skipped by every reader so CSV and XLSX count rows alike. */
export function isBlankRow(row: readonly CellValue[]): boolean {
    return row.every((cell) => cell === null || cell === "");
}
