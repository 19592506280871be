import type {RowBatch, SheetRow} from "../../../../client/scoring/index.ts";

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
