// The seeded generator's numbers, one at a time and drawn in a batch, against mulberry32 written out.
import {test} from "node:test";
import assert from "node:assert/strict";
import {SeededRandom, seededRandom} from "./seededRandom.ts";

/** mulberry32 as its author published it (Tommy Ettinger), the reference the generator must equal. */
function mulberry32(seed: number): () => number {
    return () => {
        let t = seed += 0x6d2b79f5;
        t = Math.imul(t ^ t >>> 15, t | 1);
        t ^= t + Math.imul(t ^ t >>> 7, t | 61);
        return ((t ^ t >>> 14) >>> 0) / 4294967296;
    };
}

test("seededRandom gives mulberry32's numbers for the same seed", () => {
    for (const seed of [0, 1, 42, 2026, 0xffffffff]) {
        const ours = seededRandom(seed), reference = mulberry32(seed);
        for (let index = 0; index < 1000; index++) assert.equal(ours(), reference(), `seed ${seed}, number ${index}`);
    }
});

test("drawing a batch of indexes adds at floor(next() · n), and the numbers after it go on where next() would", () => {
    for (const [seed, n] of [[1, 7], [2026, 1000], [0xfffffff0, 100_003]] as const) {
        const batch = new SeededRandom(seed), oneByOne = new SeededRandom(seed);
        const drawn = new Float64Array(n), expected = new Float64Array(n);
        batch.addDraws(drawn, n, 3);
        for (let draw = 0; draw < n; draw++) expected[Math.floor(oneByOne.next() * n)] += 3;
        assert.deepEqual(drawn, expected, `seed ${seed}, n ${n}`);
        assert.equal(drawn.reduce((a, b) => a + b, 0), 3 * n);
        assert.equal(batch.next(), oneByOne.next());
    }
});
