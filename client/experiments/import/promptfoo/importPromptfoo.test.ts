// A promptfoo config as an experiment: prompts × providers as variants, tests as rows, assertions as checks that
// pass and fail on the same replies as promptfoo's (computed by hand from promptfoo's assertion rules), the report
// of what was left out, and bad input named by file, line and field.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdir, mkdtemp, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import type {CallContext} from "../../../scoring/TaskRunner.ts";
import {compileChecks} from "../../checks.ts";
import type {Dataset} from "../../types.ts";
import {ImportError} from "../importProblems.ts";
import {nodeSourceFiles} from "../node/nodeSourceFiles.ts";
import {importPromptfooConfig} from "./importPromptfoo.ts";
import {assertionFromCell, commaValues} from "./promptfooTests.ts";

let dir: string;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-promptfoo-import-"));
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

async function files(folder: string, contents: Record<string, string>): Promise<string> {
    const root = path.join(dir, folder);
    await mkdir(root, {recursive: true});
    for (const [name, text] of Object.entries(contents)) await writeFile(path.join(root, name), text);
    return path.join(root, "promptfooconfig.yaml");
}

const importFile = (file: string) => importPromptfooConfig(file, nodeSourceFiles, {id: "suite"});
const context: CallContext = {signal: new AbortController().signal, timeoutMs: 1000, retry: {}};

const capitals = `description: Capitals
prompts:
  - "Capital of {{country}}? One word."
  - id: file://chat.json
    label: chat
providers:
  - id: openai:chat:qwen
    label: qwen
    config: {apiBaseUrl: "http://127.0.0.1:8080/v1", temperature: 0, max_tokens: 20, apiKeyEnvar: SVC_KEY, organization: acme}
  - anthropic:messages:claude-sonnet
defaultTest:
  assert:
    - type: not-icontains
      value: sorry
tests:
  - description: France
    vars: {country: France}
    assert:
      - type: icontains
        value: "{{city}}"
      - type: llm-rubric
        value: names a city
        threshold: 0.7
    options: {provider: openai:gpt-4o}
  - vars: {country: [Japan, Korea]}
    assert:
      - type: contains-any
        value: [Tokyo, Seoul]
      - type: javascript
        value: output.length < 50
  - file://more.csv
`;

test("prompts × OpenAI-compatible providers are variants; tests are rows; assertions are checks over label columns", async () => {
    const file = await files("capitals", {
        "promptfooconfig.yaml": capitals.replace("vars: {country: France}", "vars: {country: France, city: Paris}"),
        "chat.json": JSON.stringify([{role: "system", content: "Answer tersely."}, {role: "user", content: "Capital of {{ country }}?"}]),
        "more.csv": "country,__expected,__expected2,__metadata:topic\nItaly,icontains: Rome,not-contains: Milan,geo\nSpain,Madrid,,geo\n"
    });
    const {spec, report} = await importFile(file);
    assert.equal(spec.name, "Capitals");
    assert.deepEqual(spec.variants.map((variant) => [variant.name, variant.model, variant.connection, variant.params]), [
        ["Capital of {{country}}? One word.", "qwen", {baseUrl: "http://127.0.0.1:8080", apiKeyEnv: "SVC_KEY"}, {temperature: 0, max_tokens: 20}],
        ["chat", "qwen", {baseUrl: "http://127.0.0.1:8080", apiKeyEnv: "SVC_KEY"}, {temperature: 0, max_tokens: 20}]
    ]);
    assert.deepEqual(spec.variants[1].version.prompt, {kind: "chat", endpoint: "chat", body: {messages: [{role: "system", content: "Answer tersely."}, {role: "user", content: "Capital of {{ country }}?"}]}});
    const dataset = spec.dataset as Dataset;
    assert.deepEqual(dataset.columns, ["country", "city", "description", "not-icontains", "icontains", "llm-rubric", "contains-any", "not-contains", "equals"]);
    assert.deepEqual(dataset.inputColumns, ["country", "city"]);
    assert.deepEqual(dataset.rows, [
        ["France", "Paris", "France", "sorry", "Paris", "names a city", null, null, null],
        ["Japan", null, null, "sorry", null, null, "[\"Tokyo\",\"Seoul\"]", null, null],
        ["Korea", null, null, "sorry", null, null, "[\"Tokyo\",\"Seoul\"]", null, null],
        ["Italy", null, null, "sorry", "Rome", null, null, "Milan", null],
        ["Spain", null, null, "sorry", null, null, null, null, "Madrid"]
    ]);
    assert.deepEqual(spec.checks, [
        {kind: "contains", column: "not-icontains", caseSensitive: false, negate: true},
        {kind: "contains", column: "icontains", caseSensitive: false, when: "icontains"},
        {kind: "grader", name: "llm-rubric", question: "Does the output meet the rubric?", template: "Rubric: {{llm-rubric}}\n\nOutput:\n{{reply}}", threshold: 0.7, when: "llm-rubric"},
        {kind: "contains_any", column: "contains-any", caseSensitive: true, when: "contains-any"},
        {kind: "contains", column: "not-contains", caseSensitive: true, negate: true, when: "not-contains"},
        {kind: "equals", column: "equals", caseSensitive: true, when: "equals"}
    ]);
    assert.deepEqual(report.items.map((item) => `${path.basename(item.file)}:${item.line}: ${item.field} x${item.count}`), [
        "promptfooconfig.yaml:9: providers[0].config.organization x1",
        "promptfooconfig.yaml:10: providers[1] x1",
        "promptfooconfig.yaml:24: tests[0].options.provider x1",
        "more.csv:2: __metadata:topic x2",
        "promptfooconfig.yaml:29: tests[1].assert[1] x2"
    ]);
    assert.match(report.lines()[4], /javascript: code assertions are not imported \(not run in a sandbox\).*\(and 1 more like it\)$/);
});

