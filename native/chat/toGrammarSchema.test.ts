import {test} from "node:test";
import assert from "node:assert/strict";
import {getLlama} from "node-llama-cpp";
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

test("a pattern is left to the validator: the grammar builder ignores it, so it cannot run it", async () => {
    const schema = {type: "object", properties: {s: {type: "string", pattern: "^((.|\\s)+)+~$"}}, required: ["s"]};
    assert.deepEqual(toGrammarSchema(schema), schema);
    const llama = await getLlama({gpu: false, build: "never"});
    const started = performance.now();
    const grammar = await llama.createGrammarForJsonSchema(toGrammarSchema(schema));
    assert.ok(!grammar.grammar.includes("~"), "the pattern is not part of the grammar");
    assert.ok(performance.now() - started < 1_000);
});
