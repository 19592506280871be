import {CsvParser, type CsvParserOptions} from "./CsvParser.ts";

/** Parses a whole CSV text (RFC 4180, see CsvParser) into rows of strings; a blank line is a row of one "". */
export function parseCsv(text: string, options: CsvParserOptions = {}): string[][] {
    const parser = new CsvParser(options);
    const rows = parser.push(text);
    for (const row of parser.end()) rows.push(row);
    return rows;
}