test("the checks pass and fail where promptfoo's assertions do", async () => {
    const file = await files("semantics", {
        "promptfooconfig.yaml": capitals.replace("vars: {country: France}", "vars: {country: France, city: Paris}").replace(/ {2}- anthropic.*\n/, ""),
        "chat.json": "[{\"role\": \"user\", \"content\": \"{{country}}\"}]",
        "more.csv": "country,__expected,__expected2\nItaly,icontains: Rome,not-contains: Milan\nSpain,Madrid,\n"
    });
    const {spec} = await importFile(file);
    const dataset = spec.dataset as Dataset;
    const checks = compileChecks(spec.checks.filter((check) => check.kind !== "grader"), dataset.columns);
    const grade = async () => {
        throw new Error("no grader here");
    };
    const passes = async (row: number, reply: string) => (await checks.run(reply, dataset.rows[row], grade, context)).every((result) => result.pass);
    // Row 0: icontains Paris and not-icontains sorry.
    assert.equal(await passes(0, "PARIS"), true);
    assert.equal(await passes(0, "Sorry, Paris"), false);
    assert.equal(await passes(0, "Lyon"), false);
    // Rows 1-2: contains-any (case-sensitive) Tokyo or Seoul.
    assert.equal(await passes(1, "It is Tokyo"), true);
    assert.equal(await passes(2, "tokyo"), false);
    // Row 3: icontains Rome, not-contains Milan (case-sensitive: "milan" passes).
    assert.equal(await passes(3, "rome, not milan"), true);
    assert.equal(await passes(3, "Rome or Milan"), false);
    // Row 4: equals Madrid (the bare __expected value), case-sensitive.
    assert.equal(await passes(4, "Madrid"), true);
    assert.equal(await passes(4, "madrid"), false);
});

test("a test threshold weighs the assertions (promptfoo's aggregate score); differing thresholds are reported", async () => {
    const config = (thresholds: [string, string]) => `prompts: ["{{q}}"]
providers: [openai:chat:m]
tests:
  - vars: {q: a}
    threshold: ${thresholds[0]}
    assert:
      - {type: contains, value: x, weight: 3}
      - {type: is-json, weight: 1}
  - vars: {q: b}
    threshold: ${thresholds[1]}
    assert:
      - {type: contains, value: y, weight: 3}
`;
    const same = await importFile(await files("threshold", {"promptfooconfig.yaml": config(["0.7", "0.7"])}));
    assert.deepEqual(same.spec.checks, [{kind: "weighted", name: "threshold", threshold: 0.7, parts: [
        {weight: 3, check: {kind: "contains", column: "contains", caseSensitive: true}},
        {weight: 1, check: {kind: "is_json", when: "is-json"}}
    ]}]);
    const dataset = same.spec.dataset as Dataset;
    const run = compileChecks(same.spec.checks, dataset.columns);
    // Row 0: contains x (3) but not JSON (1): 0.75 >= 0.7 passes, as promptfoo's aggregate score does.
    const noGrade = async () => {
        throw new Error("no grader here");
    };
    assert.equal((await run.run("x", dataset.rows[0], noGrade, context))[0].pass, true);
    assert.equal((await run.run("{}", dataset.rows[0], noGrade, context))[0].pass, false);
    const differ = await importFile(await files("thresholds", {"promptfooconfig.yaml": config(["0.7", "0.9"])}));
    assert.deepEqual(differ.spec.checks.map((check) => check.kind), ["contains", "is_json"]);
    assert.deepEqual(differ.report.items.map((item) => [item.field, item.line]), [["tests[0].threshold", 4]]);
});

