import {test} from "node:test";
import assert from "node:assert/strict";
import {toGrammarSchema} from "./jsonMode.ts";

test("anyOf becomes oneOf at every depth, but a property named anyOf keeps its name", () => {
    const schema = {type: "object", properties: {anyOf: {anyOf: [{type: "string"}, {type: "null"}]}}, $defs: {x: {anyOf: [{const: 1}]}}};
    assert.deepEqual(toGrammarSchema(schema), {
        type: "object",
        properties: {anyOf: {oneOf: [{type: "string"}, {type: "null"}]}},
        $defs: {x: {oneOf: [{const: 1}]}}
    });
});

test("a small bounded integer range becomes the enum of its values", () => {
    assert.deepEqual(toGrammarSchema({type: "integer", minimum: 1, maximum: 4}), {enum: [1, 2, 3, 4]});
    assert.deepEqual(toGrammarSchema({type: "integer", exclusiveMinimum: 0, exclusiveMaximum: 3}), {enum: [1, 2]});
    assert.deepEqual(toGrammarSchema({type: "integer", minimum: 0}), {type: "integer", minimum: 0});
    assert.deepEqual(toGrammarSchema({type: "integer", minimum: 0, maximum: 10_000}), {type: "integer", minimum: 0, maximum: 10_000});
    assert.deepEqual(toGrammarSchema({type: "number", minimum: 0, maximum: 2}), {type: "number", minimum: 0, maximum: 2});
});
