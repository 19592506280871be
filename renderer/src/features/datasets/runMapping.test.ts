import assert from "node:assert/strict";
import {test} from "node:test";
import {defaultRunMapping, mappedRecord} from "./runMapping.ts";

test("a run goes into the columns a dataset has: the user message to the text the model sees, the reply to an answer column", () => {
    const quiz = {columns: ["id", "question", "category", "expected"], labelColumns: ["category", "expected"], inputColumns: ["question"]};
    assert.deepEqual(defaultRunMapping(quiz), {system: null, user: "question", messages: null, reply: null});
    const record = {system: "Be brief.", user: "What is 2+2?", messages: "[]", reply: "four"};
    assert.deepEqual(mappedRecord(record, {...defaultRunMapping(quiz), reply: "expected"}), {question: "What is 2+2?", expected: "four"});
    // A dataset made of runs maps each field to its own column.
    const runs = {columns: ["system", "user", "messages", "reply"], labelColumns: [], inputColumns: ["system", "user", "messages", "reply"]};
    assert.deepEqual(defaultRunMapping(runs), {system: "system", user: "user", messages: "messages", reply: "reply"});
    assert.deepEqual(defaultRunMapping({columns: ["prompt", "answer"], labelColumns: [], inputColumns: ["prompt", "answer"]}), {system: null, user: "prompt", messages: null, reply: "answer"});
});
