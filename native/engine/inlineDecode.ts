/**
 * Which decodes run on the main thread. node-llama-cpp runs each decode as a worker job: the main thread
 * hands it to a pool thread and is woken when it ends. On this 2-core VM that hand-off costs about 150 us per decode
 * on top of llama_decode (stories260K, 1 thread: a decode awaited for 380 us, of which llama.cpp counted 230 us), and
 * llama.cpp's own server, whose loop never hands off, serves a token in 340 us. Where a decode is that short the hand-off
 * is most of the cost; where it is long (a real model on a CPU: 65 ms a token for the Qwen3-0.6B shape) it is noise,
 * and blocking the main thread for it would hold every other request up.
 *
 * The rule: a decode runs on the main thread when the last decode of the same number of tokens took less than
 * `maxInlineMs` (4 ms: the hand-off is then at most about 7% of a step, and a step blocks the event loop no longer
 * than that). A batch size never seen yet is decoded as a worker job and timed. Times keep being measured, so a decode
 * that grows slower (a long context) goes back to the worker. The patched node-llama-cpp
 * (`patches/node-llama-cpp+*.patch`) asks `inline` before each decode, when the binding has `decodeBatchSync` (a
 * binding built by `npm run build:engine`), gives the event loop one turn first, and reports every decode's time.
 *
 * Samplings that return probabilities or logits (a logprobs request's scoring pass: one per output token after one
 * decode; a decision round's label logits) are worker jobs of their own, and for a small vocabulary the hand-off is
 * nearly all of one: 64 of them took 4.5-7.7 ms on stories260K, about 100 us each. One runs on the main thread
 * (`sampleTokenSync`) when the last one took under `maxInlineSampleMs` (1 ms; a 151,936-token vocabulary sorted for
 * its top alternatives takes longer, and stays on the worker), and while the samplings run inline since the event
 * loop last turned add up to less than `maxInlineMs`.
 */
export type InlineDecodeOptions = {maxInlineMs?: number, maxInlineSampleMs?: number};

export class InlineDecode {
    private readonly maxInlineMs: number;
    private readonly maxInlineSampleMs: number;
    /** The last decode time seen for each batch size, in milliseconds. */
    private readonly lastMs = new Map<number, number>();
    /** The last sampling's time (none seen yet: a worker job, timed). */
    private lastSampleMs = Infinity;
    /** Time spent in inline samplings since the event loop last turned. */
    private sampledInlineMs = 0;
    /** Decodes and samplings run each way (for the tests and the benchmark). */
    public readonly counts = {inline: 0, worker: 0, sampledInline: 0, sampledOnWorker: 0};
    /**
     * Their total time, either way, as awaited (a worker job's hand-off included): a benchmark subtracts it from a
     * request's wall time to find what the rest of the engine costs.
     */
    public readonly milliseconds = {decodes: 0, samplings: 0};

    public constructor(options: InlineDecodeOptions = {}) {
        this.maxInlineMs = options.maxInlineMs ?? 4;
        this.maxInlineSampleMs = options.maxInlineSampleMs ?? 1;
    }

    public readonly inline = (batchSize: number): boolean => {
        const last = this.lastMs.get(batchSize);
        return last != null && last < this.maxInlineMs;
    };

    public readonly measured = (batchSize: number, milliseconds: number, inline: boolean): void => {
        this.lastMs.set(batchSize, milliseconds);
        this.counts[inline ? "inline" : "worker"]++;
        this.milliseconds.decodes += milliseconds;
    };

    public readonly sampleInline = (): boolean => this.lastSampleMs < this.maxInlineSampleMs && this.sampledInlineMs < this.maxInlineMs;

    public readonly sampled = (milliseconds: number, inline: boolean): void => {
        this.lastSampleMs = milliseconds;
        this.counts[inline ? "sampledInline" : "sampledOnWorker"]++;
        this.milliseconds.samplings += milliseconds;
        if (!inline) return;
        if (this.sampledInlineMs === 0) setImmediate(() => this.sampledInlineMs = 0);
        this.sampledInlineMs += milliseconds;
    };
}
