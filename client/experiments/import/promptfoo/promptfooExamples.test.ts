// The configs promptfoo ships (test/fixtures/promptfoo, copied from its examples/ folder): each imports with the
// variants, rows and checks its fields make, and the report of what was not imported lists exactly the fields that
// were left out, each at its line, and nothing else.
import {test} from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import {fileURLToPath} from "node:url";
import type {Check, Dataset} from "../../types.ts";
import {ImportError, type ImportReport} from "../importProblems.ts";
import {nodeSourceFiles} from "../node/nodeSourceFiles.ts";
import {importPromptfooConfig} from "./importPromptfoo.ts";

const fixtures = fileURLToPath(new URL("../../../../test/fixtures/promptfoo/", import.meta.url));
const load = (name: string) => importPromptfooConfig(path.join(fixtures, name, "promptfooconfig.yaml"), nodeSourceFiles, {id: name});
/** Each entry left out as "file:line: field xN (the start of its reason)". */
const leftOut = (report: ImportReport) => report.items.map((item) => `${path.basename(item.file)}:${item.line}: ${item.field} x${item.count} (${item.reason.slice(0, 40)})`);
/** A check as kind, column or name, scope. */
const brief = (check: Check) => [check.kind, "column" in check ? check.column : "name" in check ? check.name : "", check.when ?? "", check.negate === true];

test("getting-started: two prompts on two providers are four variants; contains and icontains; nothing left out", async () => {
    const {spec, report} = await load("getting-started");
    assert.deepEqual(spec.variants.map((variant) => [variant.name, variant.model, variant.connection]), [
        ["openai:gpt-4.1 · prompt 1", "gpt-4.1", {profile: "local"}], ["openai:gpt-4.1 · prompt 2", "gpt-4.1", {profile: "local"}],
        ["openai:o4-mini · prompt 1", "o4-mini", {profile: "local"}], ["openai:o4-mini · prompt 2", "o4-mini", {profile: "local"}]
    ]);
    assert.deepEqual((spec.dataset as Dataset).rows, [["French", "Hello world", "Bonjour le monde", null], ["Spanish", "Where is the library?", null, "Dónde está la biblioteca"]]);
    assert.deepEqual(spec.checks, [{kind: "contains", column: "contains", caseSensitive: true, when: "contains"}, {kind: "contains", column: "icontains", caseSensitive: false, when: "icontains"}]);
    assert.deepEqual(leftOut(report), []);
});

test("simple-test: the prompts file's two prompts, $ref'd assertion templates; code, similar and outputPath left out", async () => {
    const {spec, report} = await load("simple-test");
    assert.deepEqual(spec.variants.map((variant) => variant.name), ["prompts.txt #1", "prompts.txt #2"]);
    const dataset = spec.dataset as Dataset;
    assert.deepEqual(dataset.columns, ["body", "description", "equals", "icontains", "is-json", "llm-rubric"]);
    // The $ref'd template (icontains arrr) and the grub check share the icontains column.
    assert.deepEqual(dataset.rows.map((row) => row[3]), [null, "grub", null, null, "arrr"]);
    assert.deepEqual(spec.checks.map(brief), [["equals", "equals", "equals", false], ["contains", "icontains", "icontains", false], ["is_json", "", "is-json", false], ["grader", "llm-rubric", "llm-rubric", false]]);
    assert.deepEqual(leftOut(report), [
        "promptfooconfig.yaml:52: outputPath x1 (outputPath has no counterpart in an expe)",
        "promptfooconfig.yaml:32: tests[3].assert[0] x1 (javascript: code assertions are not impo)",
        "promptfooconfig.yaml:34: tests[3].assert[1] x1 (python: code assertions are not imported)",
        "promptfooconfig.yaml:38: tests[3].assert[2] x1 (similar has no check in an experiment)"
    ]);
});

test("assistant-cli: ten CSV rows of variables, two prompts, no checks, nothing left out", async () => {
    const {spec, report} = await load("assistant-cli");
    const dataset = spec.dataset as Dataset;
    assert.deepEqual([dataset.columns, dataset.rows.length, dataset.rows[0]], [["name", "question"], 10, ["Bob", "Can you help me find a specific product on your website?"]]);
    assert.equal(spec.variants.length, 2);
    assert.deepEqual(spec.checks, []);
    assert.deepEqual(leftOut(report), []);
});

