// Where a broken experiment file stops being JSON: syntaxErrorOffset against JSON.parse's own positions wherever its
// message gives one, and the line and column the message names.
import {test} from "node:test";
import assert from "node:assert/strict";
import {jsonProblem, syntaxErrorOffset} from "./experimentFiles.ts";

const broken = [
    "", "{", "[", "{\"a\"", "{\"a\":", "{\"a\": 1", "{\"a\": 1,}", "[1, 2,]", "[1 2]", "{\"a\" 1}", "{a: 1}", "{\"a\": 01}",
    "{\"a\": -}", "{\"a\": 1.}", "{\"a\": 1e}", "{\"a\": tru}", "{\"a\": nul", "{\"a\": \"x\ty\"}", "{\"a\": \"\\q\"}", "{\"a\": \"\\u12g4\"}",
    "{\"a\": \"open", "{} x", "{\"a\": [1, {\"b\": }]}", "\n\n  {\"a\": }", "{\"a\": 1}\n]"
];

test("the offset is where JSON.parse stops, whether or not its message says so", () => {
    for (const text of broken) {
        let message = "";
        try {
            JSON.parse(text);
            assert.fail(`${JSON.stringify(text)} parsed`);
        } catch (error) {
            message = (error as Error).message;
        }
        const offset = syntaxErrorOffset(text);
        assert.notEqual(offset, null, JSON.stringify(text));
        const given = / at position (\d+)/.exec(message);
        if (given !== null) assert.equal(offset, Number(given[1]), `${JSON.stringify(text)}: ${message}`);
        else if (/Unexpected end/.test(message)) assert.equal(offset, text.length, JSON.stringify(text));
        else assert.equal(`'${text[offset!]}'`, /Unexpected token '(.)'/.exec(message)?.[0].slice(17), `${JSON.stringify(text)}: ${message}`);
    }
    for (const text of ["{}", " [1, -2.5e+3, \"\\u00e9\\n\", true, false, null, {\"a\": {}}] "]) assert.equal(syntaxErrorOffset(text), null);
});

test("the message names the file, the line and the column, counted from 1", () => {
    const problem = (text: string) => {
        try {
            JSON.parse(text);
        } catch (error) {
            return jsonProblem("x.json", text, error);
        }
        return "parsed";
    };
    assert.equal(problem("{\n  \"a\": tru\n}"), "x.json:2:11: not JSON (Unexpected token '\\n')");
    assert.equal(problem("{\n  \"a\": 1,\n}"), "x.json:3:1: not JSON (Expected double-quoted property name)");
    assert.equal(problem("{\n  \"a\": "), "x.json:2:8: not JSON (the file ends before the JSON does)");
});
