import {test} from "node:test";
import assert from "node:assert/strict";
import {largestRemainderRound, largestRemainderUnits} from "./distributions.ts";

// Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed.
function random(seed: number) {
    return () => {
        seed = (seed + 0x6d2b79f5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

function randomDistribution(next: () => number): number[] {
    const length = 2 + Math.floor(next() * (next() < 0.8 ? 10 : 511));
    // Softmax of logits at a random scale: from nearly even to nearly one-hot.
    const scale = next() * 20;
    const weights = Array.from({length}, () => Math.exp(next() * scale));
    const sum = weights.reduce((a, b) => a + b, 0);
    return weights.map((weight) => weight / sum);
}

test("10,000 random distributions round to hundredths that sum to exactly 1.00", () => {
    const next = random(42);
    for (let round = 0; round < 10_000; round++) {
        const distribution = randomDistribution(next);
        const units = largestRemainderUnits(distribution, 100);
        assert.equal(units.reduce((a, b) => a + b, 0), 100);
        const rounded = largestRemainderRound(distribution);
        assert.deepEqual(rounded, units.map((unit) => unit / 100));
        assert.equal(Math.round(rounded.reduce((a, b) => a + b, 0) * 100), 100);
        // Each value is its floor or floor + 1, and every value bumped up had a remainder at least as large
        // as every value left at its floor: that is the largest-remainder rule.
        const exact = distribution.map((p) => p * 100);
        let smallestBumped = Infinity;
        let largestKept = -Infinity;
        units.forEach((unit, index) => {
            const floor = Math.floor(exact[index] + 1e-9);
            assert.ok(unit === floor || unit === floor + 1, `value ${exact[index]} became ${unit}`);
            const remainder = exact[index] - floor;
            if (unit === floor + 1) smallestBumped = Math.min(smallestBumped, remainder);
            else largestKept = Math.max(largestKept, remainder);
        });
        assert.ok(smallestBumped >= largestKept - 1e-9);
    }
});

test("exact hundredths stay as they are despite float error (0.29 * 100 = 28.999...)", () => {
    assert.deepEqual(largestRemainderRound([0.29, 0.71]), [0.29, 0.71]);
    assert.deepEqual(largestRemainderRound([0.07, 0.57, 0.36]), [0.07, 0.57, 0.36]);
    assert.deepEqual(largestRemainderRound([1, 0]), [1, 0]);
});

test("ties go to the earlier option, so the result is deterministic", () => {
    assert.deepEqual(largestRemainderRound([1 / 3, 1 / 3, 1 / 3]), [0.34, 0.33, 0.33]);
    assert.deepEqual(largestRemainderRound(new Array(7).fill(1 / 7)), [0.15, 0.15, 0.14, 0.14, 0.14, 0.14, 0.14]);
    assert.deepEqual(largestRemainderRound([0.125, 0.125, 0.75]), [0.13, 0.12, 0.75]);
});

test("naive rounding would not sum to 1 where largest remainder does", () => {
    const distribution = [0.335, 0.335, 0.33];
    assert.notEqual(distribution.map((p) => Math.round(p * 100)).reduce((a, b) => a + b, 0), 100);
    assert.equal(largestRemainderUnits(distribution, 100).reduce((a, b) => a + b, 0), 100);
});

test("weights that do not sum to 1 are normalised; bad input throws", () => {
    assert.deepEqual(largestRemainderRound([2, 6]), [0.25, 0.75]);
    assert.throws(() => largestRemainderRound([]), RangeError);
    assert.throws(() => largestRemainderRound([0, 0]), RangeError);
    assert.throws(() => largestRemainderRound([0.5, Number.NaN]), RangeError);
    assert.throws(() => largestRemainderRound([1.5, -0.5]), RangeError);
});
