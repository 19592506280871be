import {test} from "node:test";
import assert from "node:assert/strict";
import {parseRetryAfter} from "../../base/common/retryAfter.ts";
import {parseServerTiming} from "./http.ts";

test("Server-Timing: the total metric, else the first with a duration", () => {
    assert.equal(parseServerTiming("total;dur=12.3"), 12.3);
    assert.equal(parseServerTiming("db;dur=2, total;dur=40;desc=\"all\""), 40);
    assert.equal(parseServerTiming("cache;desc=hit, app;dur=5.5"), 5.5);
    assert.equal(parseServerTiming("Total; DUR = 7"), 7);
    assert.equal(parseServerTiming("miss"), null);
    assert.equal(parseServerTiming("total;dur=abc"), null);
    assert.equal(parseServerTiming(null), null);
});

test("Retry-After: delta seconds, HTTP dates, junk", () => {
    const now = Date.parse("2026-03-01T12:00:00Z");
    assert.equal(parseRetryAfter("1", now), 1);
    assert.equal(parseRetryAfter(" 120 ", now), 120);
    assert.equal(parseRetryAfter("Sun, 01 Mar 2026 12:00:30 GMT", now), 30);
    assert.equal(parseRetryAfter("Sun, 01 Mar 2026 11:00:00 GMT", now), 0);
    assert.equal(parseRetryAfter("-5", now), null);
    assert.equal(parseRetryAfter("soon", now), null);
    assert.equal(parseRetryAfter("", now), null);
    assert.equal(parseRetryAfter(null, now), null);
});
