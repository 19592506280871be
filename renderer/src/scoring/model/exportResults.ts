import {type ResultLayout, exportRows, type ResultStore, type CellValue, type SheetRow, formatCsv, buildXlsx} from "../../../../client/scoring/index.ts";
import {memoryBatches} from "./memoryBatches.ts";

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
