import {describe, test} from "node:test";
import assert from "node:assert/strict";
import type {PromptVersion} from "../../../../client/experiments/types.ts";
import {diffCounts, diffLines, stableJson, versionText} from "./versionDiff.ts";

describe("line diff of two versions", () => {
    test("equal texts give only unchanged rows, numbered on both sides", () => {
        const rows = diffLines("a\nb", "a\nb");
        assert.deepEqual(rows, [
            {kind: "same", left: {number: 1, text: "a"}, right: {number: 1, text: "a"}},
            {kind: "same", left: {number: 2, text: "b"}, right: {number: 2, text: "b"}}
        ]);
    });

    test("a replaced line sits beside its replacement; an inserted line is an addition", () => {
        const rows = diffLines("one\ntwo\nthree", "one\nTWO\nthree\nfour");
        assert.deepEqual(rows.map((row) => row.kind), ["same", "changed", "same", "added"]);
        assert.deepEqual(rows[1], {kind: "changed", left: {number: 2, text: "two"}, right: {number: 2, text: "TWO"}});
        assert.deepEqual(rows[3], {kind: "added", right: {number: 4, text: "four"}});
        assert.deepEqual(diffCounts(rows), {removed: 1, added: 2});
    });

    test("a removed line in the middle keeps the common lines on both sides aligned", () => {
        const rows = diffLines("a\nb\nc\nd", "a\nc\nd");
        assert.deepEqual(rows.map((row) => row.kind), ["same", "removed", "same", "same"]);
        const last = rows[3];
        assert.ok(last.kind === "same");
        assert.equal(last.left.number, 4);
        assert.equal(last.right.number, 3);
    });

    test("the longest common subsequence is kept when lines move", () => {
        const rows = diffLines("x\na\nb\nc", "a\nb\nc\nx");
        assert.deepEqual(diffCounts(rows), {removed: 1, added: 1});
        assert.equal(rows.filter((row) => row.kind === "same").length, 3);
    });

    test("pretty JSON sorts keys, so the same value always reads the same", () => {
        assert.equal(stableJson({b: 1, a: {d: [2, {f: 1, e: 0}], c: null}}), stableJson({a: {c: null, d: [2, {e: 0, f: 1}]}, b: 1}));
    });

    test("a chat version reads as its note, each message's text and the other fields", () => {
        const version: PromptVersion = {
            itemId: "i", itemName: "Support", version: 2, note: "shorter system prompt", createdAt: 0,
            prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "system", content: "Be brief."}, {role: "user", content: "Hello {{name}}\nline two"}], temperature: 0.2}}
        };
        assert.equal(versionText(version), [
            "note: shorter system prompt",
            "── system ──", "Be brief.",
            "── user ──", "Hello {{name}}", "line two",
            "── request fields ──", "{", "  \"temperature\": 0.2", "}"
        ].join("\n"));
    });
});

test("a question set reads in the studio's fixed key order (type, name, instructions), not sorted", () => {
    const version: PromptVersion = {itemId: "q", itemName: "Tone", version: 1, note: "", createdAt: 0, prompt: {kind: "decision", input: {kind: "row"},
        questionSet: {format: "decisions", name: "Tone", questions: [{type: "predicate", name: "polite", instructions: "Is the text polite?"}]}}};
    const lines = versionText(version).split("\n").map((line) => line.trim());
    const at = (start: string) => lines.findIndex((line) => line.startsWith(start));
    assert.ok(at("\"format\"") < at("\"name\": \"Tone\"") && at("\"name\": \"Tone\"") < at("\"questions\""), lines.join("\n"));
    assert.ok(at("\"type\"") < at("\"name\": \"polite\"") && at("\"name\": \"polite\"") < at("\"instructions\""), lines.join("\n"));
});
