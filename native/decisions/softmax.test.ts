import {test} from "node:test";
import assert from "node:assert/strict";
import {logSoftmax, softmax} from "./probabilities.ts";

const close = (actual: number, expected: number, tolerance = 1e-12) =>
    assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} != ${expected}`);

test("softmax matches the textbook formula and sums to 1", () => {
    const logits = [1, 2, 3];
    const denominator = Math.exp(1) + Math.exp(2) + Math.exp(3);
    softmax(logits).forEach((p, index) => close(p, Math.exp(logits[index]) / denominator));
    close(softmax([0.3, -2, 5, 5]).reduce((a, b) => a + b, 0), 1);
});

test("huge logits do not overflow and shifting all logits changes nothing", () => {
    const shifted = softmax([1000, 1001, 999]);
    const plain = softmax([1, 2, 0]);
    shifted.forEach((p, index) => close(p, plain[index]));
    assert.deepEqual(softmax([-Infinity, 0]), [0, 1]);
});

test("temperature flattens or sharpens", () => {
    const sharp = softmax([1, 2], 0.5);
    const flat = softmax([1, 2], 2);
    assert.ok(sharp[1] > softmax([1, 2])[1] && softmax([1, 2])[1] > flat[1]);
    close(sharp[1], softmax([2, 4])[1]);
});

test("log-probabilities stay finite where probabilities underflow", () => {
    const logs = logSoftmax([0, 2000]);
    close(logs[0], -2000, 1e-9);
    assert.equal(softmax([0, 2000])[0], 0);
});

test("no finite logit, empty input or a bad temperature throws", () => {
    assert.throws(() => softmax([]), RangeError);
    assert.throws(() => softmax([-Infinity, -Infinity]), RangeError);
    assert.throws(() => softmax([1, 2], 0), RangeError);
});
