import {test} from "node:test";
import assert from "node:assert/strict";
import {formatDuration} from "./format.ts";

test("seconds, minutes and hours read the way people say them", () => {
    assert.equal(formatDuration(0.4), "< 1 s");
    assert.equal(formatDuration(4.4), "4 s");
    assert.equal(formatDuration(59.6), "1 min");
    assert.equal(formatDuration(80), "1 min 20 s");
    assert.equal(formatDuration(3600), "1 h");
    assert.equal(formatDuration(2 * 3600 + 5 * 60 + 7), "2 h 5 min");
});

test("a nonsense estimate is unknown, not a negative time", () => {
    assert.equal(formatDuration(-3), "–");
    assert.equal(formatDuration(Number.POSITIVE_INFINITY), "–");
    assert.equal(formatDuration(Number.NaN), "–");
});
