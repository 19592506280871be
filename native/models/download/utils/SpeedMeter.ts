/** Download speed over the last few seconds (not since the start, so a stall or a burst shows promptly). */
export class SpeedMeter {
    private readonly windowMs: number;
    private samples: Array<{at: number, bytes: number}> = [];

    public constructor(windowMs = 5_000) {
        this.windowMs = windowMs;
    }

    /** Records the running byte count at time `at` (ms) and returns bytes per second over the window. */
    public add(bytes: number, at: number): number {
        this.samples.push({at, bytes});
        while (this.samples.length > 2 && at - this.samples[1].at >= this.windowMs) this.samples.shift();
        const first = this.samples[0];
        const elapsed = (at - first.at) / 1000;
        return elapsed > 0 ? (bytes - first.bytes) / elapsed : 0;
    }

    /** Starts over (a new attempt: its first bytes must not count the pause before it). */
    public reset() {
        this.samples = [];
    }
}
