// An OpenAI eval (test/fixtures/openai-evals, written after the Evals API reference) as an experiment: items as rows,
// string_check / label_model / score_model as checks, a run's template, model and sampling parameters as a variant;
// what has no counterpart reported with its line; bad input named by file, line and field.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import type {CallContext} from "../../../scoring/TaskRunner.ts";
import {compileChecks} from "../../checks.ts";
import {parseExperimentResults, serializeExperimentResults} from "../../resultsFile.ts";
import type {Dataset} from "../../types.ts";
import {ImportError} from "../importProblems.ts";
import {nodeSourceFiles} from "../node/nodeSourceFiles.ts";
import {importOpenAiEval} from "./importOpenAiEval.ts";

const fixtures = fileURLToPath(new URL("../../../../test/fixtures/openai-evals/", import.meta.url));
const fixture = (name: string) => path.join(fixtures, name);
let dir: string;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-openai-eval-"));
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

const context: CallContext = {signal: new AbortController().signal, timeoutMs: 1000, retry: {}};

test("the eval's items, graders and run become rows, checks and a variant; the rest is reported at its line", async () => {
    const {spec, report} = await importOpenAiEval({evalFile: fixture("eval.json"), runFiles: [fixture("run.json")], dataFile: fixture("items.jsonl"), id: "news"}, nodeSourceFiles);
    assert.equal(spec.name, "News headline topics");
    const dataset = spec.dataset as Dataset;
    assert.deepEqual(dataset.columns, ["headline", "topic", "source", "Answers something reference"]);
    assert.deepEqual(dataset.rows.map((row) => row.slice(0, 3)), [
        ["Central bank holds rates steady as inflation cools", "Markets", "wire"], ["Chipmaker unveils faster AI accelerator", "Technology", "wire"],
        ["Underdogs win the cup final on penalties", "Sports", "blog"], ["Ceasefire talks resume in Geneva", "World", null]
    ]);
    assert.deepEqual([dataset.inputColumns, dataset.labelColumns], [["headline"], ["topic", "Answers something reference"]]);
    assert.deepEqual(spec.variants.map((variant) => [variant.name, variant.model, variant.connection, variant.params, variant.version.prompt]), [[
        "gpt-4o-mini terse", "gpt-4o-mini", {profile: "local"}, {seed: 42, temperature: 1, top_p: 1, max_tokens: 2048},
        {kind: "chat", endpoint: "chat", body: {messages: [
            {role: "developer", content: "Categorize the news headline into one of: Technology, Markets, World, Business, Sports. Answer with the topic only."},
            {role: "user", content: "{{headline}}"}
        ]}}
    ]]);
    assert.deepEqual(spec.checks, [
        {kind: "equals", column: "topic", caseSensitive: true},
        {kind: "contains", column: "topic", caseSensitive: false},
        {kind: "equals", column: "Answers something reference", caseSensitive: true, negate: true},
        {kind: "grader", name: "Tone", question: "Label the tone of the answer to a news headline classification task.", template: "Headline: {{headline}}\nAnswer: {{reply}}",
            labels: ["neutral", "opinionated", "off-topic"], passing: ["neutral"]},
        // pass_threshold 0.6 on the range [0, 1], asked over five levels.
        {kind: "grader", name: "Confidence", question: "Score from 0 to 1 how plainly the answer names exactly one topic.", template: "{{reply}}", levels: [0, 0.25, 0.5, 0.75, 1], threshold: 0.6}
    ]);
    assert.deepEqual(report.items.map((item) => `${path.basename(item.file)}:${item.line}: ${item.field} x${item.count}`), [
        "eval.json:101: metadata x1",
        "eval.json:61: testing_criteria[3].model x2",
        "eval.json:80: testing_criteria[4].sampling_params x1",
        "eval.json:82: testing_criteria[5] x1",
        "eval.json:91: testing_criteria[6] x1",
        "run.json:10: result_counts x1",
        "items.jsonl:4: sample x1"
    ]);
    assert.match(report.lines()[3], /text_similarity "Close to the topic": text similarity metrics/);
    assert.match(report.lines()[4], /python "One word": a Python grader is not imported/);
});

test("string_check passes and fails as OpenAI's operations do (eq, ilike, ne)", async () => {
    const {spec} = await importOpenAiEval({evalFile: fixture("eval.json"), runFiles: [fixture("run.json")], id: "news"}, nodeSourceFiles);
    const dataset = spec.dataset as Dataset;
    assert.equal(dataset.rows.length, 3, "without --data, the run's inline file_content");
    const checks = compileChecks(spec.checks.filter((check) => check.kind !== "grader"), dataset.columns);
    const outcome = async (reply: string) => (await checks.run(reply, dataset.rows[0], async () => {
        throw new Error("no grader");
    }, context)).map((result) => result.pass);
    assert.deepEqual(await outcome("Markets"), [true, true, true]);
    assert.deepEqual(await outcome("markets, mostly"), [false, true, true]);
    assert.deepEqual(await outcome(""), [false, false, false]);
});

