import {detectHeader} from "./detectHeader.ts";
import type {RowBatch, SheetRow, SpreadsheetSource} from "./types.ts";
import {columnNames, positionalColumnNames} from "./utils/columnNames.ts";

export type TableOptions = {
    /** XLSX: which sheet (see `source.sheetNames()`); default the first. Ignored for CSV. */
    sheet?: string,
    /** `auto` (default) runs detectHeader on the first rows; true / false force it. */
    header?: "auto" | boolean,
    /** Data rows kept in `preview`; default 20. */
    previewRows?: number,
    /** Rows per batch of `batches()`; default 1000. */
    batchRows?: number
};

/** A sheet read as a table: named columns and data rows, every row exactly as wide as `columns`. */
export type Table = {
    sheet: string | null,
    columns: string[],
    hasHeader: boolean,
    /** What detectHeader said about the first row (whatever `header` forced). */
    headerDetected: boolean,
    /** The first data rows, for a preview grid and for checking a template before a run. */
    preview: SheetRow[],
    /**
     * All data rows in batches, reading the source again from the start on every call (rows are not kept in
     * memory). Each batch is followed by a macrotask break, so a UI thread stays responsive over big files.
     */
    batches(): AsyncGenerator<RowBatch, void, undefined>,
    /** Data rows in the sheet: one full pass over the source. */
    countRows(): Promise<number>
};

const sampleRows = 50;

/**
 * Opens a sheet of a CSV or XLSX source as a table. Column count: the header's width, or (no header) the widest
 * of the first rows; shorter rows are padded with null and cells beyond the last column are dropped.
 */
export async function openTable(source: SpreadsheetSource, options: TableOptions = {}): Promise<Table> {
    const sheet = source.format === "csv" ? null : options.sheet ?? (await source.sheetNames())[0] ?? null;
    if (sheet !== null && !(await source.sheetNames()).includes(sheet))
        throw new RangeError(`no sheet named ${JSON.stringify(sheet)}; the workbook has ${(await source.sheetNames()).map((name) => JSON.stringify(name)).join(", ")}`);
    const previewRows = options.previewRows ?? 20;
    const batchRows = options.batchRows ?? 1000;
    const readSheet = () => source.readRows(sheet ?? undefined, batchRows);

    const sample = await firstRows(readSheet(), Math.max(sampleRows, previewRows + 1));
    const headerDetected = detectHeader(sample);
    const hasHeader = options.header === undefined || options.header === "auto" ? headerDetected : options.header;
    const width = hasHeader ? sample[0].length : Math.max(0, ...sample.map((row) => row.length));
    const columns = hasHeader ? columnNames(sample[0]) : positionalColumnNames(width);
    const fit = (row: SheetRow): SheetRow => row.length === width ? row : Array.from({length: width}, (_, index) => row[index] ?? null);

    async function* batches(): AsyncGenerator<RowBatch, void, undefined> {
        let skipHeader = hasHeader;
        let start = 0;
        for await (const chunk of readSheet()) {
            const rows = (skipHeader ? chunk.slice(1) : chunk).map(fit);
            skipHeader = false;
            if (rows.length === 0) continue;
            yield {start, rows};
            start += rows.length;
            await macrotask();
        }
    }

    return {
        sheet,
        columns,
        hasHeader,
        headerDetected,
        preview: sample.slice(hasHeader ? 1 : 0, (hasHeader ? 1 : 0) + previewRows).map(fit),
        batches,
        async countRows() {
            let count = 0;
            for await (const chunk of readSheet()) count += chunk.length;
            return Math.max(0, count - (hasHeader ? 1 : 0));
        }
    };
}

async function firstRows(chunks: AsyncIterable<SheetRow[]>, count: number): Promise<SheetRow[]> {
    const rows: SheetRow[] = [];
    // Leaving the loop early returns the generator, which closes the file or stream under it.
    for await (const chunk of chunks) {
        rows.push(...chunk);
        if (rows.length >= count) break;
    }
    return rows.slice(0, count);
}

/** Lets timers, input and paint run between batches; setTimeout exists in browsers, workers and Node alike. */
function macrotask(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, 0));
}
