import {sleep} from "../../base/common/sleep.ts";
import type {PaceTicket, RequestPacer} from "../sdk/retry.ts";


/** Workers await `passed()` before taking a row: it resolves at once when open, on `open()` when closed. */
export class PauseGate {
    private waiting: Promise<void> | null = null;
    private release: (() => void) | null = null;

    public get isOpen(): boolean {
        return this.waiting === null;
    }

    public close() {
        if (this.waiting !== null) return;
        this.waiting = new Promise((resolve) => this.release = resolve);
    }

    public open() {
        this.release?.();
        this.waiting = null;
        this.release = null;
    }

    public passed(): Promise<void> {
        return this.waiting ?? Promise.resolve();
    }
}

/**
 * Rows per second over a sliding window of recent completions, and the pace a server's rate limit allows.
 * `restart` forgets both (after a pause), so the rate and an ETA from it describe the job while it runs, not the
 * time it sat paused.
 *
 * A rate limit lets a burst through (the local engine's bucket holds a minute's worth), then refuses with 429 and
 * `Retry-After` until it refills: the burst's rate says nothing about the pace after it. Once a refusal came
 * (`throttled`), the rate is the lower of the window's and the limit's pace: the rows that went through after
 * being refused or held to the pace (RatePacer), over the time between the first and the last of them. Until three did, the pace is unknown (a
 * first `Retry-After` only says when the bucket holds one more request, not how fast it refills), so the rate is
 * null rather than the burst's. A window without any refusal means the limit no longer binds.
 */
export class RateMeter {
    private readonly windowMs: number;
    private readonly now: () => number;
    private times: number[] = [];
    private startedAt: number;
    private lastRefusalAt: number | null = null;
    /** Completion times of rows refused for the rate limit or held to its pace before they went through (the last 100). */
    private paced: number[] = [];

    public constructor(windowMs = 20_000, now: () => number = () => performance.now()) {
        this.windowMs = windowMs;
        this.now = now;
        this.startedAt = now();
    }

    public restart() {
        this.times = [];
        this.startedAt = this.now();
        this.lastRefusalAt = null;
        this.paced = [];
    }

    /** A row finished; `paced`: its request had been refused for the rate limit, or held to its pace, first. */
    public record(paced = false) {
        const now = this.now();
        this.times.push(now);
        if (paced && this.rateLimited()) this.paced = [...this.paced.slice(-99), now];
    }

    /** The server refused a request for its rate limit (429 with `Retry-After`). */
    public throttled() {
        if (!this.rateLimited()) this.paced = [];
        this.lastRefusalAt = this.now();
    }

    /** Whether a rate-limit refusal came within the window: the pace is then the server's. */
    public rateLimited(): boolean {
        return this.lastRefusalAt !== null && this.now() - this.lastRefusalAt <= this.windowMs;
    }

    /** Null until two rows finished in the window, and while rate-limited until three refused rows went through. */
    public rate(): number | null {
        const windowed = this.windowRate();
        if (!this.rateLimited()) return windowed;
        if (this.paced.length < 3) return null;
        const span = (this.paced[this.paced.length - 1] - this.paced[0]) / 1000;
        const limited = span > 0 ? (this.paced.length - 1) / span : null;
        return windowed === null || limited === null ? limited ?? windowed : Math.min(windowed, limited);
    }

    private windowRate(): number | null {
        const now = this.now();
        const since = now - this.windowMs;
        let first = 0;
        while (first < this.times.length && this.times[first] < since) first++;
        if (first > 0) this.times = this.times.slice(first);
        if (this.times.length < 2) return null;
        // Counted from the window's start (or the run's, if later), so a burst right after a start is not overrated.
        const span = now - Math.max(since, this.startedAt);
        return span > 0 ? this.times.length / (span / 1000) : null;
    }
}

/**
 * Progress to a listener: a state change at once (`report(true)`), completions at most every `intervalMs`, the last
 * one of a burst always delivered (a timer), so a UI neither misses the latest count nor redraws per row.
 */
export class ProgressThrottle {
    private readonly listener: (() => void) | undefined;
    private readonly intervalMs: number;
    private last = 0;
    private timer: ReturnType<typeof setTimeout> | null = null;

    public constructor(listener: (() => void) | undefined, intervalMs: number) {
        this.listener = listener;
        this.intervalMs = intervalMs;
    }

    public report(now = false) {
        const listener = this.listener;
        if (listener === undefined || this.timer !== null && !now) return;
        const wait = this.last + this.intervalMs - performance.now();
        if (now || wait <= 0) {
            this.stop();
            this.last = performance.now();
            listener();
            return;
        }
        this.timer = setTimeout(() => {
            this.timer = null;
            this.last = performance.now();
            listener();
        }, wait);
    }

    /** Drops a report still waiting (the run ended and reports its final state itself). */
    public stop() {
        if (this.timer !== null) clearTimeout(this.timer);
        this.timer = null;
    }
}

type Lane = {
    /** No attempt starts before this time: the latest refusal's Retry-After. */
    holdUntil: number,
    /** While the pace is being measured: when the first refusal came. Null otherwise. */
    measuringSince: number | null,
    /** Attempts started since `measuringSince` that the server admitted. */
    admitted: number,
    /** When the last refusal came; -Infinity before the first. */
    lastRefusalAt: number,
    /** The time between attempt starts once measured; null while attempts are not spaced. */
    interval: number | null,
    /** The share each admission shortens the interval by (see `probe`). */
    step: number,
    /** Whether the step grows at each admission: no refusal came since attempts were spaced, or for `windowMs`. */
    growing: boolean,
    /** Attempts started after the last refusal that the server admitted. */
    sinceRefusal: number,
    /** The earliest start of the next attempt while spaced. */
    nextStart: number
};

