import {openTable, type SheetRow, type SpreadsheetSource} from "../../../../client/scoring/index.ts";
import type {LoadedTable} from "../state/useScoringStore.ts";

/**
 * Reads a sheet whole into memory, batch by batch: openTable yields to the event loop between batches (and an
 * XLSX source parses in its worker), so the page keeps painting the row count while 100,000 rows come in.
 */
export async function loadTable(source: SpreadsheetSource, fileName: string, options: {sheet?: string | null, header: "auto" | boolean}, onRows: (count: number) => void): Promise<LoadedTable> {
    const sheets = await source.sheetNames();
    const table = await openTable(source, {sheet: options.sheet ?? undefined, header: options.header, batchRows: 2000});
    const rows: SheetRow[] = [];
    for await (const batch of table.batches()) {
        for (const row of batch.rows) rows.push(row);
        onRows(rows.length);
    }
    return {fileName, format: source.format, sheets, sheet: table.sheet, header: options.header, headerDetected: table.headerDetected, hasHeader: table.hasHeader, columns: table.columns, rows};
}
