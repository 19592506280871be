import ExcelJS from "exceljs";
import assert from "node:assert/strict";
import {test} from "node:test";
import {formatDuration} from "../../../../base/common/format.ts";
import {resultLayout, MemoryResultStore, parseQuestionSet, questionInfos, readAnswers, type QuestionSet, type SheetRow} from "../../../../client/scoring/index.ts";
import {formatDecisionsResponse} from "../../../../protocol/decisions/formatResponses.ts";
import {parseDecisionsRequest} from "../../../../protocol/decisions/parseDecisionsRequest.ts";
import {parseCsv} from "../../../../test/support/csv.ts";
import {rowInput} from "../questionSet/requests.ts";
import {exportCsv, exportXlsx, filterRowOrder, histogramBins, meanExpectedScore, sortRowOrder} from "./scoringModel.ts";

test("sortRowOrder: numbers by value (numeric text too), text naturally, empty cells last both ways, stable", () => {
    const cells = ["10", 2, "b", null, "a2", "a10", 2, "", true];
    const order = cells.map((_, index) => index);
    const asc = sortRowOrder(order, (index) => cells[index], "asc");
    assert.deepEqual(asc.map((index) => cells[index]), [true, 2, 2, "10", "a2", "a10", "b", null, ""]);
    assert.deepEqual(asc.slice(1, 3), [1, 6], "equal cells keep their order");
    const desc = sortRowOrder(order, (index) => cells[index], "desc");
    assert.deepEqual(desc.map((index) => cells[index]), ["b", "a10", "a2", "10", 2, 2, true, null, ""]);
});

test("filterRowOrder: text in any or one column, case-insensitive, errors only", () => {
    const rows: SheetRow[] = [["Zürich", "yes"], ["Bern", "no"], ["zug", null]];
    const all = [0, 1, 2];
    const cells = (index: number) => rows[index];
    const errors = new Set([1]);
    assert.deepEqual(filterRowOrder(all, cells, (index) => errors.has(index), {text: "z", column: null, errorsOnly: false}), [0, 2]);
    assert.deepEqual(filterRowOrder(all, cells, (index) => errors.has(index), {text: "NO", column: 1, errorsOnly: false}), [1]);
    assert.deepEqual(filterRowOrder(all, cells, (index) => errors.has(index), {text: "no", column: 0, errorsOnly: false}), []);
    assert.deepEqual(filterRowOrder([2, 1, 0], cells, (index) => errors.has(index), {text: "", column: null, errorsOnly: true}), [1]);
});

test("formatDuration", () => {
    assert.equal(formatDuration(null), "–");
    assert.equal(formatDuration(41.6), "42 s");
    assert.equal(formatDuration(185), "3 min 5 s");
    assert.equal(formatDuration(8040), "2 h 14 min");
});

test("rowInput: a template fills cells as text, whole rows become JSON objects", () => {
    const columns = ["text", "stars"];
    assert.deepEqual(rowInput({columns}, ["Très \"bien\"", 4], {kind: "template", template: "Review: {{text}} ({{ stars }}★)"}), {kind: "text", text: "Review: Très \"bien\" (4★)"});
    assert.deepEqual(rowInput({columns}, ["x", null], {kind: "row"}), {kind: "json", value: {text: "x", stars: null}});
    assert.deepEqual(rowInput({columns}, ["x", 4], {kind: "row", columns: ["stars"]}), {kind: "json", value: {stars: 4}}, "only the chosen columns, numbers kept");
    assert.throws(() => rowInput({columns}, ["x", 1], {kind: "template", template: "{{nope}}"}), /no column named "nope"/);
});

const questionSet: QuestionSet = {format: "decisions", questions: [
    {type: "predicate", name: "positive", instructions: "Is the review positive?"},
    {type: "choice", name: "topic", instructions: "Topic?", choices: [{value: "price"}, {value: true}, {value: "delivery"}]}
]};

/** Stores one result per row, formatted by the server's own formatter from the given distributions. */
async function fillStore(store: MemoryResultStore, distributions: number[][][]) {
    const parsed = parseDecisionsRequest({model: "svc-1-decision", input: "x", questions: questionSet.questions});
    await store.createJob({jobId: "j", spec: {questionSet, input: {kind: "row"}, columns: ["review", "label"]}, status: "running", totalRows: distributions.length, error: null, createdAt: 0, updatedAt: 0});
    for (const [rowIndex, answers] of distributions.entries()) {
        if (answers.length === 0) {
            await store.putResult("j", {rowIndex, ok: false, error: {status: 400, code: "request_rejected", message: "too long"}, attempts: 1, durationMs: 1, completedAt: 0});
            continue;
        }
        const response = formatDecisionsResponse(parsed, {answers: answers.map((probabilities) => ({probabilities})), usage: {inputTokens: 1, outputTokens: 1}});
        await store.putResult("j", {rowIndex, ok: true, response: {answers: response.answers}, attempts: 1, durationMs: 1, completedAt: 0});
    }
}

