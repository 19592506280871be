import {test} from "node:test";
import assert from "node:assert/strict";
import {countJsonValues} from "./parseDecisionsRequest.ts";

test("every value node counts, keys do not", () => {
    assert.equal(countJsonValues(null), 1);
    assert.equal(countJsonValues("text"), 1);
    assert.equal(countJsonValues([]), 1);
    assert.equal(countJsonValues({}), 1);
    assert.equal(countJsonValues([1, "a", true, null]), 5);
    // root, a, a[0], a[1], b, b.c
    assert.equal(countJsonValues({a: [1, 2], b: {c: false}}), 6);
});

test("deep nesting does not overflow the stack", () => {
    const text = "[".repeat(200_000) + "]".repeat(200_000);
    assert.equal(countJsonValues(JSON.parse(text)), 200_000);
});

test("stopAfter ends the walk early with a count above the limit", () => {
    const big = new Array(1_000_000).fill(0);
    assert.equal(countJsonValues(big, 10), 11);
    assert.equal(countJsonValues(big), 1_000_001);
});
