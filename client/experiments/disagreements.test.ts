// Which rows are disagreements, how they are counted and keyed, how a decision answer reads, and the report's list.
import {test} from "node:test";
import assert from "node:assert/strict";
import type {QuestionSet} from "../scoring/questions.ts";
import {answerLines, describeDisagreementCount, disagreementKey, spreadDefinition, spreadName} from "./disagreements.ts";
import {renderExperimentReport} from "./report.ts";
import {summarizeExperiment} from "./summary.ts";
import {chatVariant, decisionVariant, experiment, predicateCell, urgentSet} from "./testExperiment.ts";
import type {CellResult, DecisionPrompt} from "./types.ts";

const failed = (rowIndex: number, variant: number, code = "model_not_loaded"): CellResult => ({rowIndex, variant, ok: false, request: {},
    error: {status: 503, code, message: `no model (row ${rowIndex})`}, latencyMs: 5, attempts: 1, completedAt: 0});

test("chat variants that fail the same way on every row disagree on none; a different outcome is a disagreement", () => {
    const chat = experiment([chatVariant("short", "small"), chatVariant("long", "large")]);
    const rows = Array.from({length: 200}, (_unused, index) => [`question ${index}`]);
    const cells = rows.flatMap((_row, rowIndex) => [failed(rowIndex, 0), failed(rowIndex, 1)]);
    assert.deepEqual(summarizeExperiment(chat, {columns: ["question"], rows}, cells).disagreements, []);
    // Row 7: the second variant answers and passes its check; row 9: it fails with another error.
    const answered: CellResult = {rowIndex: 7, variant: 1, ok: true, request: {}, reply: "Paris", checks: [{name: "has_answer", pass: true, score: 1}], latencyMs: 5, attempts: 1, completedAt: 0};
    const mixed = cells.map((cell) => cell.variant === 1 && cell.rowIndex === 7 ? answered : cell.variant === 1 && cell.rowIndex === 9 ? failed(9, 1, "timeout") : cell);
    assert.deepEqual(summarizeExperiment(chat, {columns: ["question"], rows}, mixed).disagreements.map((row) => row.rowIndex), [7, 9]);
});

test("decision variants: the same wrong pick is no disagreement; another pick, or one failing where the other answers, is", () => {
    const spec = experiment([decisionVariant("A", urgentSet, 1), decisionVariant("B", urgentSet, 2)]);
    const dataset = {columns: ["ticket", "urgent"], labelColumns: ["urgent"], rows: [["a", "yes"], ["b", "yes"], ["c", "no"], ["d", "no"]]};
    // Row 0: both say no to a yes (the same mistake); row 1: they pick differently; row 2: B failed; row 3: both right.
    const cells = [predicateCell(0, 0, 0.2), predicateCell(0, 1, 0.3), predicateCell(1, 0, 0.2), predicateCell(1, 1, 0.8),
        predicateCell(2, 0, 0.1), failed(2, 1), predicateCell(3, 0, 0.1), predicateCell(3, 1, 0.3)];
    const found = summarizeExperiment(spec, dataset, cells).disagreements;
    assert.deepEqual(found.map((row) => row.rowIndex), [1, 2]);
    assert.deepEqual(found[0].cells.map((cell) => cell.correct), [false, true]);
    assert.ok(Math.abs(found[0].size - 0.6) < 1e-9, "spread: P(yes) 0.8 - 0.2");
    assert.equal(found[1].cells[1].summary, "error: no model (row 2)");
});

test("several questions: a row holds one entry per question, each with its own key, counted as entries on rows", () => {
    const twoQuestions: QuestionSet = {format: "decisions", questions: [
        {type: "predicate", name: "urgent", instructions: "Urgent?"},
        {type: "choice", name: "team", instructions: "Which team?", choices: [{value: "billing"}, {value: "tech"}]}
    ]};
    const spec = experiment([decisionVariant("A", twoQuestions, 1), decisionVariant("B", twoQuestions, 2)]);
    const rows = Array.from({length: 6}, (_unused, index) => [`ticket ${index}`, index % 2 === 0 ? "yes" : "no", index % 3 === 0 ? "billing" : "tech"]);
    const dataset = {columns: ["ticket", "urgent", "team"], labelColumns: ["urgent", "team"], rows};
    const cell = (rowIndex: number, variant: number, urgent: number, billing: number): CellResult => ({rowIndex, variant, ok: true, request: {}, latencyMs: 5, attempts: 1, completedAt: 0,
        response: {answers: [{type: "predicate", name: "urgent", probability: urgent},
            {type: "choice", name: "team", choice: billing >= 0.5 ? "billing" : "tech", probabilities: [{value: "billing", probability: billing}, {value: "tech", probability: 1 - billing}], confidence: 0.5}]}});
    // A and B pick opposite options on both questions of every row.
    const cells = rows.flatMap((_row, rowIndex) => [cell(rowIndex, 0, 0.3, 0.7), cell(rowIndex, 1, 0.7, 0.3)]);
    const found = summarizeExperiment(spec, dataset, cells).disagreements;
    assert.equal(found.length, 12);
    assert.equal(new Set(found.map(disagreementKey)).size, 12, "no two entries share a key");
    assert.equal(describeDisagreementCount(found), "12 disagreements on 6 rows");
    assert.equal(describeDisagreementCount(found.slice(0, 1)), "1 disagreement on 1 row");
    assert.deepEqual(new Set(found.map((row) => row.question)), new Set(["urgent", "team"]));
});

test("a decision answer reads as the option picked and its probability, per question", () => {
    const prompt: DecisionPrompt = {kind: "decision", input: {kind: "row"}, questionSet: {format: "decisions", questions: [
        {type: "predicate", name: "urgent", instructions: "Urgent?"},
        {type: "score", name: "severity", instructions: "How bad?", levels: [{label: "low"}, {label: "mid"}, {label: "high"}]}
    ]}};
    const response = {answers: [{type: "predicate", name: "urgent", probability: 0.27},
        {type: "score", name: "severity", score: 1.4, probabilities: [{value: 0, label: "low", probability: 0.2}, {value: 1, label: "mid", probability: 0.2}, {value: 2, label: "high", probability: 0.6}], confidence: 0.6}]};
    assert.deepEqual(answerLines(prompt, response), [
        {question: "urgent", picked: "no", probability: 0.73},
        {question: "severity", picked: "2: high", probability: 0.6, expected: 1.4}
    ]);
    assert.equal(answerLines(prompt, {answers: []}), null, "a response that does not fit the question set");
});

test("the report names the list's total when it shows the top entries, and its Spread column says what the spread is", () => {
    const spec = experiment([decisionVariant("A", urgentSet, 1), decisionVariant("B", urgentSet, 2)]);
    const rows = Array.from({length: 40}, (_unused, index) => [`ticket ${index}`, "yes"]);
    const cells = rows.flatMap((_row, rowIndex) => [predicateCell(rowIndex, 0, 0.2), predicateCell(rowIndex, 1, 0.6 + rowIndex / 200)]);
    const summary = summarizeExperiment(spec, {columns: ["ticket", "urgent"], labelColumns: ["urgent"], rows}, cells);
    const html = renderExperimentReport(spec, summary, {dataset: {columns: ["ticket", "urgent"], rows}});
    assert.match(html, /Top 25 of 40 disagreements on 40 rows, the largest spread first\./);
    assert.equal(spreadName, "Spread");
    assert.ok(html.includes(`<th title="${spreadDefinition.replace(/'/g, "&#39;")}">Spread</th>`), "the definition on hover of the column");
    assert.equal((html.match(/<tr><td class="num">/g) ?? []).length, 25);
});
