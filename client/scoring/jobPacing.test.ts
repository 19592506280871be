import {test} from "node:test";
import assert from "node:assert/strict";
import {RateMeter} from "./jobPacing.ts";

/** A meter on a clock the test moves. */
function meter() {
    let now = 0;
    const rates = new RateMeter(20_000, () => now);
    return {rates, at: (ms: number) => now = ms};
}

test("without refusals the rate is the window's: rows finished over the time they took", () => {
    const {rates, at} = meter();
    for (let ms = 100; ms <= 1000; ms += 100) {
        at(ms);
        rates.record();
    }
    assert.equal(rates.rateLimited(), false);
    assert.ok(Math.abs(rates.rate()! - 10) < 1e-9);
});

test("a rate limit of 10 a minute after a burst of 10: the pace is one row per 6 s, not the burst's 10 a second", () => {
    const {rates, at} = meter();
    for (let ms = 100; ms <= 1000; ms += 100) {
        at(ms);
        rates.record();
    }
    // The bucket is empty: the next request is refused, to come back in 6 s. The pace is not known yet.
    at(1000);
    rates.throttled();
    assert.equal(rates.rateLimited(), true);
    assert.equal(rates.rate(), null, "not the burst's 10 a second");
    // From then on one row gets through every 6 s, each after a refusal; the others keep being refused.
    for (let ms = 7000; ms <= 31_000; ms += 6000) {
        at(ms - 10);
        rates.throttled();
        at(ms);
        rates.record(true);
        assert.ok(rates.rate() === null || Math.abs(rates.rate()! - 1 / 6) < 1e-9, `${rates.rate()} at ${ms} ms`);
    }
    assert.ok(Math.abs(rates.rate()! - 1 / 6) < 1e-9, `${rates.rate()}`);
    // 40 rows left at that pace: 4 minutes, where the burst's rate said 4 seconds.
    assert.ok(Math.abs(40 / rates.rate()! - 240) < 1e-6);
});

test("a window without refusals means the limit no longer binds; restart forgets it", () => {
    const {rates, at} = meter();
    at(1000);
    rates.throttled();
    at(21_001);
    assert.equal(rates.rateLimited(), false);
    rates.throttled();
    rates.restart();
    assert.equal(rates.rateLimited(), false);
    assert.equal(rates.rate(), null);
});
