import type {SheetRow, CellValue, RowBatch, SpreadsheetSource} from "./types.ts";

/**
 * Column names from a header row: trimmed, an empty one becomes `column_<n>` (1-based position), and a repeat
 * gets `_2`, `_3`... so every name is unique and a template or a label picker can name any column.
 */
export function columnNames(header: SheetRow): string[] {
    const taken = new Set<string>();
    const names = header.map((cell, index) => {
        const text = cell === null ? "" : String(cell).trim();
        return text === "" ? `column_${index + 1}` : text;
    });
    return names.map((name) => {
        let unique = name;
        for (let suffix = 2; taken.has(unique); suffix++) unique = `${name}_${suffix}`;
        taken.add(unique);
        return unique;
    });
}

/** `column_1` ... `column_<width>` for a sheet without a header row. */
export function positionalColumnNames(width: number): string[] {
    return Array.from({length: width}, (_, index) => `column_${index + 1}`);
}

/** A row with no cell holding anything: skipped by every reader so CSV and XLSX count rows alike. */
export function isBlankRow(row: readonly CellValue[]): boolean {
    return row.every((cell) => cell === null || cell === "");
}

/** A number as people write one in a cell: `42`, `-3.5`, `1e6`, `.5`; thousands separators and units excluded. */
export function looksNumeric(text: string): boolean {
    return /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text.trim());
}

/** Text that is a number written the way JavaScript prints it: `1`, `-2`, `3.5`; not `007`, `1.50`, `1e3`, `+1`. */
function printsAsNumber(text: string): boolean {
    return text !== "" && String(Number(text)) === text;
}

/**
 * Gives a CSV's number columns their type (CSV cells are all text): a column whose every non-empty cell is a
 * number written the way it prints (see printsAsNumber; a 20-digit id does not print back the same) gets numbers,
 * and its empty cells become null. Whole-row JSON then sends `"id": 1`, an XLSX export writes number cells, and a
 * template still writes exactly the text the file had. Other columns keep their text. Rows are changed in place;
 * returns the indexes of the columns typed.
 */
export function typeNumberColumns(rows: SheetRow[], width: number): number[] {
    const typed: number[] = [];
    for (let column = 0; column < width; column++) {
        let numbers = 0;
        const fits = rows.every((row) => {
            const cell = row[column];
            if (cell === null || cell === undefined || cell === "") return true;
            if (typeof cell !== "string" || !printsAsNumber(cell)) return false;
            numbers++;
            return true;
        });
        if (!fits || numbers === 0) continue;
        typed.push(column);
        for (const row of rows) {
            const cell = row[column];
            row[column] = cell === null || cell === undefined || cell === "" ? null : Number(cell);
        }
    }
    return typed;
}

/**
 * Whether the first row of `sample` (the first rows of a sheet) names the columns. It does when every one of
 * its cells is a non-empty string that is not a number, no two are equal, and the rows below differ from it:
 * none of the names shows up again as a value in its own column. A sheet whose first row repeats below (a
 * headerless list of labels) or holds numbers, dates or blanks is read as data. The UI lets a person override it.
 */
export function detectHeader(sample: readonly SheetRow[]): boolean {
    const first = sample[0];
    if (first === undefined || first.length === 0) return false;
    const labels: string[] = [];
    for (const cell of first) {
        if (typeof cell !== "string" || cell.trim() === "" || looksNumeric(cell)) return false;
        labels.push(cell.trim());
    }
    if (new Set(labels).size !== labels.length) return false;
    for (const row of sample.slice(1))
        for (let column = 0; column < labels.length; column++) {
            const cell = row[column];
            if (typeof cell === "string" && cell.trim() === labels[column]) return false;
        }
    return true;
}

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
