// An experiment as a promptfoo config: imported, exported and imported again, a suite keeps its variants, rows and
// checks; what promptfoo cannot say (case-insensitive equals, regex flags, a decision-question grader) is written as
// its nearest promptfoo form and reported; a question-set variant or the app's connection stops the export.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {parse} from "yaml";
import type {Dataset, ExperimentSpec} from "../../types.ts";
import {ImportError} from "../importProblems.ts";
import {nodeSourceFiles} from "../node/nodeSourceFiles.ts";
import {exportPromptfooConfig} from "./exportPromptfoo.ts";
import {importPromptfooConfig} from "./importPromptfoo.ts";

let dir: string;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-promptfoo-export-"));
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

const suite = `description: Round trip
prompts:
  - id: "Capital of {{country}}? One word."
    label: terse
  - label: chatty
    raw: '[{"role": "system", "content": "You are a geographer."}, {"role": "user", "content": "What is the capital of {{country}}?"}]'
providers:
  - id: openai:chat:qwen
    label: qwen
    config: {apiBaseUrl: "http://127.0.0.1:8080/v1", apiKeyEnvar: QWEN_KEY, temperature: 0, max_tokens: 30}
  - id: openai:responses:gemma
    label: gemma
    config: {apiBaseUrl: "http://127.0.0.1:8081", max_output_tokens: 30}
defaultTest:
  assert:
    - {type: not-icontains, value: sorry}
tests:
  - vars: {country: France}
    assert:
      - {type: equals, value: Paris}
      - {type: llm-rubric, value: "names the capital of {{country}}", threshold: 0.6}
  - vars: {country: Japan}
    assert:
      - {type: icontains-any, value: [tokyo, edo]}
      - {type: regex, value: "^[A-Z]"}
      - {type: starts-with, value: Tok}
  - vars: {country: Peru}
    assert:
      - {type: is-json, value: {type: object, required: [capital]}}
      - {type: not-contains-json}
      - {type: is-valid-openai-tools-call}
`;

/** What a round trip must keep: everything but ids, times, notes and item ids. */
function essence(spec: ExperimentSpec) {
    const dataset = spec.dataset as Dataset;
    return {
        variants: spec.variants.map((variant) => ({name: variant.name, connection: variant.connection, params: variant.params, prompt: variant.version.prompt})),
        columns: dataset.columns, rows: dataset.rows, inputColumns: dataset.inputColumns, labelColumns: dataset.labelColumns, checks: spec.checks
    };
}

async function roundTrip(text: string, name: string) {
    const config = path.join(dir, `${name}.yaml`);
    await writeFile(config, text);
    const first = await importPromptfooConfig(config, nodeSourceFiles, {id: name});
    const exported = exportPromptfooConfig(first.spec, first.spec.dataset as Dataset, `${name}.svc-experiment.json`);
    const again = path.join(dir, `${name}.exported.yaml`);
    await writeFile(again, exported.yaml);
    return {first, exported, second: await importPromptfooConfig(again, nodeSourceFiles, {id: name})};
}

