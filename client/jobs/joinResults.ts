import type {RowBatch, SheetRow} from "../spreadsheets/types.ts";
import type {ResultStore, RowResult} from "./types.ts";

export type JoinedRow = {rowIndex: number, row: SheetRow, result: RowResult | undefined};

/**
 * Each table row with its stored result (undefined while it has none), in table order: what an export, a
 * results grid or an evaluation against a label column walks through. The table is read again from its
 * source and the results are read page by page, so neither is held whole.
 */
export async function* joinResults(rows: AsyncIterable<RowBatch>, store: ResultStore, jobId: string, pageSize = 1000): AsyncGenerator<JoinedRow, void, undefined> {
    let page: RowResult[] = [];
    let position = 0;
    let nextFrom = 0;
    let exhausted = false;
    const resultFor = async (rowIndex: number): Promise<RowResult | undefined> => {
        for (;;) {
            while (position < page.length && page[position].rowIndex < rowIndex) position++;
            if (position < page.length) return page[position].rowIndex === rowIndex ? page[position] : undefined;
            if (exhausted) return undefined;
            page = await store.readResults(jobId, nextFrom, pageSize);
            position = 0;
            if (page.length < pageSize) exhausted = true;
            if (page.length > 0) nextFrom = page[page.length - 1].rowIndex + 1;
        }
    };
    for await (const batch of rows)
        for (let offset = 0; offset < batch.rows.length; offset++) {
            const rowIndex = batch.start + offset;
            yield {rowIndex, row: batch.rows[offset], result: await resultFor(rowIndex)};
        }
}
