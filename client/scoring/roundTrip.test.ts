// CSV and XLSX written and read back, 10,000 rows with the cells that break naive code: unicode outside the
// BMP, quotes, delimiters, line breaks, leading spaces, strings that look like formulas, and empty cells.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {CsvSpreadsheet, formatCsv} from "./csv.ts";
import {openSpreadsheetFile, writeCsvFile, writeXlsxFile} from "./node/spreadsheetFiles.ts";
import {openTable} from "./table.ts";
import type {CellValue, SheetRow, SpreadsheetSource} from "./types.ts";
import {buildXlsx, XlsxSpreadsheet} from "./xlsx.ts";

const rowCount = 10_000;
const columns = ["id", "text", "amount", "flag", "note"];
const texts = ["plain", "日本語テキスト", "emoji 😀 and é", "comma, inside", "say \"hi\"", "line\nbreak", "crlf\r\nbreak", "  padded  ", "=1+1", "'quoted'", "tab\there"];

/** Typed rows as an XLSX keeps them; every row has an id, so none is blank. */
function typedRows(): SheetRow[] {
    return Array.from({length: rowCount}, (_, index): SheetRow => [
        index,
        index % 13 === 0 ? null : `${texts[index % texts.length]} #${index}`,
        index % 7 === 0 ? null : index * 1.25 - 300,
        index % 5 === 0 ? null : index % 2 === 0,
        index % 3 === 0 ? texts[(index * 7) % texts.length] : null
    ]);
}

/** XML reads every CR LF inside a cell as LF (XML 1.0 line-end handling), so an XLSX cannot keep a CR. */
const asXlsxRow = (row: SheetRow) => row.map((cell) => typeof cell === "string" ? cell.replace(/\r\n/g, "\n") : cell);

/** The same rows as a CSV holds them: text, and "" for an empty cell. */
const asCsvRow = (row: SheetRow) => row.map((cell) => cell === null ? "" : String(cell));

let dir: string;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-sheets-"));
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

async function readAll(source: SpreadsheetSource, sheet?: string): Promise<{columns: string[], rows: SheetRow[], hasHeader: boolean}> {
    const table = await openTable(source, {sheet, batchRows: 777});
    const rows: SheetRow[] = [];
    let expectedStart = 0;
    for await (const batch of table.batches()) {
        assert.equal(batch.start, expectedStart, "batches are consecutive");
        expectedStart += batch.rows.length;
        rows.push(...batch.rows);
    }
    assert.equal(await table.countRows(), rows.length);
    return {columns: table.columns, rows, hasHeader: table.hasHeader};
}

test("CSV file: 10,000 rows written with a BOM and read back cell for cell", async () => {
    const file = path.join(dir, "rows.csv");
    const expected = typedRows().map(asCsvRow);
    await writeCsvFile(file, columns, expected);
    const bytes = await readFile(file);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], "UTF-8 BOM for Excel");
    const read = await readAll(openSpreadsheetFile(file));
    assert.equal(read.hasHeader, true);
    assert.deepEqual(read.columns, columns);
    assert.equal(read.rows.length, rowCount);
    assert.deepEqual(read.rows, expected);
});

test("CSV in the browser path: text and bytes sources give the same rows as the file", async () => {
    const expected = typedRows().slice(0, 2000).map(asCsvRow);
    const text = formatCsv([columns, ...expected], {bom: true});
    assert.deepEqual((await readAll(CsvSpreadsheet.fromText(text))).rows, expected);
    assert.deepEqual((await readAll(CsvSpreadsheet.fromBytes(new TextEncoder().encode(text)))).rows, expected);
    assert.deepEqual((await readAll(CsvSpreadsheet.fromBlob(new Blob([text])))).rows, expected);
});

test("XLSX file: 10,000 typed rows streamed out and streamed back, types kept, formulas never made", async () => {
    const file = path.join(dir, "rows.xlsx");
    await writeXlsxFile(file, columns, typedRows(), "Data");
    const expected = typedRows().map(asXlsxRow);
    const source = openSpreadsheetFile(file);
    assert.deepEqual(await source.sheetNames(), ["Data"]);
    const read = await readAll(source);
    assert.deepEqual(read.columns, columns);
    assert.equal(read.rows.length, rowCount);
    assert.deepEqual(read.rows, expected);
    // The in-memory (browser) reader agrees with the streaming one.
    const inMemory = await readAll(new XlsxSpreadsheet(await readFile(file)));
    assert.deepEqual(inMemory.rows, expected);
});

test("XLSX in memory (browser path): built, then read back; sheets listed in workbook order and chosen by name", async () => {
    const bytes = await buildXlsx(columns, typedRows().slice(0, 3000));
    const expected = typedRows().slice(0, 3000).map(asXlsxRow);
    const read = await readAll(new XlsxSpreadsheet(bytes));
    assert.deepEqual(read.rows, expected);

    // A workbook of two sheets: the picker's list, and rows of the one chosen.
    const ExcelJS = (await import("exceljs")).default;
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Zeta").addRows([["k", "v"], ["z", 1]]);
    workbook.addWorksheet("Alpha").addRows([["k", "v"], ["a", 2], ["b", 3]]);
    workbook.getWorksheet("Alpha")!.getCell("A5").value = {richText: [{text: "rich "}, {text: "text"}]};
    workbook.getWorksheet("Alpha")!.getCell("B5").value = new Date(Date.UTC(2024, 1, 29));
    const file = path.join(dir, "two.xlsx");
    await workbook.xlsx.writeFile(file);
    for (const source of [openSpreadsheetFile(file), new XlsxSpreadsheet(await readFile(file))]) {
        assert.deepEqual(await source.sheetNames(), ["Zeta", "Alpha"]);
        // Row 4 is blank and skipped; rich text is joined, a date becomes ISO 8601.
        assert.deepEqual((await readAll(source, "Alpha")).rows, [["a", 2], ["b", 3], ["rich text", "2024-02-29"]] as CellValue[][]);
        assert.deepEqual((await readAll(source)).rows, [["z", 1]]);
        await assert.rejects(openTable(source, {sheet: "Missing"}), /no sheet named "Missing"/);
    }
});
