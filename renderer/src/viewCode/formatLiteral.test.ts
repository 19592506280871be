import {test} from "node:test";
import assert from "node:assert/strict";
import {formatLiteral} from "./formatLiteral.ts";

test("JavaScript literals unquote identifier keys and keep small objects on one line", () => {
    assert.equal(formatLiteral({role: "user", content: "Hi"}, "js"), `{role: "user", content: "Hi"}`);
    assert.equal(formatLiteral({"not-an-id": 1, ok: true, none: null}, "js"), `{"not-an-id": 1, ok: true, none: null}`);
});

test("Python literals spell booleans and null the Python way and quote every key", () => {
    assert.equal(formatLiteral({a: true, b: false, c: null, d: [1, 2.5]}, "python"), `{"a": True, "b": False, "c": None, "d": [1, 2.5]}`);
});

test("strings are escaped so that both languages read back the same text", () => {
    const text = "line 1\nsays \"hi\" \\ and ' ünïcode";
    const literal = formatLiteral(text, "js");
    assert.equal(JSON.parse(literal), text);
    assert.equal(formatLiteral(text, "python"), literal);
});

test("big values break into one entry per line, indented per level", () => {
    const value = {messages: [{role: "system", content: "x".repeat(80)}, {role: "user", content: "Hello"}]};
    const out = formatLiteral(value, "js");
    assert.equal(out, [
        "{",
        "    messages: [",
        "        {",
        `            role: "system",`,
        `            content: "${"x".repeat(80)}"`,
        "        },",
        `        {role: "user", content: "Hello"}`,
        "    ]",
        "}"
    ].join("\n"));
    // The multi-line JS form of JSON-compatible data is still valid JavaScript that evaluates to the value.
    assert.deepEqual(new Function(`return ${out};`)(), value);
});

test("empty containers stay compact", () => {
    assert.equal(formatLiteral({a: [], b: {}}, "python"), `{"a": [], "b": {}}`);
});
