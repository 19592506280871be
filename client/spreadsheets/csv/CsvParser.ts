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
