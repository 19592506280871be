import type {TextChunks, CellValue, SheetRow, SpreadsheetSource} from "./types.ts";
import {readChunks} from "../../base/common/sse.ts";
import {isBlankRow} from "./table.ts";

/**
 * Turns byte pieces into text pieces. The encoding comes from the byte order mark (UTF-8, UTF-16 LE or BE,
 * as Excel's "Unicode text" writes), else UTF-8; the decoder drops the mark itself and keeps multi-byte
 * characters that straddle two pieces whole. String pieces pass through unchanged.
 */
export async function* decodeText(chunks: TextChunks): AsyncGenerator<string, void, undefined> {
    let decoder: TextDecoder | undefined;
    for await (const chunk of chunks) {
        if (typeof chunk === "string") {
            if (chunk !== "") yield chunk;
            continue;
        }
        decoder ??= new TextDecoder(sniffEncoding(chunk));
        const text = decoder.decode(chunk, {stream: true});
        if (text !== "") yield text;
    }
    const tail = decoder?.decode() ?? "";
    if (tail !== "") yield tail;
}

function sniffEncoding(bytes: Uint8Array): string {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
    return "utf-8";
}

/**
 * The delimiter of a CSV from its first line: a comma unless that line holds none and holds tabs or
 * semicolons (a TSV, or a CSV from a locale where the comma is the decimal mark). Quoted text is ignored.
 */
export function sniffDelimiter(sample: string): string {
    let inQuotes = false;
    const counts: Record<string, number> = {",": 0, "\t": 0, ";": 0};
    for (const character of sample) {
        if (character === "\"") inQuotes = !inQuotes;
        else if (!inQuotes && (character === "\n" || character === "\r")) break;
        else if (!inQuotes && character in counts) counts[character]++;
    }
    if (counts[","] > 0) return ",";
    if (counts["\t"] === 0 && counts[";"] === 0) return ",";
    return counts["\t"] >= counts[";"] ? "\t" : ";";
}

// RFC 4180 CSV, read incrementally: text arrives in pieces of any size (a quote, a CR LF or a multi-byte
// character may be split between two pieces) and complete rows come out as soon as their line ends.
// Lenient where files in the wild break the RFC: a bare LF or CR ends a row like CR LF, a quote inside an
// unquoted field is kept as a character, text after a closing quote is appended to the field, and an
// unterminated quoted field at the end of the input keeps what it holds.

const quote = 0x22;
const cr = 0x0d;
const lf = 0x0a;

const enum State { FieldStart, Unquoted, Quoted, QuoteInQuoted, AfterQuoted }

export type CsvParserOptions = {
    /** One character; default `,`. */
    delimiter?: string
};

export class CsvParser {
    private readonly delimiter: number;
    private state = State.FieldStart;
    private field = "";
    private row: string[] = [];
    /** True once anything of the current row was read, so a final line without a line break still counts. */
    private rowStarted = false;
    /** A CR ended the last row: a LF right after it belongs to the same line break. */
    private skipLf = false;
    private atStart = true;

    public constructor(options: CsvParserOptions = {}) {
        const delimiter = options.delimiter ?? ",";
        if (delimiter.length !== 1 || delimiter === "\"" || delimiter === "\r" || delimiter === "\n")
            throw new RangeError(`CSV delimiter must be one character other than a quote or a line break, got ${JSON.stringify(delimiter)}`);
        this.delimiter = delimiter.charCodeAt(0);
    }

