import {readChunks} from "../sse/utils/readChunks.ts";
import {CsvParser} from "./csv/CsvParser.ts";
import {decodeText} from "./csv/decodeText.ts";
import {sniffDelimiter} from "./csv/sniffDelimiter.ts";
import type {SheetRow, SpreadsheetSource, TextChunks} from "./types.ts";
import {isBlankRow} from "./utils/isBlankRow.ts";

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
