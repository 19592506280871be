import {test} from "node:test";
import assert from "node:assert/strict";
import {stableStringify} from "./stableStringify.ts";

test("keys are sorted at every depth, so key order does not change the text", () => {
    const a = {b: 1, a: {y: [3, {d: 1, c: 2}], x: null}};
    const b = {a: {x: null, y: [3, {c: 2, d: 1}]}, b: 1};
    assert.equal(stableStringify(a), "{\"a\":{\"x\":null,\"y\":[3,{\"c\":2,\"d\":1}]},\"b\":1}");
    assert.equal(stableStringify(a), stableStringify(b));
});

test("integer-like keys sort as strings too (JSON.stringify would put them first)", () => {
    const value = JSON.parse("{\"b\":1,\"10\":2,\"2\":3,\"A\":4}");
    assert.equal(JSON.stringify(value), "{\"2\":3,\"10\":2,\"b\":1,\"A\":4}");
    assert.equal(stableStringify(value), "{\"10\":2,\"2\":3,\"A\":4,\"b\":1}");
});

test("scalars and escapes match JSON.stringify; the output parses back to an equal value", () => {
    const value = {text: "quote \" backslash \\ newline \n unicode é \u2028", n: -1.5e-7, t: true, f: false, z: null, e: [], o: {}};
    assert.deepEqual(JSON.parse(stableStringify(value)), value);
    assert.equal(stableStringify("plain"), JSON.stringify("plain"));
    assert.equal(stableStringify(12), "12");
    assert.equal(stableStringify([Number.NaN, undefined]), "[null,null]");
});

test("deep nesting does not overflow the stack", () => {
    const text = "[".repeat(100_000) + "]".repeat(100_000);
    assert.equal(stableStringify(JSON.parse(text)), text);
});
