// The checks a suite from another tool needs beyond the app's own: starts_with, contains_any / contains_all, JSON
// inside prose, tool calls against the request's tools, a check negated or scoped to rows by a column, and checks
// weighed together at a threshold; each read from the experiment file and back.
import {test} from "node:test";
import assert from "node:assert/strict";
import type {CallContext} from "../scoring/TaskRunner.ts";
import {checkProblems, compileChecks, type Exchange} from "./checks.ts";
import {parseExperimentSpec, serializeExperimentSpec} from "./experimentFile.ts";
import {containsJson, expectedList} from "./replyMatchers.ts";
import type {Check, ExperimentSpec} from "./types.ts";

const columns = ["question", "start", "any", "all", "gate"];
const context: CallContext = {signal: new AbortController().signal, timeoutMs: 1000, retry: {}};
const noGrade = async () => {
    throw new Error("no grader in these checks");
};

async function outcomes(checks: Check[], reply: string, row: Array<string | null>, exchange?: Exchange) {
    const results = await compileChecks(checks, columns).run(reply, row, noGrade, context, exchange);
    return results.map((result) => [result.name, result.pass, result.score]);
}

test("starts_with, contains_any and contains_all read the row's cell; a JSON array cell is a list", async () => {
    const checks: Check[] = [{kind: "starts_with", column: "start"}, {kind: "contains_any", column: "any"}, {kind: "contains_all", column: "all", caseSensitive: true}];
    assert.deepEqual(await outcomes(checks, "Paris is the capital", ["q", "paris", "[\"Lyon\", \"capital\"]", "[\"Paris\", \"capital\"]", ""]),
        [["starts_with_start", true, 1], ["contains_any_any", true, 1], ["contains_all_all", true, 1]]);
    assert.deepEqual(await outcomes(checks, "the capital is Paris", ["q", "paris", "[\"Lyon\", \"Nice\"]", "[\"paris\", \"capital\"]", ""]),
        [["starts_with_start", false, 0], ["contains_any_any", false, 0], ["contains_all_all", false, 0]]);
    assert.deepEqual(expectedList("[\"a\", 2, \" \"]"), ["a", "2"]);
    assert.deepEqual(expectedList("a, b"), ["a, b"]);
    assert.deepEqual(expectedList(""), []);
});

test("contains_json finds an object or array inside prose or a code fence, and nothing in broken JSON", () => {
    assert.equal(containsJson("Here it is:\n```json\n{\"a\": [1, \"}\"]}\n```"), true);
    assert.equal(containsJson("list: [1, 2] done"), true);
    assert.equal(containsJson("{not json} and [unclosed"), false);
    assert.equal(containsJson("no braces"), false);
});

test("negate inverts a check; when runs it only on rows whose column is not blank, passing elsewhere", async () => {
    const checks: Check[] = [{kind: "contains", column: "start", negate: true}, {kind: "regex", pattern: "^\\d+$", when: "gate"}, {kind: "is_json", when: "gate", negate: true}];
    assert.deepEqual(await outcomes(checks, "42", ["q", "4", "", "", "yes"]), [["contains_start", false, 0], ["regex", true, 1], ["is_json", false, 0]]);
    assert.deepEqual(await outcomes(checks, "abc", ["q", "4", "", "", ""]), [["contains_start", true, 1], ["regex", true, 1], ["is_json", true, 1]]);
    const [scoped] = await compileChecks([{kind: "regex", pattern: "x", when: "gate"}], columns).run("y", ["q", "", "", "", " "], noGrade, context);
    assert.equal(scoped.detail, "not asserted on this row");
    assert.deepEqual(checkProblems([{kind: "is_json", when: "nope"}, {kind: "grader", name: "g", question: "?", template: "{{reply}}", negate: true}], columns).map((problem) => problem.path),
        ["checks[0].when", "checks[1].negate"]);
});

