import {test} from "node:test";
import assert from "node:assert/strict";
import {labelVariants, poolLabelLogits, softmax} from "./probabilities.ts";

test("labelVariants lists each case with and without a leading space, once", () => {
    assert.deepEqual(labelVariants("A"), ["A", "a", " A", " a"]);
    assert.deepEqual(labelVariants("yes"), ["yes", "YES", "Yes", " yes", " YES", " Yes"]);
});

test("softmax of pooled logits equals each label's summed variant mass among all label tokens", () => {
    // A vocabulary of 50 tokens; label 0 owns tokens 3, 7, 11; label 1 owns 20; label 2 owns 30 and 31.
    const logits = Array.from({length: 50}, (_, index) => Math.sin(index * 1.7) * 6);
    const tokens = [[3, 7, 11], [20], [30, 31]];
    const pooled = softmax(poolLabelLogits(tokens, logits));
    const mass = tokens.map((ids) => ids.reduce((sum, id) => sum + Math.exp(logits[id]), 0));
    const total = mass.reduce((a, b) => a + b, 0);
    pooled.forEach((p, index) => assert.ok(Math.abs(p - mass[index] / total) < 1e-12));
});

test("a token listed twice for one label counts once", () => {
    const logits = [0, 1, 2, 3];
    assert.deepEqual(poolLabelLogits([[1, 1], [2]], logits), poolLabelLogits([[1], [2]], logits));
});

test("a token shared by two labels, a label without tokens or an id outside the logits throws", () => {
    assert.throws(() => poolLabelLogits([[1], [1]], [0, 1]), RangeError);
    assert.throws(() => poolLabelLogits([[0], []], [0, 1]), RangeError);
    assert.throws(() => poolLabelLogits([[0], [5]], [0, 1]), RangeError);
});
