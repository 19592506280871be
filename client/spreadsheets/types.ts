// Shapes shared by the CSV and XLSX readers and writers, so the job runner and the UI never care which it was.

/** One cell as read: CSV cells are always strings; XLSX keeps numbers and booleans, dates become ISO strings. */
export type CellValue = string | number | boolean | null;

export type SheetRow = CellValue[];

/** Consecutive data rows; `start` is the 0-based index of the first one among the sheet's data rows. */
export type RowBatch = {start: number, rows: SheetRow[]};

/**
 * A file to read rows from. `readRows` can be called again and again: each call reads the sheet from its first
 * row (the header included), so a job can re-read its source on resume without keeping it in memory.
 * Rows whose cells are all empty are skipped by every reader, so row indexes agree across CSV and XLSX.
 */
export interface SpreadsheetSource {
    readonly format: "csv" | "xlsx";
    /** Sheet names in workbook order; empty for CSV, which has none (a UI hides its sheet picker). */
    sheetNames(): Promise<string[]>;
    /** Every non-blank row of `sheet` (default: the first sheet) in chunks of about `chunkRows` rows. */
    readRows(sheet?: string, chunkRows?: number): AsyncIterable<SheetRow[]>;
}

/** Bytes or text in pieces: `Blob.stream()`, a Node file stream, or a whole string / Uint8Array as one piece. */
export type TextChunks = AsyncIterable<Uint8Array | string>;
