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
