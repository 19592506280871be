import {test} from "node:test";
import assert from "node:assert/strict";
import {averageOrders, reversedOrder} from "./probabilities.ts";

const close = (actual: readonly number[], expected: readonly number[]) =>
    actual.forEach((value, index) => assert.ok(Math.abs(value - expected[index]) < 1e-12, `${actual} != ${expected}`));

test("the reversed run is mapped back to options before averaging", () => {
    // Option 0 is shown last in the reversed run, so its probability there is the last entry.
    const result = averageOrders([
        {order: [0, 1, 2], probabilities: [0.6, 0.3, 0.1]},
        {order: reversedOrder(3), probabilities: [0.2, 0.4, 0.4]}
    ]);
    close(result, [(0.6 + 0.4) / 2, (0.3 + 0.4) / 2, (0.1 + 0.2) / 2]);
    close([result.reduce((a, b) => a + b, 0)], [1]);
});

test("a linear position bias that favours the first slot cancels out", () => {
    const truth = [0.5, 0.3, 0.2];
    const bias = [0.06, 0, -0.06];
    const run = (order: number[]) => ({order, probabilities: order.map((option, position) => truth[option] + bias[position])});
    close(averageOrders([run([0, 1, 2]), run(reversedOrder(3))]), truth);
});

test("runs that are not permutations of the same options throw", () => {
    assert.throws(() => averageOrders([]), RangeError);
    assert.throws(() => averageOrders([{order: [0, 0], probabilities: [0.5, 0.5]}]), RangeError);
    assert.throws(() => averageOrders([{order: [0, 1], probabilities: [0.5, 0.5]}, {order: [0, 1, 2], probabilities: [0.3, 0.3, 0.4]}]), RangeError);
});
