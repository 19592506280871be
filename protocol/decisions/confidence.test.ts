import {test} from "node:test";
import assert from "node:assert/strict";
import {confidence} from "./distributions.ts";

test("an even split is confidence 0 for every option count up to 512", () => {
    for (let n = 2; n <= 512; n++) assert.equal(confidence(new Array(n).fill(1 / n)), 0, `n = ${n}`);
});

test("certainty is confidence 1", () => {
    assert.equal(confidence([1, 0]), 1);
    assert.equal(confidence([0, 0, 1, 0]), 1);
    const many = new Array(512).fill(0);
    many[300] = 1;
    assert.equal(confidence(many), 1);
});

test("in between it is (n * p_max - 1) / (n - 1)", () => {
    assert.ok(Math.abs(confidence([0.7, 0.3]) - 0.4) < 1e-12);
    assert.ok(Math.abs(confidence([0.25, 0.5, 0.25]) - 0.25) < 1e-12);
    // Unnormalised input is normalised first.
    assert.ok(Math.abs(confidence([7, 3]) - 0.4) < 1e-12);
});

test("fewer than two options or invalid values throw", () => {
    assert.throws(() => confidence([1]), RangeError);
    assert.throws(() => confidence([0, 0]), RangeError);
    assert.throws(() => confidence([0.5, Number.NaN]), RangeError);
});
