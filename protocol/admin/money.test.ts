import assert from "node:assert/strict";
import {test} from "node:test";
import {axisMoney, displayMoney, formatMoney} from "./money.ts";

test("money reads one way everywhere: two decimals from 0.01 up, the digits of a smaller amount, the exact amount apart", () => {
    assert.equal(displayMoney(24_935_645), "24.94");
    assert.equal(displayMoney(25_000_000), "25.00");
    assert.equal(displayMoney(0), "0.00");
    assert.equal(displayMoney(4_995_000), "5.00", "half up");
    assert.equal(displayMoney(-1_234_567), "-1.23");
    assert.equal(displayMoney(10_000), "0.01");
    assert.equal(displayMoney(45), "0.000045", "a cost below a hundredth keeps its digits");
    assert.equal(formatMoney(24_935_645), "24.935645", "the exact amount, for the title");
});

test("an axis's ticks share their decimals, chosen from its largest value", () => {
    const small = axisMoney(90);
    assert.deepEqual([0, 45, 90].map(small), ["0.000000", "0.000045", "0.000090"]);
    assert.deepEqual([0, 2_500_000, 5_000_000].map(axisMoney(5_000_000)), ["0.00", "2.50", "5.00"]);
    assert.deepEqual([0, 2_500, 5_000].map(axisMoney(5_000)), ["0.0000", "0.0025", "0.0050"]);
});
