import {CsvParser, type CsvParserOptions, csvLine, type CellValue} from "../../client/scoring/index.ts";

/** Parses a whole CSV text (RFC 4180, see CsvParser) into rows of strings; a blank line is a row of one "". */
export function parseCsv(text: string, options: CsvParserOptions = {}): string[][] {
    const parser = new CsvParser(options);
    const rows = parser.push(text);
    for (const row of parser.end()) rows.push(row);
    return rows;
}

/**
 * A CSV file as a Blob, for a browser download: UTF-8, CRLF, a BOM by default (so Excel reads UTF-8), built
 * from rows as they come; node/writeCsvFile is the Node counterpart.
 */
export async function buildCsvBlob(columns: readonly string[], rows: AsyncIterable<CellValue[]> | Iterable<CellValue[]>, options: {bom?: boolean} = {}): Promise<Blob> {
    const parts: string[] = [(options.bom ?? true) ? "\ufeff" : "", csvLine(columns)];
    for await (const row of rows) parts.push(csvLine(row));
    return new Blob(parts, {type: "text/csv;charset=utf-8"});
}
