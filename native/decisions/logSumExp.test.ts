import {test} from "node:test";
import assert from "node:assert/strict";
import {logSumExp} from "./probabilities.ts";

test("logSumExp equals log(sum(exp)) and survives huge values", () => {
    assert.ok(Math.abs(logSumExp([1, 2, 3]) - Math.log(Math.exp(1) + Math.exp(2) + Math.exp(3))) < 1e-12);
    assert.ok(Math.abs(logSumExp([1000, 1000]) - (1000 + Math.log(2))) < 1e-9);
    assert.equal(logSumExp([]), -Infinity);
    assert.equal(logSumExp([-Infinity, -Infinity]), -Infinity);
    assert.equal(logSumExp([-Infinity, 5]), 5);
    assert.throws(() => logSumExp([Number.NaN]), RangeError);
});
