// Student's t against scipy.stats.t (scipy 1.x): each expected value is the call in the comment beside it.
import {test} from "node:test";
import assert from "node:assert/strict";
import {tCdf, tQuantile} from "./studentT.ts";

const close = (actual: number, expected: number, tolerance: number) => assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected} ± ${tolerance}`);

test("the t CDF matches scipy.stats.t.cdf", () => {
    close(tCdf(-2.5, 3), 0.04385332350403278, 1e-12); // t.cdf(-2.5, 3)
    close(tCdf(1.3, 10), 0.8886170913965777, 1e-12); // t.cdf(1.3, 10)
    close(tCdf(-0.4, 1), 0.3788810584091566, 1e-12); // t.cdf(-0.4, 1)
    close(tCdf(-3.7, 59), 0.00023776676063135666, 1e-14); // t.cdf(-3.7, 59)
    close(2 * (1 - tCdf(4.2, 7)), 0.004035559925219959, 1e-12); // 2 * t.sf(4.2, 7)
    assert.equal(tCdf(0, 4), 0.5);
});

test("the t quantile matches scipy.stats.t.ppf", () => {
    close(tQuantile(0.975, 3), 3.1824463052837078, 1e-9); // t.ppf(0.975, 3)
    close(tQuantile(0.975, 59), 2.000995378088267, 1e-9); // t.ppf(0.975, 59)
    close(tQuantile(0.995, 5), 4.032142983555228, 1e-9); // t.ppf(0.995, 5)
    close(tQuantile(0.9875, 2), 6.205346816570706, 1e-8); // t.ppf(0.9875, 2)
    close(tQuantile(0.025, 3), -3.1824463052837078, 1e-9);
});
