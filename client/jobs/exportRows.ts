import type {CellValue, RowBatch} from "../spreadsheets/types.ts";
import type {ResultLayout} from "./answers/flattenResult.ts";
import {joinResults} from "./joinResults.ts";
import type {ResultStore} from "./types.ts";

/**
 * The rows of an export: each source row followed by its answer cells (ResultLayout), in table order.
 * Columns: the table's columns, then `layout.columns`. Feed them to buildCsvBlob / buildXlsx (browser) or
 * node/writeCsvFile / node/writeXlsxFile.
 */
export async function* exportRows(rows: AsyncIterable<RowBatch>, store: ResultStore, jobId: string, layout: ResultLayout): AsyncGenerator<CellValue[], void, undefined> {
    for await (const {row, result} of joinResults(rows, store, jobId)) yield [...row, ...layout.cells(result)];
}
