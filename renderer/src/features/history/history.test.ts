import assert from "node:assert/strict";
import {test} from "node:test";
import type {HistoryEntry} from "../playground/runs.ts";
import {searchHistory, summarizeEntry} from "./history.ts";

const entry = (id: string, over: Partial<HistoryEntry>): HistoryEntry => ({
    id, kind: "chat", createdAt: 0, connectionName: "Local engine", connectionKind: "local",
    request: {model: "svc-1", messages: []}, status: "done", reply: null, timing: {}, ...over
});

const entries = [
    entry("a", {request: {model: "svc-1", messages: [{role: "user", content: "Tell me about Paris"}]}, reply: {choices: [{content: "A city"}]}}),
    entry("b", {kind: "completions", request: {model: "svc-1", prompt: "Once upon"}, status: "error", error: {status: 400, code: "invalid_request", message: "cannot read images"}}),
    entry("c", {connectionName: "Staging", request: {model: "svc-1", messages: [{role: "user", content: [{type: "image_url", image_url: {url: "data:image/png;base64,paris"}}]}]}})
];

test("every word must match, in any field, ignoring case", () => {
    assert.deepEqual(searchHistory(entries, "paris").map((item) => item.id), ["a"]);
    assert.deepEqual(searchHistory(entries, "CITY paris").map((item) => item.id), ["a"]);
    assert.deepEqual(searchHistory(entries, "invalid_request images").map((item) => item.id), ["b"]);
    assert.deepEqual(searchHistory(entries, "staging").map((item) => item.id), ["c"]);
    assert.deepEqual(searchHistory(entries, "completions").map((item) => item.id), ["b"]);
});

test("an empty query keeps everything; image data is never matched", () => {
    assert.equal(searchHistory(entries, "  ").length, 3);
    assert.deepEqual(searchHistory(entries, "base64").map((item) => item.id), []);
});

test("a decision run is summed up by its question count and input, on either endpoint", () => {
    const decisions = entry("d", {kind: "decisions", request: {model: "svc-1-decision", input: "Late but fine", questions: [{type: "predicate", instructions: "x"}, {type: "predicate", instructions: "y"}]}});
    assert.equal(summarizeEntry(decisions), "2 questions · Late but fine");
    const images = entry("i", {kind: "decisions", request: {model: "svc-1-decision", input: [{role: "user", content: [{type: "input_text", text: "Look"}, {type: "input_image", image_url: "data:image/png;base64,AAAA"}]}], questions: []}});
    assert.equal(summarizeEntry(images), "0 questions · Look");
    const systemone = entry("s", {kind: "systemone", request: {model: "svc-1-decision", state: {stars: 4}, questions: {ok: {type: "noul", instructions: "x"}}}});
    assert.equal(summarizeEntry(systemone), "1 question · {\"stars\":4}");
    assert.deepEqual(searchHistory([decisions, systemone], "systemone").map((item) => item.id), ["s"]);
});
