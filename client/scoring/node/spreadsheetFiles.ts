import {createReadStream, type ReadStream, createWriteStream} from "node:fs";
import ExcelJS from "exceljs";
import type {SheetRow, SpreadsheetSource, CellValue} from "../types.ts";
import {batchSheetRows} from "../xlsx.ts";
import path from "node:path";
import {CsvSpreadsheet, type CsvSpreadsheetOptions, csvLine} from "../csv.ts";
import {rename, rm} from "node:fs/promises";
import {once} from "node:events";

type StreamedSheet = AsyncIterable<{values: unknown}> & {name: string};

/** exceljs internals this file adjusts; checked at run time, so a changed exceljs degrades to its own behaviour. */
type ReaderInternals = {
    model?: {sheets?: Array<{name: string, rId: string}>},
    workbookRels?: Array<{Id: string, Target: string}>,
    parse(): AsyncIterable<unknown>,
    _parseWorkbook?: (entry: unknown) => Promise<void>,
    _parseWorksheet?: (iterator: AsyncIterable<unknown>, sheetNo: string) => Iterable<unknown>,
    _parseSharedStrings?: (entry: {setEncoding(encoding: string): unknown}) => AsyncIterable<unknown>
};

/** Thrown inside the reader to stop it once the workbook's sheet list is known. */
const sheetListRead = Symbol("sheet list read");

/**
 * An XLSX file read with exceljs's streaming reader (Node only): rows are parsed as the zip is read, so memory
 * stays flat whatever the sheet's size. Sheets other than the one asked for are skipped unparsed, and listing
 * the sheets stops reading at the workbook part.
 */
export class XlsxFileSpreadsheet implements SpreadsheetSource {
    public readonly format = "xlsx" as const;
    private readonly filePath: string;
    private names: Promise<string[]> | undefined;

    public constructor(filePath: string) {
        this.filePath = filePath;
    }

    public sheetNames(): Promise<string[]> {
        this.names ??= this.listSheets();
        return this.names;
    }

    public async *readRows(sheet?: string, chunkRows = 1000): AsyncGenerator<SheetRow[], void, undefined> {
        const wanted = sheet ?? (await this.sheetNames())[0];
        const {reader, stream} = this.open(wanted);
        try {
            for await (const worksheet of reader as unknown as AsyncIterable<StreamedSheet>) {
                if (worksheet.name !== wanted) continue;
                yield* batchSheetRows(worksheet, chunkRows);
                return;
            }
            throw new RangeError(`no sheet named ${JSON.stringify(wanted)} in ${this.filePath}`);
        } finally {
            stream.destroy();
        }
    }

    private async listSheets(): Promise<string[]> {
        const {reader, stream} = this.open(null);
        const internals = reader as unknown as ReaderInternals;
        const parseWorkbook = internals._parseWorkbook?.bind(reader);
        if (parseWorkbook !== undefined)
            internals._parseWorkbook = async (entry) => {
                await parseWorkbook(entry);
                throw sheetListRead;
            };
        try {
            for await (const _event of internals.parse()) {
                // Nothing to do per event: the list comes from the workbook part.
            }
        } catch (error) {
            if (error !== sheetListRead) throw error;
        } finally {
            stream.destroy();
        }
        return (internals.model?.sheets ?? []).map((entry) => entry.name);
    }

    /** A reader that only parses `wanted` (null: no sheet at all), with whole UTF-8 characters. */
    private open(wanted: string | null): {reader: ExcelJS.stream.xlsx.WorkbookReader, stream: ReadStream} {
        const stream = createReadStream(this.filePath);
        // Styles are read so that date cells come back as dates rather than serial numbers.
        const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, {worksheets: "emit", sharedStrings: "cache", styles: "cache", hyperlinks: "ignore", entries: "ignore"});
        const internals = reader as unknown as ReaderInternals;
        const parseWorksheet = internals._parseWorksheet?.bind(reader);
        const parseSharedStrings = internals._parseSharedStrings?.bind(reader);
        if (parseWorksheet === undefined || parseSharedStrings === undefined) return {reader, stream};
        internals._parseWorksheet = (iterator, sheetNo) => {
            if (sheetName(internals, sheetNo) !== wanted) return skip(iterator);
            return parseWorksheet(utf8Text(iterator), sheetNo);
        };
        // exceljs 4.4 decodes each inflated chunk to text on its own, so a multi-byte character split between
        // two chunks becomes U+FFFD (exceljs issue #2084, unfixed upstream): about one CJK or emoji cell in a
        // few thousand. Both XML inputs get whole characters: shared strings through the stream's UTF-8
        // decoder, worksheets through a streaming TextDecoder.
        internals._parseSharedStrings = (entry) => {
            entry.setEncoding("utf8");
            return parseSharedStrings(entry);
        };
        return {reader, stream};
    }
}