test("openai-tools-call: tools as a parameter, the tools-call check; transforms, code and unknown parameters left out", async () => {
    const {spec, report} = await load("openai-tools-call");
    assert.deepEqual(Object.keys(spec.variants[0].params ?? {}), ["tools"]);
    assert.deepEqual(spec.checks.map(brief), [["is_json", "", "is-json", false], ["tool_calls", "", "is-valid-openai-tools-call", false]]);
    assert.deepEqual((spec.dataset as Dataset).rows.map((row) => row[0]), ["Boston", "New York", "Paris", "Mars"]);
    assert.deepEqual(leftOut(report), [
        "promptfooconfig.yaml:10: providers[0].config.reasoning_effort x1 (reasoning_effort is no request parameter)",
        "promptfooconfig.yaml:11: providers[0].config.verbosity x1 (verbosity is no request parameter of cha)",
        "promptfooconfig.yaml:46: tests[1].assert[0] x1 (an assertion of a test whose options.tra)",
        "promptfooconfig.yaml:56: tests[2].assert[0].transform x1 (equals: an assertion on a transformed ou)",
        "promptfooconfig.yaml:61: tests[2].assert[1].transform x1 (similar: an assertion on a transformed o)",
        "promptfooconfig.yaml:34: tests[0].assert[2] x2 (javascript: code assertions are not impo)"
    ]);
    assert.match(report.notes.join("\n"), /offers tools: promptfoo's output of a tool call is the calls' JSON/);
});

test("json-output: is-json on the untransformed test; the transformed test's three assertions and the code left out", async () => {
    const {spec, report} = await load("json-output");
    assert.deepEqual(spec.checks, [{kind: "is_json", when: "is-json"}]);
    assert.deepEqual((spec.dataset as Dataset).rows, [["Banana", "yes"], ["Passion fruit", null]]);
    assert.deepEqual(leftOut(report), [
        "promptfooconfig.yaml:24: tests[1].assert[0] x3 (an assertion of a test whose options.tra)",
        "promptfooconfig.yaml:14: tests[0].assert[1] x1 (javascript: code assertions are not impo)"
    ]);
});

test("simple-csv: the prompt with a Nunjucks filter left out, the other run on the CSV's rows with its __expected check", async () => {
    const {spec, report} = await load("simple-csv");
    assert.deepEqual(spec.variants.map((variant) => variant.name), ["prompts.txt #2"]);
    const dataset = spec.dataset as Dataset;
    assert.deepEqual(dataset.columns, ["language", "body", "style_config", "icontains"]);
    assert.deepEqual(dataset.rows.map((row) => row[3]), ["bonjour", "faim", "Ahoy", "grub"]);
    assert.deepEqual(spec.checks, [{kind: "contains", column: "icontains", caseSensitive: false}]);
    assert.deepEqual(leftOut(report), ["promptfooconfig.yaml:3: prompts[0] x1 (this prompt is not imported: \"{{ (style_)"]);
});

test("eval-customer-support-rubric: the echo provider cannot be a variant, so nothing is written; the report is whole", async () => {
    const error = await load("eval-customer-support-rubric").then(() => null, (thrown: unknown) => thrown);
    assert.ok(error instanceof ImportError);
    assert.match(error.message, /promptfooconfig\.yaml:11: providers: no provider could be imported/);
    assert.deepEqual(leftOut(error.report!), [
        "promptfooconfig.yaml:11: providers[0] x1 (echo: only OpenAI-compatible chat and Re)",
        "promptfooconfig.yaml:19: defaultTest.options.provider x1 (a test's options.provider has no counter)",
        "promptfooconfig.yaml:22: defaultTest.assert[0].metric x5 (an assertion's metric is not imported (t)",
        "tests.csv:2: __metadata:severity x8 (the __metadata:severity column has no co)",
        "tests.csv:5: threshold x1 (the tests' thresholds differ (or some te)"
    ]);
    assert.match(error.report!.notes.join("\n"), /the variable reply is the column reply_var/);
});
