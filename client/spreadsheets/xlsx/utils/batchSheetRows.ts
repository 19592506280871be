import type {SheetRow} from "../../types.ts";
import {isBlankRow} from "../../utils/isBlankRow.ts";
import {toSheetRow} from "../toCellValue.ts";

/**
 * exceljs rows (from a loaded worksheet or a streamed one) as batches of `chunkRows` sheet rows, blank rows
 * skipped, so the in-memory and the streaming reader number rows alike.
 */
export async function* batchSheetRows(rows: Iterable<{values: unknown}> | AsyncIterable<{values: unknown}>, chunkRows: number): AsyncGenerator<SheetRow[], void, undefined> {
    let batch: SheetRow[] = [];
    for await (const row of rows) {
        const cells = toSheetRow(row.values as Parameters<typeof toSheetRow>[0]);
        if (!isBlankRow(cells)) batch.push(cells);
        if (batch.length >= chunkRows) {
            yield batch;
            batch = [];
        }
    }
    if (batch.length > 0) yield batch;
}