test("weighted: the weighted mean of the parts that apply, against the threshold", async () => {
    const weighted: Check = {kind: "weighted", name: "suite", threshold: 0.7, parts: [
        {weight: 3, check: {kind: "starts_with", column: "start"}},
        {weight: 1, check: {kind: "is_json"}},
        {weight: 5, check: {kind: "contains_any", column: "any", when: "gate"}}
    ]};
    // Row without the gate: parts 1 and 2 apply; 3 of 4 weight passes = 0.75.
    const [first] = await compileChecks([weighted], columns).run("Paris", ["q", "Par", "", "", ""], noGrade, context);
    assert.deepEqual([first.name, first.pass, first.score], ["suite", true, 0.75]);
    // With the gate and a missed contains_any: 3 of 9 = 0.333.
    const [second] = await compileChecks([weighted], columns).run("Paris", ["q", "Par", "[\"Rome\"]", "", "x"], noGrade, context);
    assert.equal(second.pass, false);
    assert.ok(Math.abs(second.score - 3 / 9) < 1e-12);
});

test("tool_calls: every call names an offered function with arguments its schema accepts", async () => {
    const request = {tools: [{type: "function", function: {name: "get_weather", parameters: {type: "object", properties: {city: {type: "string"}}, required: ["city"]}}}]};
    const call = (name: string, args: string) => ({choices: [{message: {content: null, tool_calls: [{type: "function", function: {name, arguments: args}}]}}]});
    const run = async (response: Record<string, unknown>) => (await compileChecks([{kind: "tool_calls"}], columns).run("", ["", "", "", "", ""], noGrade, context, {request, response}))[0];
    assert.equal((await run(call("get_weather", "{\"city\": \"Oslo\"}"))).pass, true);
    assert.match((await run(call("get_weather", "{\"town\": \"Oslo\"}"))).detail!, /must have required property 'city'/);
    assert.match((await run(call("get_time", "{}"))).detail!, /calls "get_time", which the request did not offer/);
    assert.match((await run({choices: [{message: {content: "Oslo is sunny"}}]})).detail!, /makes no tool call/);
    // A Responses object's function_call items, against Responses-shaped tools.
    const responses = {output: [{type: "function_call", name: "f", arguments: "{}"}]};
    const [result] = await compileChecks([{kind: "tool_calls"}], columns).run("", ["", "", "", "", ""], noGrade, context, {request: {tools: [{type: "function", name: "f"}]}, response: responses});
    assert.equal(result.pass, true);
});

test("the experiment file keeps every new kind and scope, and names a bad part by its path", () => {
    const checks: Check[] = [
        {kind: "contains_all", column: "all", when: "gate", negate: true}, {kind: "contains_json"}, {kind: "tool_calls", when: "gate"},
        {kind: "weighted", name: "w", threshold: 0.5, parts: [{weight: 2, check: {kind: "starts_with", column: "start", caseSensitive: true}}]}
    ];
    const spec: ExperimentSpec = {
        format: "svc-experiment", version: 1, id: "e", name: "e", sample: {kind: "all"}, seed: 1, createdAt: 0, checks,
        dataset: {id: "d", name: "d", columns, columnTypes: columns.map(() => "string" as const), rows: [["a", "b", "c", "d", "e"]], labelColumns: [], inputColumns: columns, createdAt: 0, updatedAt: 0},
        variants: [{name: "A", connection: {baseUrl: "http://127.0.0.1:8080"}, version: {itemId: "p", itemName: "p", version: 1, note: "", createdAt: 0, prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "{{question}}"}]}}}}]
    };
    assert.deepEqual(parseExperimentSpec(serializeExperimentSpec(spec)).checks, checks);
    const broken = JSON.parse(serializeExperimentSpec(spec)) as {checks: Array<Record<string, unknown>>};
    broken.checks[3] = {kind: "weighted", name: "w", threshold: 0.5, parts: [{weight: -1, check: {kind: "is_json"}}]};
    assert.throws(() => parseExperimentSpec(broken), /checks\[3\]\.parts\[0\]\.weight/);
});
