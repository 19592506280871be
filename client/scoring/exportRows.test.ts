import {test} from "node:test";
import assert from "node:assert/strict";
import {evaluateQuestion} from "./evaluation.ts";
import {parseQuestionSet, questionInfos} from "./questions.ts";
import {buildCsvBlob, parseCsv} from "../../test/support/csv.ts";
import {openTable} from "./table.ts";
import type {RowBatch, SheetRow} from "./types.ts";
import {buildXlsx, XlsxSpreadsheet} from "./xlsx.ts";
import {resultLayout, exportRows, joinResults, MemoryResultStore} from "./results.ts";

const {questionSet, normalized} = parseQuestionSet({format: "systemone", questions: {spam: {type: "noul", instructions: "Spam?"}}});
const infos = questionInfos(normalized);
const columns = ["text", "label"];
const table: SheetRow[] = Array.from({length: 2500}, (_, index) => [`message ${index}`, index % 2 === 0 ? "yes" : "no"]);
const batches = async function* (): AsyncGenerator<RowBatch> {
    for (let start = 0; start < table.length; start += 300) yield {start, rows: table.slice(start, start + 300)};
};

/** A store where every third row has no result and row 4 is an error; P(spam) = 0.9 on even rows, 0.2 on odd. */
async function filledStore(): Promise<MemoryResultStore> {
    const store = new MemoryResultStore();
    await store.createJob({jobId: "j", spec: {questionSet, input: {kind: "row"}, columns}, status: "completed", totalRows: table.length, error: null, createdAt: 0, updatedAt: 0});
    for (let index = 0; index < table.length; index++) {
        if (index % 3 === 2) continue;
        if (index === 4) {
            await store.putResult("j", {rowIndex: index, ok: false, error: {status: 400, code: "request_rejected", message: "no"}, attempts: 1, durationMs: 1, completedAt: 0});
            continue;
        }
        await store.putResult("j", {rowIndex: index, ok: true, response: {answers: {spam: {type: "noul", noul: index % 2 === 0 ? 0.9 : 0.2}}}, attempts: 1, durationMs: 1, completedAt: 0});
    }
    return store;
}

test("exports join each row with its result across result pages: CSV blob and XLSX bytes", async () => {
    const store = await filledStore();
    const layout = resultLayout(questionSet, infos, columns);
    const header = [...columns, ...layout.columns];
    assert.deepEqual(header, ["text", "label", "spam.probability", "error"]);

    const csv = parseCsv(await (await buildCsvBlob(header, exportRows(batches(), store, "j", layout))).text());
    assert.deepEqual(csv[0], header);
    assert.equal(csv.length, table.length + 1);
    assert.deepEqual(csv[1], ["message 0", "yes", "0.9", ""]);
    assert.deepEqual(csv[2], ["message 1", "no", "0.2", ""]);
    assert.deepEqual(csv[3], ["message 2", "yes", "", ""], "no result yet: empty answer cells");
    assert.deepEqual(csv[5], ["message 4", "yes", "", "400 request_rejected: no"]);
    assert.deepEqual(csv[2500], ["message 2499", "no", "0.2", ""]);

    const xlsx = await openTable(new XlsxSpreadsheet(await buildXlsx(header, exportRows(batches(), store, "j", layout))));
    assert.deepEqual(xlsx.columns, header);
    const rows: SheetRow[] = [];
    for await (const batch of xlsx.batches()) rows.push(...batch.rows);
    assert.equal(rows.length, table.length);
    assert.deepEqual(rows[0], ["message 0", "yes", 0.9, null]);
    assert.deepEqual(rows[2], ["message 2", "yes", null, null]);
});

test("joined rows feed an evaluation against a label column", async () => {
    const store = await filledStore();
    const layout = resultLayout(questionSet, infos, columns);
    const labelled = [];
    for await (const {row, result} of joinResults(batches(), store, "j", 128)) labelled.push({answer: layout.answers(result)?.[0] ?? null, label: row[1]});
    const evaluation = evaluateQuestion(infos[0], labelled);
    // Rows with results: 2500 - 833 (index % 3 == 2) = 1667, minus the error row 4.
    assert.equal(evaluation.used, 1666);
    assert.equal(evaluation.skipped.unanswered, 834);
    assert.equal(evaluation.report?.accuracy, 1, "0.9 on every yes row and 0.2 on every no row");
    assert.equal(evaluation.calibrated, false);
});
