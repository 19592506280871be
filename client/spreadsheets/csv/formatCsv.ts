import type {CellValue} from "../types.ts";

// RFC 4180 output: CRLF line breaks; a field is quoted when it holds the delimiter, a quote, CR or LF, or
// starts or ends with a space (which some readers would trim), and quotes inside are doubled.

export type CsvFormatOptions = {delimiter?: string};

export function csvField(value: CellValue | undefined, delimiter = ","): string {
    if (value === null || value === undefined) return "";
    const text = typeof value === "string" ? value : String(value);
    if (text === "") return "";
    const needsQuotes = text.includes(delimiter) || /["\r\n]/.test(text) || text.startsWith(" ") || text.endsWith(" ");
    return needsQuotes ? `"${text.replace(/"/g, "\"\"")}"` : text;
}

/** One record with its CRLF. */
export function csvLine(values: readonly (CellValue | undefined)[], options: CsvFormatOptions = {}): string {
    const delimiter = options.delimiter ?? ",";
    return values.map((value) => csvField(value, delimiter)).join(delimiter) + "\r\n";
}

/** Whole CSV text; `bom` prepends U+FEFF so Excel reads the file as UTF-8 rather than the system code page. */
export function formatCsv(rows: Iterable<readonly (CellValue | undefined)[]>, options: CsvFormatOptions & {bom?: boolean} = {}): string {
    const parts: string[] = options.bom ? ["\ufeff"] : [];
    for (const row of rows) parts.push(csvLine(row, options));
    return parts.join("");
}
