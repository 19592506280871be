import {test} from "node:test";
import assert from "node:assert/strict";
import {compileRowObject, compileTemplate, requestBuilder} from "./requests.ts";

const columns = ["name", "age", "Home town", "ok"];
const row = ["Zoë \"Z\"", 31.5, null, true];

test("placeholders take the row's cells: trimmed names, empty cell as '', numbers and booleans as text", () => {
    const render = compileTemplate("{{name}} ({{ age }}) from {{Home town}}; ok={{ok}}", columns);
    assert.equal(render(row), "Zoë \"Z\" (31.5) from ; ok=true");
});

test("escapes: \\{{ is a literal {{, \\\\{{x}} a backslash and the cell; other backslashes and }} stay", () => {
    assert.equal(compileTemplate("\\{{name}} is {{name}}", columns)(row), "{{name}} is Zoë \"Z\"");
    assert.equal(compileTemplate("C:\\\\{{age}}", columns)(row), "C:\\31.5");
    assert.equal(compileTemplate("a\\b }} c", columns)(row), "a\\b }} c");
    // A cell that holds braces is inserted as is, never rendered again.
    assert.equal(compileTemplate("<{{name}}>", columns)(["{{age}}"]), "<{{age}}>");
});

test("mistakes are reported before any row is sent", () => {
    assert.throws(() => compileTemplate("{{nope}}", columns), /no column named "nope"; columns: "name", "age", "Home town", "ok"/);
    assert.throws(() => compileTemplate("{{name", columns), /no closing "}}"/);
    assert.throws(() => compileTemplate("{{ }}", columns), /empty placeholder/);
});

test("request bodies: template text or the whole row as stable JSON (decisions) / as the state object (systemone)", () => {
    const decisions = {format: "decisions" as const, questions: [{type: "predicate" as const, instructions: "adult?"}], x_svc: {explain: true}, name: "not sent"};
    const systemone = {format: "systemone" as const, questions: {adult: {type: "noul" as const, instructions: "adult?"}}};
    const cols = ["b", "a"];
    assert.deepEqual(requestBuilder(decisions, {kind: "row"}, {columns: cols})(["x", 2]), {
        format: "decisions",
        body: {model: "svc-1-decision", questions: decisions.questions, x_svc: {explain: true}, input: "{\"a\":2,\"b\":\"x\"}"}
    });
    assert.deepEqual(requestBuilder(systemone, {kind: "row"}, {columns: cols})(["x", null]), {
        format: "systemone",
        body: {model: "svc-1-decision", questions: systemone.questions, state: {b: "x", a: null}}
    });
    assert.deepEqual(requestBuilder(systemone, {kind: "template", template: "{{a}}/{{b}}"}, {columns: cols})(["x", 2]).body, {model: "svc-1-decision", questions: systemone.questions, state: "2/x"});
});

test("whole-row objects: the chosen columns only, in table order, cells with their types; an unknown column is refused", () => {
    const columns = ["id", "text", "stars", "label"];
    const row = [1, "Great", 4.5, "yes"];
    assert.deepEqual(compileRowObject({}, {columns})(row), {id: 1, text: "Great", stars: 4.5, label: "yes"});
    assert.deepEqual(compileRowObject({columns: ["stars", "id", "text"]}, {columns})(row), {id: 1, text: "Great", stars: 4.5});
    assert.deepEqual(Object.keys(compileRowObject({columns: ["stars", "id"]}, {columns})(row)), ["id", "stars"]);
    assert.deepEqual(compileRowObject({columns: []}, {columns})(row), {});
    assert.throws(() => compileRowObject({columns: ["id", "nope"]}, {columns}), /no column named "nope"/);
});

test("requests in whole-row mode leave out the columns not chosen, and keep numbers as numbers", () => {
    const build = requestBuilder({format: "decisions", questions: [{type: "predicate", name: "positive", instructions: "?"}]}, {kind: "row", columns: ["id", "text"]}, {columns: ["id", "text", "positive"]});
    const request = build([1, "Great", "yes"]);
    assert.equal(request.format === "decisions" && request.body.input, "{\"id\":1,\"text\":\"Great\"}");
    const state = requestBuilder({format: "systemone", questions: {positive: {type: "noul", instructions: "?"}}}, {kind: "row", columns: ["id", "text"]}, {columns: ["id", "text", "positive"]});
    const body = state([1, "Great", "yes"]);
    assert.deepEqual(body.format === "systemone" && body.body.state, {id: 1, text: "Great"});
});
