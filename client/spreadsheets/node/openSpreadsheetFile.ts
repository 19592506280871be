import {createReadStream} from "node:fs";
import path from "node:path";
import {CsvSpreadsheet, type CsvSpreadsheetOptions} from "../CsvSpreadsheet.ts";
import type {SpreadsheetSource} from "../types.ts";
import {XlsxFileSpreadsheet} from "./XlsxFileSpreadsheet.ts";

/** A CSV (`.csv`, `.tsv`, `.txt`) or XLSX file on disk, chosen by its extension, read as a stream. */
export function openSpreadsheetFile(filePath: string, options: CsvSpreadsheetOptions = {}): SpreadsheetSource {
    const extension = path.extname(filePath).toLowerCase();
    if (extension === ".xlsx") return new XlsxFileSpreadsheet(filePath);
    if (extension === ".csv" || extension === ".txt") return new CsvSpreadsheet(() => createReadStream(filePath), options);
    if (extension === ".tsv") return new CsvSpreadsheet(() => createReadStream(filePath), {delimiter: "\t", ...options});
    throw new RangeError(`${filePath}: unsupported file type ${JSON.stringify(extension)}; use .csv, .tsv or .xlsx`);
}
