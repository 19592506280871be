import type {CellValue, SheetRow, SpreadsheetSource} from "./types.ts";
import {isBlankRow} from "./table.ts";
import ExcelJS from "exceljs";

/**
 * An exceljs cell value as a plain cell: rich text joined, hyperlinks as their text, formulas as their cached
 * result, errors as their code (`#DIV/0!`), dates as ISO 8601 (a date alone when there is no time of day).
 */
export function toCellValue(value: unknown): CellValue {
    if (value === null || value === undefined) return null;
    if (typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number") return Number.isFinite(value) ? value : null;
    if (value instanceof Date) return formatDate(value);
    if (typeof value === "object") {
        const object = value as Record<string, unknown>;
        if (Array.isArray(object.richText)) return object.richText.map((run: {text?: unknown}) => String(run.text ?? "")).join("");
        if ("error" in object) return String(object.error);
        if ("formula" in object || "sharedFormula" in object) return toCellValue(object.result);
        if ("hyperlink" in object) return toCellValue(object.text ?? object.hyperlink);
        if ("text" in object) return toCellValue(object.text);
    }
    return String(value);
}

function formatDate(date: Date): string {
    if (Number.isNaN(date.getTime())) return "";
    const iso = date.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

/** exceljs row values are 1-based and sparse (`[, a, , c]`): a dense 0-based row. */
export function toSheetRow(values: unknown): CellValue[] {
    if (!Array.isArray(values)) return [];
    const row: CellValue[] = [];
    for (let index = 1; index < values.length; index++) row.push(toCellValue(values[index]));
    return row;
}

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

/**
 * An XLSX workbook held in memory (browser and Node): exceljs parses the whole file once, then rows come out
 * in batches. Parsing 100,000 rows takes seconds and a few hundred MB, so a UI should do it in a Worker; the
 * CLI uses the streaming node/XlsxFileSpreadsheet instead.
 */
export class XlsxSpreadsheet implements SpreadsheetSource {
    public readonly format = "xlsx" as const;
    private readonly workbook: Promise<ExcelJS.Workbook>;

    public constructor(bytes: Uint8Array | ArrayBuffer | Promise<ArrayBuffer>) {
        this.workbook = Promise.resolve(bytes).then(load);
        // Callers see a bad file when they ask for sheets or rows; until then it is no unhandled rejection.
        this.workbook.catch(() => undefined);
    }

    /** A browser `File` from an input or a drop. */
    public static fromBlob(blob: Blob): XlsxSpreadsheet {
        return new XlsxSpreadsheet(blob.arrayBuffer());
    }

    public async sheetNames(): Promise<string[]> {
        return (await this.workbook).worksheets.map((sheet) => sheet.name);
    }

    public async *readRows(sheet?: string, chunkRows = 1000): AsyncGenerator<SheetRow[], void, undefined> {
        const workbook = await this.workbook;
        const worksheet = sheet === undefined ? workbook.worksheets[0] : workbook.getWorksheet(sheet);
        if (worksheet === undefined) throw new RangeError(`no sheet named ${JSON.stringify(sheet)}`);
        const rows = function* () {
            for (let number = 1; number <= worksheet.rowCount; number++) {
                const row = worksheet.findRow(number);
                if (row !== undefined) yield row;
            }
        };
        yield* batchSheetRows(rows(), chunkRows);
    }
}

async function load(bytes: Uint8Array | ArrayBuffer): Promise<ExcelJS.Workbook> {
    const workbook = new ExcelJS.Workbook();
    // exceljs takes an ArrayBuffer in browsers and a Buffer or ArrayBuffer in Node.
    const buffer = bytes instanceof Uint8Array ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) : bytes;
    await workbook.xlsx.load(buffer as ArrayBuffer);
    return workbook;
}

/**
 * An XLSX file (one sheet, a bold header row) in memory, for a browser download; Node writes large files with
 * node/writeXlsxFile instead. Strings stay text even when they start with `=`: a cell is never a formula.
 */
export async function buildXlsx(columns: readonly string[], rows: AsyncIterable<CellValue[]> | Iterable<CellValue[]>, sheetName = "Results"): Promise<Uint8Array> {
    const workbook = new ExcelJS.Workbook();
    const worksheet = workbook.addWorksheet(sheetName);
    worksheet.addRow([...columns]).font = {bold: true};
    for await (const row of rows) worksheet.addRow(row);
    const buffer = await workbook.xlsx.writeBuffer();
    return new Uint8Array(buffer as ArrayBuffer);
}
