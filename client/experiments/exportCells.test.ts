import {test} from "node:test";
import assert from "node:assert/strict";
import {defuseCell, experimentExportTable, exportTableCsv} from "./exportCells.ts";
import {chatVariant, decisionVariant, experiment, predicateCell, urgentSet} from "./testExperiment.ts";
import type {CellResult} from "./types.ts";

test("text a spreadsheet would run as a formula gets a leading apostrophe; numbers and plain text stay", () => {
    for (const text of ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx"]) assert.equal(defuseCell(text), `'${text}`);
    assert.equal(defuseCell("plain"), "plain");
    assert.equal(defuseCell(-0.5), -0.5);
    assert.equal(defuseCell(true), true);
    assert.equal(defuseCell(null), null);
});

test("the export holds the row, its cells and each variant's answers, correctness, usage and latency", () => {
    const dataset = {columns: ["text", "urgent"], labelColumns: ["urgent"], rows: [["=HYPERLINK(\"x\")", "yes"], ["fine", "no"]]};
    const spec = experiment([decisionVariant("A", urgentSet), decisionVariant("B", urgentSet)]);
    const cells: CellResult[] = [predicateCell(0, 0, 0.8), predicateCell(1, 0, 0.7), predicateCell(0, 1, 0.4),
        {...predicateCell(1, 1, 0), ok: false, response: undefined, error: {status: 500, code: "server_error", message: "boom"}}];
    const table = experimentExportTable(spec, dataset, cells);
    assert.deepEqual(table.columns, ["row", "text", "urgent", "A.urgent.probability", "A.error", "A.urgent.correct", "A.prompt_tokens", "A.completion_tokens", "A.latency_ms",
        "B.urgent.probability", "B.error", "B.urgent.correct", "B.prompt_tokens", "B.completion_tokens", "B.latency_ms"]);
    assert.deepEqual(table.rows[0], [1, "'=HYPERLINK(\"x\")", "yes", 0.8, null, true, 100, 1, 100, 0.4, null, false, 100, 1, 100]);
    assert.deepEqual(table.rows[1], [2, "fine", "no", 0.7, null, false, 100, 1, 110, null, "500 server_error: boom", null, 100, 1, 110]);
    const csv = exportTableCsv(table);
    assert.ok(csv.startsWith("\ufeffrow,text,urgent,"));
    assert.ok(csv.includes("\"'=HYPERLINK(\"\"x\"\")\""));
});

test("chat variants export their reply, pass and check scores; a reply that starts like a formula is defused", () => {
    const spec = experiment([chatVariant("A", "small")]);
    // A latency as measured (floating-point noise and all) is exported to a tenth of a millisecond.
    const cells: CellResult[] = [{rowIndex: 0, variant: 0, ok: true, request: {}, reply: "-1 is the answer", checks: [{name: "grounded", pass: true, score: 0.8}],
        latencyMs: 50.0399999999999, attempts: 1, completedAt: 0}];
    const table = experimentExportTable(spec, {columns: ["question"], rows: [["q"], ["r"]]}, cells, [0]);
    assert.deepEqual(table.columns, ["row", "question", "A.reply", "A.pass", "A.check.grounded", "A.error", "A.prompt_tokens", "A.completion_tokens", "A.latency_ms"]);
    assert.deepEqual(table.rows, [[1, "q", "'-1 is the answer", true, 0.8, null, null, null, 50]]);
});

test("with repeats the export has a line per row and repeat, numbered in a repeat column", () => {
    const spec = {...experiment([chatVariant("A", "small")]), repeats: 2};
    const answer = (rowIndex: number, repeat: number, reply: string): CellResult => ({rowIndex, variant: 0, ...(repeat === 0 ? {} : {repeat}), ok: true, request: {}, reply,
        checks: [{name: "grounded", pass: reply === "yes", score: reply === "yes" ? 1 : 0}], latencyMs: 10, attempts: 1, completedAt: 0});
    const table = experimentExportTable(spec, {columns: ["question"], rows: [["q"], ["r"]]}, [answer(0, 1, "no"), answer(0, 0, "yes"), answer(1, 0, "no")]);
    assert.deepEqual(table.columns.slice(0, 4), ["row", "repeat", "question", "A.reply"]);
    assert.deepEqual(table.rows.map((row) => row.slice(0, 5)), [[1, 1, "q", "yes", true], [1, 2, "q", "no", false], [2, 1, "r", "no", false], [2, 2, "r", null, null]]);
});
