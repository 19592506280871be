

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
 * being refused, over the time between the first and the last of them. Until three did, the pace is unknown (a
 * first `Retry-After` only says when the bucket holds one more request, not how fast it refills), so the rate is
 * null rather than the burst's. A window without any refusal means the limit no longer binds.
 */
export class RateMeter {
    private readonly windowMs: number;
    private readonly now: () => number;
    private times: number[] = [];
    private startedAt: number;
    private lastRefusalAt: number | null = null;
    /** Completion times of rows that were refused for the rate limit before they went through (the last 100). */
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

    /** A row finished; `wasRefused`: its request had been refused for the rate limit first. */
    public record(wasRefused = false) {
        const now = this.now();
        this.times.push(now);
        if (wasRefused && this.rateLimited()) this.paced = [...this.paced.slice(-99), now];
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