/** The name exceljs gives sheet file `sheet<N>.xml`: through the workbook relationships, as it does itself. */
function sheetName(internals: ReaderInternals, sheetNo: string): string | undefined {
    const relation = internals.workbookRels?.find((entry) => entry.Target === `worksheets/sheet${sheetNo}.xml`);
    return internals.model?.sheets?.find((entry) => entry.rId === relation?.Id)?.name;
}

/**
 * Leaves a sheet unparsed. A sheet parked in a temporary file (its shared strings came later in the zip)
 * arrives as a file stream that exceljs deletes right after: it is closed first, with its error silenced, so
 * the deletion cannot surface as an uncaught ENOENT. A sheet read straight from the zip is drained by exceljs.
 */
function skip(iterator: AsyncIterable<unknown>): Iterable<unknown> {
    const stream = iterator as Partial<ReadStream>;
    if (typeof stream.destroy === "function" && typeof stream.on === "function") {
        stream.on("error", () => undefined);
        stream.destroy();
    }
    return [];
}

async function* utf8Text(chunks: AsyncIterable<unknown>): AsyncGenerator<string, void, undefined> {
    const decoder = new TextDecoder("utf-8");
    for await (const chunk of chunks) {
        const text = typeof chunk === "string" ? chunk : decoder.decode(chunk as Uint8Array, {stream: true});
        if (text !== "") yield text;
    }
    const tail = decoder.decode();
    if (tail !== "") yield tail;
}

/** A CSV (`.csv`, `.tsv`, `.txt`) or XLSX file on disk, chosen by its extension, read as a stream. */
export function openSpreadsheetFile(filePath: string, options: CsvSpreadsheetOptions = {}): SpreadsheetSource {
    const extension = path.extname(filePath).toLowerCase();
    if (extension === ".xlsx") return new XlsxFileSpreadsheet(filePath);
    if (extension === ".csv" || extension === ".txt") return new CsvSpreadsheet(() => createReadStream(filePath), options);
    if (extension === ".tsv") return new CsvSpreadsheet(() => createReadStream(filePath), {delimiter: "\t", ...options});
    throw new RangeError(`${filePath}: unsupported file type ${JSON.stringify(extension)}; use .csv, .tsv or .xlsx`);
}

/**
 * Streams a CSV to `filePath` (UTF-8, CRLF, a BOM by default so Excel reads it as UTF-8). It is written next
 * to the target and renamed at the end, so a reader never sees a half-written file.
 */
export async function writeCsvFile(filePath: string, columns: readonly string[], rows: AsyncIterable<CellValue[]> | Iterable<CellValue[]>, options: {bom?: boolean} = {}): Promise<void> {
    const temporary = `${filePath}.${process.pid}.tmp`;
    const stream = createWriteStream(temporary, {encoding: "utf8"});
    const write = async (text: string) => {
        if (!stream.write(text)) await once(stream, "drain");
    };
    try {
        if (options.bom ?? true) await write("\ufeff");
        await write(csvLine(columns));
        for await (const row of rows) await write(csvLine(row));
        stream.end();
        await once(stream, "finish");
        await rename(temporary, filePath);
    } catch (error) {
        stream.destroy();
        await rm(temporary, {force: true});
        throw error;
    }
}

/**
 * Streams an XLSX (one sheet, bold header row) to `filePath` with exceljs's streaming writer: each row is
 * committed as it comes, so 100,000 rows do not sit in memory. Written next to the target, then renamed.
 */
export async function writeXlsxFile(filePath: string, columns: readonly string[], rows: AsyncIterable<CellValue[]> | Iterable<CellValue[]>, sheetName = "Results"): Promise<void> {
    const temporary = `${filePath}.${process.pid}.tmp`;
    try {
        const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({filename: temporary, useSharedStrings: true, useStyles: true});
        const worksheet = workbook.addWorksheet(sheetName);
        const header = worksheet.addRow([...columns]);
        header.font = {bold: true};
        header.commit();
        for await (const row of rows) worksheet.addRow(row).commit();
        worksheet.commit();
        await workbook.commit();
        await rename(temporary, filePath);
    } catch (error) {
        await rm(temporary, {force: true});
        throw error;
    }
}
