// An experiment's input before anything is sent: the file read field by field, the dataset file (sheets, row limit),
// variables, checks, labels and repeated rows, and the estimate (thresholds: thresholds.test.ts).
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import type {CallContext} from "../scoring/TaskRunner.ts";
import {checkProblems, compileChecks} from "./checks.ts";
import {checkExperimentInput, ExperimentInputError, maxDatasetRows, maxExperimentRows, sampleIndexes} from "./dataset.ts";
import {estimateExperiment} from "./estimate.ts";
import {ExperimentFileError, parseExperimentSpec, serializeExperimentSpec} from "./experimentFile.ts";
import {readDatasetFile} from "./node/experimentFiles.ts";
import type {Dataset, ExperimentSpec, Variant} from "./types.ts";
import {bodyVariables, compileBody, VariableError} from "./variables.ts";

let dir: string;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-experiment-input-"));
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

const dataset: Dataset = {
    id: "d", name: "reviews", columns: ["text", "positive", "topic"], columnTypes: ["string", "string", "string"],
    rows: [["great", "yes", "price"], ["awful", "no", "quality"], ["fine", "", "price"], ["meh", "maybe", "price"]],
    labelColumns: ["positive", "topic"], inputColumns: ["text"], createdAt: 0, updatedAt: 0
};
const chat: Variant = {
    name: "A", connection: {baseUrl: "http://127.0.0.1:8080"}, params: {max_tokens: 10},
    version: {itemId: "p", itemName: "p", version: 1, note: "", createdAt: 0, prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "system", content: "Be brief."}, {role: "user", content: "Review: {{text}}"}]}}}
};
const decision: Variant = {
    name: "B", connection: {baseUrl: "http://127.0.0.1:8080"},
    version: {itemId: "q", itemName: "q", version: 1, note: "", createdAt: 0, prompt: {kind: "decision", input: {kind: "template", template: "{{text}}"},
        questionSet: {format: "decisions", questions: [{type: "predicate", name: "positive", instructions: "Positive?"}]}}}
};
const spec = (extra: Partial<ExperimentSpec> = {}): ExperimentSpec => ({
    format: "svc-experiment", version: 1, id: "e", name: "e", dataset, sample: {kind: "all"}, variants: [chat, decision], checks: [], seed: 1, createdAt: 0, ...extra
});
const context: CallContext = {signal: new AbortController().signal, timeoutMs: 1000, retry: {}};

test("the file: every field checked with its path; written as the app exports it and read back the same", () => {
    const file = serializeExperimentSpec(spec({checks: [{kind: "regex", pattern: "^ok", flags: "i"}]}));
    assert.deepEqual(parseExperimentSpec(file), spec({checks: [{kind: "regex", pattern: "^ok", flags: "i"}]}));
    const broken = (change: (json: Record<string, unknown>) => void) => {
        const json = JSON.parse(file) as Record<string, unknown>;
        change(json);
        return () => parseExperimentSpec(json);
    };
    assert.throws(broken((json) => (json.variants as Variant[])[1].connection = {baseUrl: "localhost 8080"}), /^ExperimentFileError: variants\[1\]\.connection\.baseUrl: must be a URL/);
    assert.throws(broken((json) => (json.variants as Variant[])[1].name = "A"), /variants\[1\]\.name: "A" is the name of an earlier variant/);
    assert.throws(broken((json) => json.colour = "blue"), /colour: is not a recognised field/);
    assert.throws(broken((json) => json.version = 2), /version: must be 1/);
    assert.throws(broken((json) => json.checks = [{kind: "grader", name: "g", question: "?", template: "x", threshold: 2}]), /checks\[0\]\.threshold/);
    assert.throws(() => parseExperimentSpec("{"), ExperimentFileError);
});

test("variables fill every string of a body, deep, and one naming no column is refused with its field", () => {
    const body = {messages: [{role: "user", content: [{type: "text", text: "{{text}} / {{ topic }}"}]}], response_format: {type: "json_schema", json_schema: {description: "About {{topic}}"}}, temperature: 0.2};
    assert.deepEqual(bodyVariables(body), ["text", "topic"]);
    // topic is a label column: the prompt may name it only once it is ticked as seen by the model.
    assert.throws(() => compileBody(body, dataset), (error: unknown) => error instanceof VariableError && error.path === "body.messages[0].content[0].text" && /label column "topic"/.test(error.message));
    const filled = compileBody(body, {...dataset, inputColumns: ["text", "topic"]})(dataset.rows[1]);
    assert.deepEqual(filled, {messages: [{role: "user", content: [{type: "text", text: "awful / quality"}]}], response_format: {type: "json_schema", json_schema: {description: "About quality"}}, temperature: 0.2});
    assert.throws(() => compileBody({input: "{{txt}}"}, dataset), (error: unknown) => error instanceof VariableError && error.path === "body.input" && /no column named "txt"/.test(error.message));
});

