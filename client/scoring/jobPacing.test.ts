import {test} from "node:test";
import assert from "node:assert/strict";
import {RateMeter, RatePacer} from "./jobPacing.ts";

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

/** A pacer on a clock the test moves; its waits move the clock and are recorded. */
function pacer() {
    let now = 0;
    const waits: number[] = [];
    const pace = new RatePacer({now: () => now, sleep: async (ms) => {
        waits.push(ms);
        now += ms;
    }});
    return {pace, waits, at: (ms: number) => now = ms, now: () => now};
}

test("after a refusal no attempt on its lane starts before the Retry-After, retries and new requests alike; other lanes go on", async () => {
    const {pace, waits, at, now} = pacer();
    const first = await pace.ready("a");
    const second = await pace.ready("a");
    assert.deepEqual(waits, [], "nothing is held before a refusal");
    at(100);
    pace.refused(first, 2000);
    // The other worker's attempt was already under way: refused too, it asks for no more than the first.
    pace.refused(second, 1000);
    assert.equal((await pace.ready("b")).waited, false, "another model's limit is its own");
    const held = await pace.ready("a");
    assert.equal(held.waited, true);
    assert.equal(now(), 2100, "held until the longer of the two waits");
});

test("once four attempts started after the first refusal were admitted, attempts start one per measured interval", async () => {
    const {pace, at, now} = pacer();
    const burst = [await pace.ready("a"), await pace.ready("a")];
    at(1000);
    pace.refused(burst[0], 1000);
    // An attempt started before the refusal and admitted after it: the limit let it through before, so it says nothing.
    pace.admitted(burst[1]);
    assert.equal(pace.interval("a"), null);
    // Whole-second waits: after each, one admitted, the rest refused again.
    for (let admitted = 1; admitted <= 4; admitted++) {
        const ticket = await pace.ready("a");
        const refusedAlong = await pace.ready("a");
        assert.equal(now(), 1000 + admitted * 1000);
        pace.admitted(ticket);
        if (admitted < 4) pace.refused(refusedAlong, 1000);
    }
    // 4 admitted in the 4 s since the first refusal: one a second.
    assert.equal(pace.interval("a"), 1000);
    const starts: number[] = [];
    for (let index = 0; index < 3; index++) starts.push((await pace.ready("a")).startedAt);
    assert.deepEqual(starts.map((start) => start - starts[0]), [0, 1000, 2000], "spaced, not all at once");
});

test("a refusal while spaced sets the interval to the pace measured since the refusal before it", async () => {
    const {pace, at} = pacer();
    at(0);
    pace.refused(await pace.ready("a"), 1000);
    for (let second = 1; second <= 4; second++) {
        at(second * 1000);
        pace.admitted(await pace.ready("a"));
    }
    const measured = pace.interval("a")!;
    // Admissions shorten the interval a little at a time, to find out whether the limit allows more.
    at(4500);
    pace.admitted(await pace.ready("a"));
    assert.ok(pace.interval("a")! < measured);
    // A refusal 10 s after the first, with 10 admitted since it: the bucket refills one every second.
    for (let index = 0; index < 5; index++) {
        at(5000 + index * 1000);
        pace.admitted(await pace.ready("a"));
    }
    at(10_000);
    pace.refused(await pace.ready("a"), 1000);
    assert.equal(pace.interval("a"), 1000);
});
