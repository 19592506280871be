import {test} from "node:test";
import assert from "node:assert/strict";
import {CsvSpreadsheet} from "./csv.ts";
import {detectHeader, openTable, typeNumberColumns} from "./table.ts";
import {buildXlsx, XlsxSpreadsheet} from "./xlsx.ts";
import type {SheetRow} from "./types.ts";

test("header detection: distinct non-numeric labels over rows that differ from them", () => {
    assert.equal(detectHeader([["name", "age"], ["Ann", 31], ["Bob", 40]]), true, "numbers below text labels");
    assert.equal(detectHeader([["name", "city"], ["Ann", "Paris"]]), true, "text below, but not the labels again");
    assert.equal(detectHeader([["name", "age"]]), true, "a lone row of labels");
    assert.equal(detectHeader([["1", "2"], ["3", "4"]]), false, "numbers in the first row");
    assert.equal(detectHeader([["a", ""], ["b", "c"]]), false, "an empty cell in the first row");
    assert.equal(detectHeader([["x", "x"], ["1", "2"]]), false, "repeated labels");
    assert.equal(detectHeader([["yes", "red"], ["no", "blue"], ["yes", "red"]]), false, "the first row's values recur below: data");
    assert.equal(detectHeader([[true, "a"], [false, "b"]]), false, "a boolean is not a label");
    assert.equal(detectHeader([]), false);
});

test("a table: unique column names, padded rows, preview, consecutive batches, row count", async () => {
    const csv = "name,,name,score\nAnn,x,A,1\nBob\n\n,,,\nCid,y,C,3,extra\n";
    // An empty and a repeated label: not detected as a header, so forced; the names are made unique.
    const table = await openTable(CsvSpreadsheet.fromText(csv), {header: true, batchRows: 2, previewRows: 2});
    assert.equal(table.headerDetected, false);
    assert.equal(table.hasHeader, true);
    assert.deepEqual(table.columns, ["name", "column_2", "name_2", "score"]);
    // The blank line and the all-empty row are skipped; short rows are padded, long ones cut to the header.
    assert.deepEqual(table.preview, [["Ann", "x", "A", "1"], ["Bob", null, null, null]]);
    const batches = [];
    for await (const batch of table.batches()) batches.push(batch);
    assert.deepEqual(batches, [
        {start: 0, rows: [["Ann", "x", "A", "1"]]},
        {start: 1, rows: [["Bob", null, null, null], ["Cid", "y", "C", "3"]]}
    ]);
    assert.equal(await table.countRows(), 3);
});

test("no header (detected or forced): positional names, the first row is data, width from the widest row", async () => {
    const detected = await openTable(CsvSpreadsheet.fromText("1,2\n3,4,5\n"));
    assert.equal(detected.hasHeader, false);
    assert.deepEqual(detected.columns, ["column_1", "column_2", "column_3"]);
    assert.deepEqual(detected.preview, [["1", "2", null], ["3", "4", "5"]]);
    const forced = await openTable(CsvSpreadsheet.fromText("a,b\nc,d\n"), {header: false});
    assert.equal(forced.headerDetected, true);
    assert.equal(forced.hasHeader, false);
    assert.equal(await forced.countRows(), 2);
});

test("100,000 rows from a browser File come out in bounded batches while timers keep running", async () => {
    const lines = ["id,text,amount"];
    for (let index = 0; index < 100_000; index++) lines.push(`${index},"row ${index}, with ""quotes""",${index * 0.5}`);
    const file = new Blob([lines.join("\r\n")]);
    // A UI's timer: the longest gap between its ticks is how long the page would have frozen.
    let last = performance.now(), longestGap = 0;
    const timer = setInterval(() => {
        const now = performance.now();
        longestGap = Math.max(longestGap, now - last);
        last = now;
    }, 5);
    try {
        const table = await openTable(CsvSpreadsheet.fromBlob(file), {batchRows: 1000});
        let count = 0, largest = 0;
        for await (const batch of table.batches()) {
            assert.equal(batch.start, count);
            count += batch.rows.length;
            largest = Math.max(largest, batch.rows.length);
        }
        assert.equal(count, 100_000);
        assert.ok(largest <= 1000, `largest batch ${largest}`);
        assert.deepEqual(table.preview[0], ["0", "row 0, with \"quotes\"", "0"]);
    } finally {
        clearInterval(timer);
    }
    assert.ok(longestGap < 500, `timers were held up for ${longestGap.toFixed(0)} ms`);
});

test("a CSV's number columns become numbers; a template would still write the file's own text", () => {
    const rows: SheetRow[] = [
        ["1", "Great", "4.5", "007", "1.50", "yes", "12345678901234567890", ""],
        ["2", "Poor", "", "012", "2", "no", "1", "-3"],
        ["10", "Okay", "-0.25", "7", "3", "1", "2", "1e3"]
    ];
    const texts = rows.map((row) => [...row]);
    assert.deepEqual(typeNumberColumns(rows, 8), [0, 2]);
    rows.forEach((row, index) => row.forEach((cell, column) => assert.equal(cell === null ? "" : String(cell), texts[index][column], "a cell prints as the file wrote it")));
    assert.deepEqual(rows.map((row) => row.slice(0, 3)), [[1, "Great", 4.5], [2, "Poor", null], [10, "Okay", -0.25]]);
    // Leading zeros, trailing zeros, exponents and digits past double precision stay text: their text would change.
    assert.deepEqual(rows.map((row) => row.slice(3)), [["007", "1.50", "yes", "12345678901234567890", ""], ["012", "2", "no", "1", "-3"], ["7", "3", "1", "2", "1e3"]]);
});

test("typed number columns are written to XLSX as number cells, text columns as text", async () => {
    const rows: SheetRow[] = [["1", "Great", "yes"], ["2", "Poor", "no"]];
    typeNumberColumns(rows, 3);
    const bytes = await buildXlsx(["id", "text", "label"], rows);
    const read: SheetRow[] = [];
    for await (const chunk of new XlsxSpreadsheet(bytes).readRows()) read.push(...chunk);
    assert.deepEqual(read, [["id", "text", "label"], [1, "Great", "yes"], [2, "Poor", "no"]]);
});