test("checks: equals, contains, RE2 regex, JSON, schema and a grader's P(yes); problems named before anything is sent", async () => {
    const checks = compileChecks([
        {kind: "equals", column: "topic"}, {kind: "contains", column: "topic", caseSensitive: true}, {kind: "regex", pattern: "^\\w+$"},
        {kind: "is_json"}, {kind: "json_schema", schema: {type: "object", required: ["topic"], properties: {topic: {type: "string", pattern: "^p"}}}},
        {kind: "grader", name: "on_topic", question: "On topic?", template: "{{text}} -> {{reply}}", threshold: 0.7}
    ], dataset.columns);
    const asked: string[] = [];
    const grade = async (body: {input: string}) => {
        asked.push(body.input);
        return {type: "predicate", name: "on_topic", probability: 0.6};
    };
    const results = await checks.run("{\"topic\": \"price\"}", dataset.rows[0], grade as never, context);
    assert.deepEqual(results.map((result) => [result.name, result.pass, result.score]), [
        ["equals_topic", false, 0], ["contains_topic", true, 1], ["regex", false, 0], ["is_json", true, 1], ["json_schema", true, 1], ["on_topic", false, 0.6]
    ]);
    assert.deepEqual(asked, ["great -> {\"topic\": \"price\"}"]);
    assert.equal((await checks.run(" PRICE ", dataset.rows[0], grade as never, context))[0].pass, true, "equals ignores case and outer spaces");
    const problems = checkProblems([
        {kind: "equals", column: "answer"}, {kind: "regex", pattern: "(a)\\1"}, {kind: "json_schema", schema: {type: "nonsense"}},
        {kind: "grader", name: "g", question: "?", template: "{{text}} only"}, {kind: "regex", pattern: "x", flags: "g"}
    ], dataset.columns);
    assert.deepEqual(problems.map((problem) => problem.path), ["checks[0].column", "checks[1].pattern", "checks[2].schema", "checks[3].template", "checks[4].flags"]);
    assert.match(problems[3].message, /must hold \{\{reply\}\}/);
});

test("the input checks: variables, labels outside the choices or missing, repeated rows, the sample's size", () => {
    const bad = spec({
        variants: [{...chat, version: {...chat.version, prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "{{review}}"}]}}}}, decision],
        checks: [{kind: "grader", name: "g", question: "?", template: "no reply here"}]
    });
    const {errors, warnings} = checkExperimentInput(bad, {...dataset, rows: [...dataset.rows, ["great", "yes", "price"]]}, [0, 1, 2, 3, 4]);
    assert.deepEqual(errors.map((problem) => problem.path), ["variants[0].version.prompt.body.messages[0].content", "checks[0].template", "dataset.columns[\"positive\"]", "dataset.rows"]);
    assert.match(errors[2].message, /1 label is none of question "positive"'s answers \(true \/ false, yes \/ no, y \/ n, t \/ f or 1 \/ 0, any case\) in variant B \(variants\[1\]\): row 4 "maybe"/);
    assert.match(errors[3].message, /1 row repeats an earlier row exactly \(row 5 = row 1\)/);
    assert.deepEqual(warnings.map((problem) => problem.message), ["1 of 5 rows have no label for question \"positive\" (row 3); its metrics use the labelled rows"]);

    const many: Dataset = {...dataset, rows: Array.from({length: maxExperimentRows + 1}, (_, index) => [`text ${index}`, "yes", "price"])};
    const tooMany = checkExperimentInput(spec(), many, sampleIndexes(many, {kind: "all"}));
    assert.match(tooMany.errors[0].message, /takes 50,001 rows, more than the 50,000 an experiment runs: run on a sample/);
    assert.deepEqual(checkExperimentInput(spec(), many, sampleIndexes(many, {kind: "random", n: 100, seed: 3})).errors, []);
});

test("dataset files: an XLSX with several sheets must name one; a CSV over the row limit is refused", async () => {
    const xlsx = path.join(dir, "two.xlsx");
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Notes").addRows([["note"], ["x"]]);
    workbook.addWorksheet("Data").addRows([["text", "label"], ["good", "yes"], ["bad", "no"]]);
    await workbook.xlsx.writeFile(xlsx);
    await assert.rejects(readDatasetFile({file: "two.xlsx", labelColumns: ["label"]}, dir),
        (error: unknown) => error instanceof ExperimentInputError && /dataset\.sheet: two\.xlsx has 2 sheets \("Notes", "Data"\): name the one to use/.test(error.message));
    const read = await readDatasetFile({file: "two.xlsx", sheet: "Data", labelColumns: ["label"]}, dir);
    assert.deepEqual([read.columns, read.rows, read.inputColumns], [["text", "label"], [["good", "yes"], ["bad", "no"]], ["text"]]);
    await assert.rejects(readDatasetFile({file: "two.xlsx", sheet: "Data", labelColumns: ["gold"]}, dir), /dataset\.labelColumns\[0\]: two\.xlsx has no column "gold"/);

    const csv = path.join(dir, "big.csv");
    await writeFile(csv, `id,text\n${Array.from({length: maxDatasetRows + 1}, (_, index) => `${index},row ${index}`).join("\n")}\n`);
    await assert.rejects(readDatasetFile({file: "big.csv", labelColumns: []}, dir), /big\.csv has more than 100,000 rows, the most a dataset holds: sample or split the file first/);
});

test("the estimate: requests (graders included), prompt tokens from the filled requests, output budgets, time", () => {
    const experiment = spec({checks: [{kind: "grader", name: "g", question: "Good?", template: "{{reply}}"}], concurrency: 2});
    const estimate = estimateExperiment(experiment, dataset, [0, 1, 2, 3], {secondsPerRequest: 0.5});
    assert.equal(estimate.cells, 8);
    assert.equal(estimate.requests, 4 * 2 + 4);
    assert.deepEqual(estimate.variants.map((variant) => [variant.name, variant.requests, variant.outputTokens]), [["A", 8, 40], ["B", 4, 0]]);
    assert.ok(estimate.promptTokens > 0);
    assert.equal(estimate.seconds, 12 * 0.5 / 2);
    assert.equal(estimate.measured, true);
});