test("histogramBins over stored answers", async () => {
    const store = new MemoryResultStore();
    await fillStore(store, [[[0.95, 0.05], [0.7, 0.2, 0.1]], [[1, 0], [0.1, 0.8, 0.1]], [], [[0.12, 0.88], [0.1, 0.2, 0.7]]]);
    const infos = questionInfos(parseQuestionSet(questionSet).normalized);
    const answers = (await store.readResults("j")).map((result) => result.ok ? readAnswers("decisions", infos, result.response!) : null);
    const yesno = histogramBins(infos[0], answers.map((row) => row?.[0] ?? null));
    assert.equal(yesno.length, 10);
    assert.deepEqual(yesno.map((bin) => bin.count), [0, 1, 0, 0, 0, 0, 0, 0, 0, 2]);
    assert.deepEqual(histogramBins(infos[1], answers.map((row) => row?.[1] ?? null)), [{label: "price", count: 1}, {label: "true", count: 1}, {label: "delivery", count: 1}]);
});

test("a score question's histogram counts each row at its most likely level, beside the mean expected score", () => {
    const [stars] = questionInfos(parseQuestionSet({questions: [{type: "score", name: "stars", instructions: "?", levels: [{label: "useless"}, {label: "poor"}, {label: "okay"}, {label: "good"}, {label: "great"}]}]}).normalized);
    // Near-uniform answers: the mean is about 2 ("okay"), the peak is level 0 ("useless").
    const flat = {probabilities: [0.22, 0.19, 0.2, 0.19, 0.2], score: 1.96};
    const peaked = {probabilities: [0, 0.1, 0.1, 0.7, 0.1], score: 2.8};
    assert.deepEqual(histogramBins(stars, [flat, flat, peaked, null]).map((bin) => [bin.label, bin.count]),
        [["0 · useless", 2], ["1 · poor", 0], ["2 · okay", 0], ["3 · good", 1], ["4 · great", 0]]);
    assert.ok(Math.abs(meanExpectedScore([flat, flat, peaked, null])! - (1.96 * 2 + 2.8) / 3) < 1e-12);
    assert.equal(meanExpectedScore([null]), null);
});

test("exports: source columns, then the answer columns of every question, one line per row (errors included)", async () => {
    const store = new MemoryResultStore();
    await fillStore(store, [[[0.95, 0.05], [0.7, 0.2, 0.1]], []]);
    const infos = questionInfos(parseQuestionSet(questionSet).normalized);
    const layout = resultLayout(questionSet, infos, ["review", "label"]);
    const rows: SheetRow[] = [["Très \"bon\", rapide", "yes"], ["línea\nnueva", "no"]];
    const source = {columns: ["review", "label"], rows, store, jobId: "j", layout};
    const csv = await exportCsv(source);
    assert.ok(csv.startsWith("\ufeff"));
    const lines = parseCsv(csv.slice(1));
    assert.deepEqual(lines[0], ["review", "label", "positive.probability", "topic.choice", "topic.confidence", "topic.p.price", "topic.p.true", "topic.p.delivery", "error"]);
    assert.deepEqual(lines[1].slice(0, 6), ["Très \"bon\", rapide", "yes", "0.95", "price", lines[1][4], "0.7"]);
    assert.equal(lines[2][0], "línea\nnueva");
    assert.equal(lines[2][8], "400 request_rejected: too long");
    assert.equal(lines.length, 3);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await exportXlsx(source)).buffer as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    assert.equal(sheet.getRow(1).getCell(3).value, "positive.probability");
    assert.equal(sheet.getRow(2).getCell(1).value, "Très \"bon\", rapide");
    assert.equal(sheet.getRow(2).getCell(3).value, 0.95);
    assert.equal(sheet.getRow(2).getCell(4).value, "price");
});


test("textColumn picks the column with the longest text", async () => {
    const {textColumn} = await import("./scoringModel.ts");
    assert.equal(textColumn(["id", "review", "label"], [[1, "A long review text", "yes"], [2, "Another one", "no"]]), "review");
    assert.equal(textColumn(["id", "label"], []), "id");
    assert.equal(textColumn([], []), null);
});
