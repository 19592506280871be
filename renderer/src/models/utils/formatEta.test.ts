import {test} from "node:test";
import assert from "node:assert/strict";
import {formatEta} from "./formatEta.ts";

test("seconds, minutes and hours read the way people say them", () => {
    assert.equal(formatEta(0.4), "< 1 s");
    assert.equal(formatEta(4.4), "4 s");
    assert.equal(formatEta(59.6), "1 min");
    assert.equal(formatEta(80), "1 min 20 s");
    assert.equal(formatEta(3600), "1 h");
    assert.equal(formatEta(2 * 3600 + 5 * 60 + 7), "2 h 5 min");
});

test("a nonsense estimate is unknown, not a negative time", () => {
    assert.equal(formatEta(-3), "unknown");
    assert.equal(formatEta(Number.POSITIVE_INFINITY), "unknown");
    assert.equal(formatEta(Number.NaN), "unknown");
});
