import ExcelJS from "exceljs";
import type {SheetRow, SpreadsheetSource} from "../types.ts";
import {batchSheetRows} from "./utils/batchSheetRows.ts";

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