test("bad input: the file, line and field at fault", async () => {
    const failure = async (input: Partial<Parameters<typeof importOpenAiEval>[0]>) => {
        const error = await importOpenAiEval({evalFile: fixture("eval.json"), runFiles: [fixture("run.json")], id: "x", ...input}, nodeSourceFiles).then(() => null, (thrown: unknown) => thrown);
        assert.ok(error instanceof ImportError, String(error));
        return error.message.replaceAll(fixtures, "<fixtures>/").replaceAll(dir, "<dir>");
    };
    await writeFile(path.join(dir, "broken.jsonl"), "{\"item\": {\"headline\": \"a\", \"topic\": \"b\"}}\n{\"item\": {\"headline\": \"c\"\n");
    assert.match(await failure({dataFile: path.join(dir, "broken.jsonl")}), /^<dir>\/broken\.jsonl:2: not JSON: /);
    await writeFile(path.join(dir, "bare.jsonl"), "{\"headline\": \"a\", \"topic\": \"b\"}\n");
    assert.equal(await failure({dataFile: path.join(dir, "bare.jsonl")}), "<dir>/bare.jsonl:1: each line of an eval's data is an object with its item: {\"item\": {...}}");
    assert.equal(await failure({dataFile: path.join(dir, "absent.jsonl")}), "<dir>/absent.jsonl: --data: no such file: <dir>/absent.jsonl");
    assert.match(await failure({runFiles: []}), /^<fixtures>\/eval\.json: an eval holds no prompt: give one of its runs \(--run run\.json\)/);
    const run = JSON.parse(await readFile(fixture("run.json"), "utf8")) as {data_source: {source: unknown, input_messages: {template: Array<{content: {text: string}}>}}};
    run.data_source.source = {type: "file_id", id: "file-abc123"};
    await writeFile(path.join(dir, "uploaded.json"), JSON.stringify(run, null, 2));
    assert.equal(await failure({runFiles: [path.join(dir, "uploaded.json")]}), "<dir>/uploaded.json:35: data_source.source: the run's data is the uploaded file \"file-abc123\": pass --data <file.jsonl> with its lines");
    run.data_source.input_messages.template[1].content.text = "{{item.headline.text}}";
    await writeFile(path.join(dir, "nested.json"), JSON.stringify(run, null, 2));
    assert.match(await failure({runFiles: [path.join(dir, "nested.json")], dataFile: fixture("items.jsonl")}), /^<dir>\/nested\.json:\d+: data_source\.input_messages\.template\[1\]: \{\{item\.headline\.text\}\} has no counterpart/);
});

test("the run's output items are that run's results: the replies, string checks judged again, OpenAI's grades kept", async () => {
    const {spec, report, previous} = await importOpenAiEval({evalFile: fixture("eval.json"), runFiles: [fixture("run.json")], outputItemsFile: fixture("output_items.json"), id: "news"}, nodeSourceFiles);
    assert.ok(previous !== undefined);
    // A results file the app and svc-studio eval --baseline read: the run's variant alone, the rows of the sample.
    const read = parseExperimentResults(serializeExperimentResults(previous));
    assert.deepEqual(read.experiment.variants.map((variant) => variant.name), [spec.variants[0].name]);
    assert.deepEqual(read.rowIndexes, [0, 1, 2]);
    assert.deepEqual(read.cells.map((cell) => [cell.rowIndex, cell.reply, cell.usage, (cell.checks ?? []).map((check) => [check.name, check.pass, check.score])]), [
        [0, "Markets", {promptTokens: 62, completionTokens: 1, totalTokens: 63},
            [["equals_topic", true, 1], ["contains_topic", true, 1], ["equals_Answers something reference", true, 1], ["Tone", true, 1], ["Confidence", true, 0.9]]],
        [1, "Business, or maybe technology", {promptTokens: 60, completionTokens: 6, totalTokens: 66},
            [["equals_topic", false, 0], ["contains_topic", true, 1], ["equals_Answers something reference", true, 1], ["Tone", false, 0], ["Confidence", false, 0.4]]]
    ]);
    assert.match(report.notes.join("\n"), /the previous run has no output for 1 of the 3 rows/);
});
