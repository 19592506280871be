import {test} from "node:test";
import assert from "node:assert/strict";
import {normalCdf, normalQuantile} from "./normal.ts";

const close = (actual: number, expected: number, relative: number) =>
    assert.ok(Math.abs(actual - expected) <= relative * Math.abs(expected) + 1e-300, `expected ${expected}, got ${actual}`);

test("the normal CDF matches scipy.stats.norm.cdf in both tails and the middle", () => {
    // Reference values: scipy 1.x, norm.cdf(x).
    const reference: Array<[number, number]> = [
        [-8, 6.22096057427174e-16], [-3, 0.0013498980316300933], [-1.96, 0.024997895148220435], [-0.5, 0.3085375387259869],
        [0, 0.5], [0.5, 0.6914624612740131], [1.2, 0.8849303297782918], [2.5, 0.9937903346742238], [6, 0.9999999990134123]
    ];
    for (const [x, expected] of reference) close(normalCdf(x), expected, 1e-13);
    assert.ok(Number.isNaN(normalCdf(Number.NaN)));
});

test("the normal quantile matches scipy.stats.norm.ppf, and inverts the CDF", () => {
    // Reference values: scipy 1.x, norm.ppf(p).
    const reference: Array<[number, number]> = [
        [1e-10, -6.361340902404056], [0.001, -3.090232306167813], [0.025, -1.9599639845400545], [0.05, -1.6448536269514729],
        [0.2, -0.8416212335729142], [0.8, 0.8416212335729143], [0.975, 1.959963984540054], [0.999, 3.090232306167813],
        [0.9999999999, 6.361340889697422]
    ];
    for (const [p, expected] of reference) close(normalQuantile(p), expected, 1e-12);
    assert.equal(normalQuantile(0.5), 0);
    assert.equal(normalQuantile(0), Number.NEGATIVE_INFINITY);
    assert.equal(normalQuantile(1), Number.POSITIVE_INFINITY);
    assert.ok(Number.isNaN(normalQuantile(1.5)));
    for (const p of [0.01, 0.3, 0.7, 0.99]) close(normalCdf(normalQuantile(p)), p, 1e-13);
});
