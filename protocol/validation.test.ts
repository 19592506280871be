import {test} from "node:test";
import assert from "node:assert/strict";
import {checkJsonDepth, jsonDepth, optional, quoteValue, readEnum, required, ValidationError} from "./validation.ts";
import {nestedArrays} from "../test/support/hostileJson.ts";

test("quoteValue shows scalars, cuts long strings and names containers by type, at any depth", () => {
    assert.equal(quoteValue("user"), "\"user\"");
    assert.equal(quoteValue(3), "3");
    assert.equal(quoteValue(null), "null");
    assert.equal(quoteValue("x".repeat(10_000)), `"${"x".repeat(80)}"...`);
    assert.equal(quoteValue(nestedArrays(100_000)), "a value of type array");
    assert.equal(quoteValue({a: 1}), "a value of type object");
});

test("jsonDepth is iterative and stops early; checkJsonDepth names the limit", () => {
    assert.equal(jsonDepth("text"), 0);
    assert.equal(jsonDepth({}), 1);
    assert.equal(jsonDepth({a: [1, {b: []}]}), 4);
    assert.equal(jsonDepth(nestedArrays(100_000)), 100_000);
    assert.equal(jsonDepth(nestedArrays(100_000), 10), 11, "stops one level past the limit");
    checkJsonDepth(nestedArrays(5), ["x"], 5);
    assert.throws(() => checkJsonDepth(nestedArrays(6), ["x"], 5), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.deepEqual(error.path, ["x"]);
        assert.match(error.message, /more than 5 levels deep; at most 5 levels are supported/);
        return true;
    });
});

test("fields are read from the client's own properties only, never from Object.prototype", () => {
    const readAny = (value: unknown) => value;
    assert.equal(optional({}, "constructor", [], readAny), undefined);
    assert.equal(optional({}, "toString", [], readAny), undefined);
    assert.throws(() => required({}, "constructor", [], readAny), /constructor: is required/);
    const parsed = JSON.parse("{\"__proto__\": \"user\"}") as Record<string, unknown>;
    assert.equal(required(parsed, "__proto__", [], readAny), "user");
    assert.throws(() => readEnum("toString", ["role"], ["user"] as const), /got "toString"/);
});