    /** Feeds the next piece of text; returns the rows it completed. */
    public push(text: string): string[][] {
        const rows: string[][] = [];
        const length = text.length;
        let index = 0;
        if (this.atStart && length > 0) {
            this.atStart = false;
            // A byte order mark is an encoding signature, not part of the first header name.
            if (text.charCodeAt(0) === 0xfeff) index = 1;
        }
        while (index < length) {
            const code = text.charCodeAt(index);
            if (this.skipLf) {
                this.skipLf = false;
                if (code === lf) {
                    index++;
                    continue;
                }
            }
            switch (this.state) {
                case State.FieldStart:
                case State.Unquoted: {
                    if (this.state === State.FieldStart && code === quote) {
                        this.state = State.Quoted;
                        this.rowStarted = true;
                        index++;
                        break;
                    }
                    let end = index;
                    while (end < length) {
                        const next = text.charCodeAt(end);
                        if (next === this.delimiter || next === cr || next === lf) break;
                        end++;
                    }
                    if (end > index) {
                        this.field += text.slice(index, end);
                        this.rowStarted = true;
                        this.state = State.Unquoted;
                    }
                    index = end;
                    if (end < length) {
                        this.terminate(text.charCodeAt(end), rows);
                        index++;
                    }
                    break;
                }
                case State.Quoted: {
                    const close = text.indexOf("\"", index);
                    if (close < 0) {
                        this.field += text.slice(index);
                        index = length;
                    } else {
                        this.field += text.slice(index, close);
                        this.state = State.QuoteInQuoted;
                        index = close + 1;
                    }
                    break;
                }
                case State.QuoteInQuoted:
                    // `""` inside quotes is one quote; any other character means the quote closed the field.
                    if (code === quote) {
                        this.field += "\"";
                        this.state = State.Quoted;
                        index++;
                    } else {
                        this.state = State.AfterQuoted;
                    }
                    break;
                case State.AfterQuoted:
                    if (code === this.delimiter || code === cr || code === lf) this.terminate(code, rows);
                    else this.field += text[index];
                    index++;
                    break;
            }
        }
        return rows;
    }

    /** Ends the input; returns the last row when the text did not end with a line break. */
    public end(): string[][] {
        const rows: string[][] = [];
        if (this.rowStarted || this.field !== "") {
            this.row.push(this.field);
            rows.push(this.row);
        }
        this.field = "";
        this.row = [];
        this.rowStarted = false;
        this.state = State.FieldStart;
        return rows;
    }

    private terminate(code: number, rows: string[][]) {
        this.row.push(this.field);
        this.field = "";
        this.state = State.FieldStart;
        if (code === this.delimiter) {
            this.rowStarted = true;
            return;
        }
        rows.push(this.row);
        this.row = [];
        this.rowStarted = false;
        if (code === cr) this.skipLf = true;
    }
}

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

const sliceChars = 65_536;

export type CsvSpreadsheetOptions = {
    /** One character, or `auto` (default): a comma unless the first line holds none but tabs or semicolons. */
    delimiter?: string
};

/**
 * A CSV file read as a stream (browser and Node): `open` is called once per pass and returns the file's bytes
 * or text in pieces, so a 100,000-row file is never held whole. Cells are strings, exactly as written.
 */
export class CsvSpreadsheet implements SpreadsheetSource {
    public readonly format = "csv" as const;
    private readonly open: () => TextChunks;
    private readonly delimiter: string;

    public constructor(open: () => TextChunks, options: CsvSpreadsheetOptions = {}) {
        this.open = open;
        this.delimiter = options.delimiter ?? "auto";
    }

    public static fromText(text: string, options?: CsvSpreadsheetOptions): CsvSpreadsheet {
        return new CsvSpreadsheet(() => singleChunk(text), options);
    }

    public static fromBytes(bytes: Uint8Array, options?: CsvSpreadsheetOptions): CsvSpreadsheet {
        return new CsvSpreadsheet(() => singleChunk(bytes), options);
    }

    /** A browser `File` from an input or a drop: read through its stream, piece by piece. */
    public static fromBlob(blob: Blob, options?: CsvSpreadsheetOptions): CsvSpreadsheet {
        return new CsvSpreadsheet(() => readChunks(blob.stream()), options);
    }

    public async sheetNames(): Promise<string[]> {
        return [];
    }

    public async *readRows(_sheet?: string, chunkRows = 1000): AsyncGenerator<SheetRow[], void, undefined> {
        let parser: CsvParser | undefined;
        const batch: SheetRow[] = [];
        const take = (rows: string[][]) => {
            for (const row of rows) if (!isBlankRow(row)) batch.push(row);
        };
        for await (const text of decodeText(this.open())) {
            parser ??= new CsvParser({delimiter: this.delimiter === "auto" ? sniffDelimiter(text.slice(0, 65_536)) : this.delimiter});
            // A whole file given as one string is fed in slices, so batches still come out every chunkRows rows.
            for (let offset = 0; offset < text.length; offset += sliceChars) {
                take(parser.push(text.slice(offset, offset + sliceChars)));
                while (batch.length >= chunkRows) yield batch.splice(0, chunkRows);
            }
        }
        if (parser) take(parser.end());
        while (batch.length > 0) yield batch.splice(0, chunkRows);
    }
}

async function* singleChunk(chunk: Uint8Array | string): AsyncGenerator<Uint8Array | string, void, undefined> {
    yield chunk;
}
