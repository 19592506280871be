// A seeded pseudo-random generator (mulberry32): the same numbers for the same seed on every machine, for
// synthetic test data and for the bootstrap intervals of experiments, which must not change between views.

/** The generator with its state: `next` one number at a time, `addDraws` a bootstrap resample's rows in one tight loop. */
export class SeededRandom {
    private state: number;

    public constructor(seed: number) {
        this.state = seed;
    }

    /** The next number in [0, 1). */
    public next(): number {
        const state = this.state = (this.state + 0x6d2b79f5) >>> 0;
        let t = Math.imul(state ^ (state >>> 15), state | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }

    /**
     * Draws `n` indexes of `n` with replacement, floor(next() · n) each, and adds `unit` to `into` at each: `next`'s
     * step written into the loop, which V8 then compiles the same however the code around it ran (200 million
     * draws for a large summary). Two draws a step: their steps are independent but for the state's addition, and
     * the processor overlaps them.
     */
    public addDraws(into: Float64Array, n: number, unit: number): void {
        // (u / 2^32) · n and u · (n / 2^32) are the same number: scaling by a power of two is exact.
        const scale = n / 4294967296;
        let state = this.state | 0, draw = 0;
        for (; draw + 1 < n; draw += 2) {
            const first = (state + 0x6d2b79f5) | 0, second = state = (state + 0xda56f3ea) | 0;
            let t = Math.imul(first ^ (first >>> 15), first | 1);
            t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
            let u = Math.imul(second ^ (second >>> 15), second | 1);
            u ^= u + Math.imul(u ^ (u >>> 7), u | 61);
            into[Math.floor(((t ^ (t >>> 14)) >>> 0) * scale)] += unit;
            into[Math.floor(((u ^ (u >>> 14)) >>> 0) * scale)] += unit;
        }
        this.state = state >>> 0;
        // An odd n's last draw.
        if (draw < n) into[Math.floor(this.next() * n)] += unit;
    }
}

/** Numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
    const generator = new SeededRandom(seed);
    return () => generator.next();
}
