import {test} from "node:test";
import assert from "node:assert/strict";
import {ValidationError} from "../../protocol/validation.ts";
import {compileJsonSchema} from "./jsonMode.ts";

test("validates values and explains a mismatch", () => {
    const validate = compileJsonSchema({type: "object", properties: {n: {type: "integer", maximum: 3}}, required: ["n"]}, ["schema"]);
    assert.equal(validate({n: 2}), undefined);
    assert.match(validate({n: 9}) ?? "", /must be <= 3/);
    assert.match(validate({}) ?? "", /must have required property 'n'/);
});

test("an invalid schema is a ValidationError at its path saying it is not a valid JSON Schema", () => {
    for (const schema of [{type: "objekt"}, {$ref: "#/$defs/missing"}, {$schema: "http://json-schema.org/draft-03/schema#"}]) {
        assert.throws(() => compileJsonSchema(schema, ["response_format", "json_schema", "schema"]), (error) => {
            assert.ok(error instanceof ValidationError);
            assert.deepEqual(error.path, ["response_format", "json_schema", "schema"]);
            assert.match(error.message, /is not a valid JSON Schema/);
            return true;
        }, JSON.stringify(schema));
    }
});

test("draft-07 schemas and repeated $ids are accepted", () => {
    const schema = {$schema: "http://json-schema.org/draft-07/schema#", $id: "https://example.com/s", type: "boolean"};
    assert.equal(compileJsonSchema(schema, [])(true), undefined);
    assert.equal(compileJsonSchema({...schema}, [])(true), undefined);
});

test("patterns run in linear time: a catastrophic pattern answers at once", () => {
    const validate = compileJsonSchema({type: "object", properties: {s: {type: "string", pattern: "^((.|\\s)+)+~$"}},
        patternProperties: {"^(a|a?)+$": {type: "integer"}}}, ["schema"]);
    // V8's backtracking engine takes exponential time on both (it spent 21 s on the first with a model reply).
    const started = performance.now();
    assert.match(validate({s: "a".repeat(100_000) + " b"}) ?? "", /must match pattern/);
    assert.equal(validate({["a".repeat(50_000) + "b"]: "not checked: the key does not match"}), undefined);
    assert.ok(performance.now() - started < 1_000, `${(performance.now() - started).toFixed(0)} ms`);
    assert.equal(validate({s: "any\nthing~"}), undefined);
});

test("patterns keep ECMAScript's \\u escapes and tell patterns apart", () => {
    const validate = compileJsonSchema({type: "object", properties: {
        e: {type: "string", pattern: "^caf\\u00e9$"},
        braces: {type: "string", pattern: "^\\u{1F600}$"},
        literal: {type: "string", pattern: "^\\\\u0041$"},
        digits: {type: "string", pattern: "^\\d+$"}
    }}, ["schema"]);
    assert.equal(validate({e: "café", braces: "😀", literal: "\\u0041", digits: "42"}), undefined);
    assert.match(validate({digits: "4a"}) ?? "", /digits must match pattern "\^\\d\+\$"/);
    assert.match(validate({literal: "A"}) ?? "", /literal must match/);
});

test("backreferences and lookaround are a 400 naming the pattern, not the backtracking engine", () => {
    for (const pattern of ["^(a)\\1$", "^(?=a)", "(?<!a)b", "(?!x)"]) {
        for (const schema of [{type: "string", pattern}, {type: "object", patternProperties: {[pattern]: {}}}]) {
            assert.throws(() => compileJsonSchema(schema, ["tools", 0, "function", "parameters"]), (error) => {
                assert.ok(error instanceof ValidationError);
                assert.deepEqual(error.path, ["tools", 0, "function", "parameters"]);
                assert.match(error.message, /no backreferences and no lookahead or lookbehind/);
                assert.ok(error.message.includes(JSON.stringify(pattern)), error.message);
                return true;
            }, pattern);
        }
    }
});
