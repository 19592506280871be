import {test} from "node:test";
import assert from "node:assert/strict";
import {hiddenLabelColumns, LabelColumnError, modelColumns} from "./modelColumns.ts";
import {compileRowObject, requestBuilder} from "./requests.ts";
import {compileCellTask} from "../experiments/cellTasks.ts";
import {VariableError} from "../experiments/variables.ts";
import type {Variant} from "../experiments/types.ts";

const columns = ["id", "story", "happy", "mood"];
const row = ["s1", "Kai found a ball.", "yes", "calm"];
const questionSet = {format: "decisions" as const, questions: [{type: "predicate" as const, name: "happy", instructions: "Happy?"}]};

test("the model sees the ticked columns, else every column but the labels; a ticked label is seen on purpose", () => {
    assert.deepEqual(modelColumns({columns, labelColumns: ["happy", "mood"]}), ["id", "story"]);
    assert.deepEqual(modelColumns({columns, labelColumns: ["happy", "mood"], inputColumns: ["story", "mood"]}), ["story", "mood"]);
    assert.deepEqual(modelColumns({columns}), columns, "no label columns: every column");
    assert.deepEqual(hiddenLabelColumns(["story", "mood", "happy", "mood"], {columns, labelColumns: ["happy", "mood"], inputColumns: ["story", "mood"]}), ["happy"]);
});

test("whole-row input without a column list leaves the label columns out; a list naming an unticked label is refused", () => {
    const roles = {columns, labelColumns: ["happy", "mood"], inputColumns: ["id", "story"]};
    assert.deepEqual(compileRowObject({}, roles)(row), {id: "s1", story: "Kai found a ball."});
    const request = requestBuilder(questionSet, {kind: "row"}, roles)(row);
    assert.equal(request.format === "decisions" && request.body.input, "{\"id\":\"s1\",\"story\":\"Kai found a ball.\"}");
    assert.throws(() => compileRowObject({columns: ["story", "happy"]}, roles), (error: unknown) => error instanceof LabelColumnError && /names the label column "happy"/.test(error.message));
    assert.deepEqual(compileRowObject({columns: ["story", "mood"]}, {...roles, inputColumns: ["story", "mood"]})(row), {story: "Kai found a ball.", mood: "calm"});
});

test("a template or a chat prompt naming an unticked label column is refused before any row is built", () => {
    const roles = {columns, labelColumns: ["happy", "mood"], inputColumns: ["id", "story"]};
    assert.throws(() => requestBuilder(questionSet, {kind: "template", template: "{{story}} ({{ mood }})"}, roles), /the input template names the label column "mood"/);
    const ticked = requestBuilder(questionSet, {kind: "template", template: "{{story}} ({{mood}})"}, {...roles, inputColumns: ["story", "mood"]})(row);
    assert.equal(ticked.format === "decisions" && ticked.body.input, "Kai found a ball. (calm)");
    const chat: Variant = {name: "C", connection: {baseUrl: "http://127.0.0.1:1"}, version: {itemId: "", itemName: "", version: 1, note: "", createdAt: 0,
        prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "system", content: "Be brief."}, {role: "user", content: "{{story}} Was it {{happy}}?"}]}}}};
    const noCall = () => {
        throw new Error("nothing is sent");
    };
    assert.throws(() => compileCellTask(chat, 0, roles, [], noCall),
        (error: unknown) => error instanceof VariableError && error.path === "variants[0].version.prompt.body.messages[1].content" && /label column "happy"/.test(error.message));
    // Checks (a grader's template) may read labels: they grade the reply, they are not the model under test.
    const graded = compileCellTask({...chat, version: {...chat.version, prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "{{story}}"}]}}}}, 0, roles,
        [{kind: "grader", name: "agrees", question: "Does the reply agree?", template: "Reply: {{reply}} Expected: {{happy}}"}], noCall);
    assert.deepEqual(graded.build(row).messages, [{role: "user", content: "Kai found a ball."}]);
});