/** Admissions under the limit before attempts are spaced by the pace they measure (until then, Retry-After alone). */
const paceAfter = 4;
/**
 * While spaced, each admission shortens the interval by a share: `probe` at first, half as much again at each
 * admission up to `maxProbe` while no refusal came (since attempts were spaced, or for a window), `minProbe` after a
 * refusal. A refusal sets the interval to the pace measured since the refusal before it (the bucket was empty at
 * both, so what it let through between them is what it refilled), or, with fewer than `paceAfter` admissions between
 * them, makes it `backOff` longer. So a long first measure is soon corrected, the interval then keeps to the limit's
 * pace with a refusal now and then, and a limit raised or lifted is found within a few dozen admissions.
 */
const probe = 0.03;
const maxProbe = 0.1;
const minProbe = 0.01;
const backOff = 0.05;
/** An interval shorter than this spaces nothing worth keeping: the lane is free again. */
const minInterval = 1;

/**
 * Paces a run's requests to a server's rate limit, lane by lane (a server and model: what one limit covers, spec §8).
 * The server does not say its rate, only, when it refuses (429), how long to wait (`Retry-After`, in whole seconds,
 * rounded up). So:
 * - after a refusal no attempt on its lane starts before the time it names, new requests and retries alike: the
 *   other workers would only be refused too;
 * - a first refusal starts measuring the pace: once `paceAfter` attempts started since were admitted (not those
 *   already under way: the limit let them through before), the time since that refusal over their number is the
 *   interval (an exhausted bucket lets through what it refills). From then on attempts start one per interval
 *   rather than all together when a wait ends, so the run keeps to the limit with few refusals;
 * - whole-second waits make that measure long when the limit allows more than one request a second (or when the
 *   server answers a refusal late), and attempts spaced by it would only ever measure it again, so the interval
 *   probes (see `probe`): admissions shorten it, and each refusal measures the pace again.
 */
export class RatePacer implements RequestPacer {
    private readonly lanes = new Map<string, Lane>();
    private readonly windowMs: number;
    private readonly now: () => number;
    private readonly wait: (ms: number, signal?: AbortSignal) => Promise<void>;

    /** `windowMs`: after this long without a refusal the interval probes faster again (the limit may have changed). */
    public constructor(options: {windowMs?: number, now?: () => number, sleep?: (ms: number, signal?: AbortSignal) => Promise<void>} = {}) {
        this.windowMs = options.windowMs ?? 20_000;
        this.now = options.now ?? (() => performance.now());
        this.wait = options.sleep ?? sleep;
    }

    public async ready(name: string, signal?: AbortSignal): Promise<PaceTicket> {
        let waited = false;
        for (;;) {
            const now = this.now();
            const lane = this.lane(name);
            const {interval} = lane;
            const at = interval === null ? lane.holdUntil : Math.max(lane.holdUntil, lane.nextStart);
            if (at <= now) {
                // Slots follow each other while attempts keep coming, so a timer firing late does not slow the pace.
                if (interval !== null) lane.nextStart = (now - lane.nextStart < interval ? lane.nextStart : now) + interval;
                return {lane: name, startedAt: now, waited};
            }
            waited = true;
            await this.wait(at - now, signal);
        }
    }

    public admitted(ticket: PaceTicket) {
        const now = this.now();
        const lane = this.lane(ticket.lane);
        if (ticket.startedAt >= lane.lastRefusalAt) lane.sinceRefusal++;
        if (lane.interval !== null) {
            if (now - lane.lastRefusalAt > this.windowMs) lane.growing = true;
            lane.interval *= 1 - lane.step;
            if (lane.growing) lane.step = Math.min(maxProbe, lane.step * 1.5);
            if (lane.interval < minInterval) lane.interval = null;
            return;
        }
        if (lane.measuringSince === null || ticket.startedAt < lane.measuringSince) return;
        lane.admitted++;
        if (lane.admitted < paceAfter) return;
        lane.interval = (now - lane.measuringSince) / lane.admitted;
        lane.measuringSince = null;
        lane.step = probe;
        lane.growing = true;
    }

    public refused(ticket: PaceTicket, retryAfterMs: number) {
        const now = this.now();
        const lane = this.lane(ticket.lane);
        if (lane.interval === null) {
            if (lane.measuringSince === null) {
                lane.measuringSince = now;
                lane.admitted = 0;
            }
        } else if (ticket.startedAt >= lane.lastRefusalAt) {
            // Once per refusal the attempt knew of: the others sent with it were refused for the same too-short interval.
            // Between two refusals the bucket went from empty to empty: what it let through is what it refilled.
            lane.interval = lane.sinceRefusal >= paceAfter ? (now - lane.lastRefusalAt) / lane.sinceRefusal : lane.interval * (1 + backOff);
            lane.step = minProbe;
            lane.growing = false;
        }
        lane.sinceRefusal = 0;
        lane.lastRefusalAt = now;
        lane.holdUntil = Math.max(lane.holdUntil, now + retryAfterMs);
    }

    /** The time between attempt starts on a lane now, in ms; null while they are not spaced. */
    public interval(name: string): number | null {
        return this.lane(name).interval;
    }

    private lane(name: string): Lane {
        let lane = this.lanes.get(name);
        if (lane === undefined) {
            lane = {holdUntil: 0, measuringSince: null, admitted: 0, lastRefusalAt: -Infinity, interval: null, step: probe, growing: true, sinceRefusal: 0, nextStart: 0};
            this.lanes.set(name, lane);
        }
        return lane;
    }
}
