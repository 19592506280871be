

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
 * Rows per second over a sliding window of recent completions. `restart` forgets the window (after a pause),
 * so the rate and an ETA from it describe the job while it runs, not the time it sat paused.
 */
export class RateMeter {
    private readonly windowMs: number;
    private readonly now: () => number;
    private times: number[] = [];
    private startedAt: number;

    public constructor(windowMs = 20_000, now: () => number = () => performance.now()) {
        this.windowMs = windowMs;
        this.now = now;
        this.startedAt = now();
    }

    public restart() {
        this.times = [];
        this.startedAt = this.now();
    }

    public record() {
        this.times.push(this.now());
    }

    /** Null until two rows finished in the window. */
    public rate(): number | null {
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
