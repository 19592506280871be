import {test} from "node:test";
import assert from "node:assert/strict";
import {renderExperimentReport} from "./report.ts";
import {summarizeExperiment} from "./summary.ts";
import {chatVariant, decisionVariant, experiment, predicateCell, urgentSet} from "./testExperiment.ts";
import type {CellResult} from "./types.ts";

const hostile = `<script>alert("x")</script>`;
const rows = Array.from({length: 40}, (_unused, index) => [index === 3 ? hostile : `ticket ${index}`, index % 2 === 0 ? "yes" : "no"]);
const dataset = {name: "tickets & more.csv", columns: ["text", "urgent"], labelColumns: ["urgent"], rows};
const spec = {...experiment([decisionVariant("A", urgentSet, 1), {...decisionVariant(`B ${hostile}`, urgentSet, 2), model: "m\"x", params: {temperature: 0.2}}]), name: `Triage <v1> vs "v2"`};
// A is right on half the rows, B on nearly all: a clear difference to chart.
const cells: CellResult[] = rows.flatMap((_row, index) => [
    predicateCell(index, 0, index % 4 < 2 ? (index % 2 === 0 ? 0.8 : 0.2) : (index % 2 === 0 ? 0.3 : 0.7)),
    predicateCell(index, 1, index % 2 === 0 ? 0.9 : 0.1)
]);
const summary = summarizeExperiment(spec, dataset, cells);
const html = renderExperimentReport(spec, summary, {dataset, generatedAt: new Date("2026-01-02T03:04:05Z")});

test("the report is one self-contained HTML file: no scripts, no external resources", () => {
    assert.match(html, /^<!doctype html>/);
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /\b(src|href)=/i);
    assert.doesNotMatch(html, /url\(/i);
    assert.doesNotMatch(html, /@import/i);
    assert.match(html, /<style>/);
    assert.match(html, /<svg class="chart"/);
});

test("every text from the experiment is escaped", () => {
    assert.ok(html.includes("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"));
    assert.ok(html.includes("<title>Triage &lt;v1&gt; vs &quot;v2&quot;</title>"));
    assert.ok(html.includes("tickets &amp; more.csv"));
    assert.ok(html.includes("m&quot;x"));
});

test("the report names the experiment, dataset, sample and variants, and shows matrix, verdicts, charts and disagreements", () => {
    assert.match(html, /Dataset tickets &amp; more\.csv · every row · 40 rows · 2 variants/);
    assert.match(html, /Support triage v2/);
    assert.match(html, /127\.0\.0\.1:8080/);
    assert.match(html, /\{&quot;temperature&quot;:0\.2\}/);
    const accuracy = summary.differences.find((difference) => difference.metric === "accuracy")!;
    assert.equal(accuracy.better, 1);
    assert.ok(html.includes(accuracy.verdict.replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")));
    assert.match(html, /is better by 0\.50 \(/);
    assert.match(html, /urgent: predicted against observed/);
    assert.match(html, /<h2>Disagreements<\/h2><p class="muted">All \d+ disagreements? on \d+ rows?, the largest spread first\. Spread: [^<]+<\/p><table>/);
    assert.match(html, /generated 2026-01-02 03:04 UTC/);
});

test("a chat experiment's report shows its checks and no calibration section", () => {
    const chat = experiment([chatVariant("short", "small"), chatVariant("long", "large")]);
    const chatCells: CellResult[] = Array.from({length: 20}, (_unused, rowIndex) => [0, 1].map((variant): CellResult => ({rowIndex, variant, ok: true, request: {},
        reply: `=cmd|' /C calc'!A0 ${rowIndex}`, checks: [{name: "grounded", pass: variant === 1, score: variant === 1 ? 0.9 : 0.2}], latencyMs: 10, attempts: 1, completedAt: 0}))).flat();
    const chatRows = Array.from({length: 20}, (_unused, index) => [`q${index}`]);
    const page = renderExperimentReport(chat, summarizeExperiment(chat, {columns: ["question"], rows: chatRows}, chatCells), {dataset: {columns: ["question"], rows: chatRows}});
    assert.match(page, /Pass rate/);
    assert.match(page, /<td title="[^"]*">grounded<\/td>/);
    assert.match(page, /long is better by 1\.00/);
    assert.doesNotMatch(page, /<h2>Calibration<\/h2>/);
    assert.match(page, /local engine/);
});

test("a chat version's own parameters show under Parameters, the variant's over them; one variant is \"1 variant\"", () => {
    const chat = {...chatVariant("C", "small"), params: {max_tokens: 8}};
    chat.version = {...chat.version, prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "{{question}}"}], temperature: 0.7}}};
    const one = experiment([chat]);
    const page = renderExperimentReport(one, summarizeExperiment(one, {columns: ["question"], rows: [["q"]]}, []), {dataset: {name: "q.csv", columns: ["question"], rows: [["q"]]}});
    assert.match(page, /<code>\{&quot;temperature&quot;:0\.7,&quot;max_tokens&quot;:8\}<\/code>/);
    assert.match(page, /every row · 1 row · 1 variant<\/p>/);
});

test("the report names things as the app does: \"Which is better\", and input and output tokens in columns of their own", () => {
    assert.match(html, /<h2>Which is better<\/h2>/);
    assert.doesNotMatch(html, /Is the difference real/);
    assert.match(html, /<th>In tokens<\/th><th>Out tokens<\/th>/);
    // predicateCell's usage: 100 prompt and 1 completion token per cell, 40 cells per variant.
    assert.match(html, /<td class="num" title="Input \(prompt\) tokens over every cell">4,000<\/td><td class="num" title="Output \(completion\) tokens over every cell">40<\/td>/);
});

test("the report writes each rate with its 95% Wilson interval, and says what the interval is", () => {
    // A is right on 20 of 40 rows, B on 40: scipy binomtest(20, 40) and binomtest(40, 40).proportion_ci(method="wilson")
    // give 0.352–0.648 and 0.912–1.
    assert.match(html, />0\.500 \(0\.352–0\.648\)</);
    assert.match(html, />1\.000 \(0\.912–1\.000\)</);
    assert.match(html, /<p class="meta">In brackets, the 95% Wilson score interval of the rate/);
    const brierRow = /<tr><td[^>]*>urgent · Brier<\/td>(.*?)<\/tr>/.exec(html)?.[1] ?? "";
    assert.match(brierRow, /<td class="num"/);
    assert.doesNotMatch(brierRow, /\(/, "a Brier score is no rate: no interval");
});
