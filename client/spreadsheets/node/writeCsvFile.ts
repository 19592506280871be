import {createWriteStream} from "node:fs";
import {rename, rm} from "node:fs/promises";
import {once} from "node:events";
import {csvLine} from "../csv/formatCsv.ts";
import type {CellValue} from "../types.ts";

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
