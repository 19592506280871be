import type {CellValue} from "../../../../client/scoring/index.ts";

/** A grid cell's text: fractions to at most 4 decimals (the export keeps every digit), the rest as written. */
export function formatCell(cell: CellValue | undefined): string {
    if (cell === null || cell === undefined) return "";
    if (typeof cell === "number") return Number.isInteger(cell) ? String(cell) : String(Number(cell.toFixed(4)));
    return String(cell);
}