test("__expected cells read as promptfoo reads them", () => {
    const place = {file: "t.csv", line: 2, field: "__expected"};
    assert.deepEqual(assertionFromCell("not-icontains: sorry", place), {type: "not-icontains", value: "sorry", place});
    assert.deepEqual(assertionFromCell("contains-any: a, \"b, c\" ,d", place), {type: "contains-any", value: ["a", "b, c", "d"], place});
    assert.deepEqual(assertionFromCell("grade: is polite", place), {type: "llm-rubric", value: " is polite", place});
    assert.deepEqual(assertionFromCell("fn: output.length > 2", place), {type: "javascript", value: "output.length > 2", place});
    assert.deepEqual(assertionFromCell("similar(0.8): hello", place), {type: "similar", value: "hello", threshold: 0.8, place});
    assert.deepEqual(assertionFromCell("Paris: the capital", place), {type: "equals", value: "Paris: the capital", place});
    assert.deepEqual(commaValues(""), []);
});

test("bad input: the file, line and field at fault, in one message", async () => {
    const failure = async (contents: Record<string, string>) => {
        const error = await importFile(await files(`bad-${Math.random().toString(36).slice(2)}`, contents)).then(() => null, (thrown: unknown) => thrown);
        assert.ok(error instanceof ImportError, String(error));
        return error.message.replaceAll(dir, "<dir>").replace(/bad-[a-z0-9]+/g, "bad");
    };
    assert.equal(await failure({"promptfooconfig.yaml": "prompts: [\"{{q}}\"]\nproviders:\n  - id: openai:chat:m\n   config: {}\n"}),
        "<dir>/bad/promptfooconfig.yaml:4: not valid YAML: Sequence item without - indicator");
    assert.match(await failure({"promptfooconfig.yaml": "prompts: [\"{{q}}\"]\nproviders: [openai:chat:m]\ntests: file://t.jsonl\n", "t.jsonl": "{\"vars\": {\"q\": 1}}\n{\"vars\": {\"q\": 2}\n"}),
        /^<dir>\/bad\/t\.jsonl:2: not JSON: Expected ',' or '}' after property value/);
    assert.equal(await failure({"promptfooconfig.yaml": "prompts: [\"{{q}}\"]\nproviders: [openai:chat:m]\ntests:\n  - file://missing.csv\n"}),
        "<dir>/bad/promptfooconfig.yaml:4: tests[0]: no such file: <dir>/bad/missing.csv");
    assert.equal(await failure({"promptfooconfig.yaml": "prompts: [\"{{q}}\"]\nproviders: [bedrock:claude]\n"}),
        "<dir>/bad/promptfooconfig.yaml:2: providers: no provider could be imported: an experiment's variants need an OpenAI-compatible provider (see the report above)");
    assert.equal(await failure({"promptfooconfig.yaml": "prompts: [\"{% if q %}{{q}}{% endif %}\"]\nproviders: [openai:chat:m]\n"}),
        "<dir>/bad/promptfooconfig.yaml:1: prompts: no prompt could be imported (see the report above)");
    assert.equal(await failure({"promptfooconfig.yaml": "prompts: [\"{{q}}\"]\nproviders: [openai:chat:m]\ntests:\n  - vars: {q: a}\n    assert: {type: equals}\n"}),
        "<dir>/bad/promptfooconfig.yaml:5: tests[0].assert: must be a list of assertions");
});

test("Nunjucks beyond plain variables: the prompt is reported with the construct, the others imported", async () => {
    const file = await files("nunjucks", {"promptfooconfig.yaml": "prompts:\n  - \"{{ q }}\"\n  - \"{{ q | upper }}\"\n  - \"{% for x in xs %}{{x}}{% endfor %}\"\nproviders: [openai:chat:m]\ntests: [{vars: {q: a}}]\n"});
    const {spec, report} = await importFile(file);
    assert.deepEqual(spec.variants.map((variant) => variant.name), ["{{ q }}"]);
    assert.deepEqual(report.lines().slice(0, 2).map((line) => line.replace(dir, "<dir>")), [
        "not imported: <dir>/nunjucks/promptfooconfig.yaml:3: prompts[1]: this prompt is not imported: \"{{ q | upper }}\" is a Nunjucks expression (a filter, a field, an index or a literal); only {{ variable }} is imported: give the value its own variable",
        "not imported: <dir>/nunjucks/promptfooconfig.yaml:4: prompts[2]: this prompt is not imported: \"{% for x in xs %}\" is a Nunjucks tag (for); only {{ variable }} is imported: rewrite it as plain text with variables"
    ]);
});