test("import, export and import again: the same variants, rows and checks", async () => {
    const {first, exported, second} = await roundTrip(suite, "suite");
    assert.deepEqual(first.report.lines(), []);
    assert.deepEqual(exported.report.lines(), []);
    assert.deepEqual(second.report.lines(), []);
    // The model ids (qwen, gemma) become the service's own: promptfoo sends to <server>/svc-1/v1.
    assert.deepEqual(first.spec.variants.map((variant) => variant.model), ["qwen", "qwen", "gemma", "gemma"]);
    assert.deepEqual(second.spec.variants.map((variant) => variant.model), [undefined, undefined, undefined, undefined]);
    assert.deepEqual(essence(second.spec), essence(first.spec));
    assert.equal(first.spec.variants.length, 4);
    assert.equal(first.spec.checks.length, 9);
    const config = parse(exported.yaml) as {providers: Array<{id: string, label: string, prompts: string[], config: Record<string, unknown>}>};
    assert.deepEqual(config.providers.map((provider) => [provider.id, provider.label, provider.prompts, provider.config.apiBaseUrl, provider.config.apiKeyEnvar]), [
        ["openai:chat:svc-1", "qwen · terse", ["terse"], "http://127.0.0.1:8080/svc-1/v1", "QWEN_KEY"],
        ["openai:chat:svc-1", "qwen · chatty", ["chatty"], "http://127.0.0.1:8080/svc-1/v1", "QWEN_KEY"],
        ["openai:responses:svc-1", "gemma · terse", ["terse"], "http://127.0.0.1:8081/svc-1/v1", "SVC_API_KEY"],
        ["openai:responses:svc-1", "gemma · chatty", ["chatty"], "http://127.0.0.1:8081/svc-1/v1", "SVC_API_KEY"]
    ]);
    assert.match(exported.yaml, /^# Grader "llm-rubric" is a decision question in Svc Studio, "Does the output meet the rubric\?", whose P\(yes\) passes at 0\.6/m);
});

test("a test threshold with weights goes out as the tests' threshold and comes back as the same weighted check", async () => {
    const {first, second, exported} = await roundTrip(`prompts: ["{{q}}"]
providers: [{id: openai:chat:m, config: {apiBaseUrl: "http://127.0.0.1:8080"}}]
defaultTest: {threshold: 0.5}
tests:
  - vars: {q: a}
    assert: [{type: contains, value: x, weight: 2}, {type: is-json}]
  - vars: {q: b}
    assert: [{type: contains, value: y, weight: 2}]
`, "weights");
    assert.equal(first.spec.checks[0].kind, "weighted");
    assert.deepEqual(second.spec.checks, first.spec.checks);
    assert.deepEqual((parse(exported.yaml) as {tests: unknown[]}).tests, [
        {vars: {q: "a"}, assert: [{type: "contains", value: "x", weight: 2}, {type: "is-json"}], threshold: 0.5},
        {vars: {q: "b"}, assert: [{type: "contains", value: "y", weight: 2}], threshold: 0.5}
    ]);
});

const chatVariant = (connection: ExperimentSpec["variants"][number]["connection"]): ExperimentSpec["variants"][number] => ({
    name: "A", connection, version: {itemId: "p", itemName: "p", version: 1, note: "", createdAt: 0, prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "Rate {{text}}"}], temperature: 0.2}}}
});
const dataset: Dataset = {id: "d", name: "d", columns: ["text", "label"], columnTypes: ["string", "string"], rows: [["good", "Yes"], ["bad", "No"]], labelColumns: ["label"], inputColumns: ["text"], createdAt: 0, updatedAt: 0};
const experiment = (extra: Partial<ExperimentSpec>): ExperimentSpec => ({
    format: "svc-experiment", version: 1, id: "e", name: "e", dataset, sample: {kind: "all"}, seed: 1, createdAt: 0, checks: [], variants: [chatVariant({baseUrl: "http://127.0.0.1:9000"})], ...extra
});

test("what promptfoo cannot say: case-insensitive equals as javascript, regex flags reported, a grader's own template as context", () => {
    const {yaml, report} = exportPromptfooConfig(experiment({checks: [
        {kind: "equals", column: "label"}, {kind: "regex", pattern: "^y", flags: "i"},
        {kind: "grader", name: "fair", question: "Is the rating fair?", template: "Text: {{text}}\nRating: {{reply}}", threshold: 0.7}
    ]}), dataset, "e.svc-experiment.json");
    const config = parse(yaml) as {providers: Array<{config: Record<string, unknown>}>, tests: Array<{vars: unknown, assert: unknown[]}>};
    assert.deepEqual(config.providers[0].config, {apiBaseUrl: "http://127.0.0.1:9000/svc-1/v1", apiKeyEnvar: "SVC_API_KEY", temperature: 0.2});
    assert.deepEqual(config.tests[0], {vars: {text: "good"}, assert: [
        {type: "javascript", value: "(output.trim().toLowerCase() === \"yes\")"},
        {type: "regex", value: "^y"},
        {type: "llm-rubric", value: "Is the rating fair?\n\nText: good\nRating:", threshold: 0.7}
    ]});
    assert.deepEqual(report.lines("exported"), ["not exported: e.svc-experiment.json: checks[1].flags: promptfoo's regex assertion takes no flags: the pattern is exported without them (and 1 more like it)"]);
});

test("a question-set variant, or the app's connection, stops the export with its field", () => {
    assert.throws(() => exportPromptfooConfig(experiment({variants: [chatVariant({profile: "local"})]}), dataset, "e.json"),
        (error: unknown) => error instanceof ImportError && /^e\.json: variants\[0\]\.connection: the app's connection "local": pass --local <url>/.test(error.message));
    const decision: ExperimentSpec["variants"][number] = {name: "Q", connection: {baseUrl: "http://127.0.0.1:9000"}, version: {itemId: "q", itemName: "q", version: 1, note: "", createdAt: 0,
        prompt: {kind: "decision", input: {kind: "template", template: "{{text}}"}, questionSet: {format: "decisions", questions: [{type: "predicate", name: "label", instructions: "Good?"}]}}}};
    assert.throws(() => exportPromptfooConfig(experiment({variants: [decision]}), dataset, "e.json"), /variants\[0\]\.version\.prompt: a question-set variant has no promptfoo counterpart/);
});
