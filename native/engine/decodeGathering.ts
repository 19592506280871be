/**
 * When a decode is dispatched. node-llama-cpp decodes whatever is queued on the next turn of the event loop, but the
 * sequences of one step come back from sampling a few hundred microseconds apart (one worker job each), so with 4
 * generating sequences a step ran as 2-3 decodes of 1-3 tokens. On a CPU a decode of 4 sequences costs about as much
 * as 1.7 decodes of one (Qwen3-0.6B shape, Q8_0, 1 thread: 113 ms against 65), so every split step is time lost:
 * in process, 4 clients reached 19.5 tok/s with node-llama-cpp's schedule and 31 with this one.
 *
 * The rule: a decode waits until every sequence that took part in the previous decode and is still leased to a
 * request has queued its next tokens; a new request's prompt joins whichever decode comes next. It never waits
 * longer than a quarter of a recent step (capped at `maxWaitMs`), so a sequence that has gone quiet (its client reads
 * slowly, it is erasing tokens) holds the others once, and is not waited for again until it decodes again.
 */

/** The sequences whose decodes are queued now (passed by patches/node-llama-cpp+*.patch as the schedule's 2nd argument). */
type QueuedSequenceIds = ReadonlySet<number>;

export type DecodeGatheringOptions = {
    /** Ids of the sequences leased to requests now (idle ones are never waited for). */
    leasedSequenceIds(): ReadonlySet<number>,
    /** The longest a decode is held back for a sequence that has not queued yet (10 ms)... */
    maxWaitMs?: number,
    /** ...and at most this share of a recent step (0.25). */
    stepShare?: number
};

export class DecodeGathering {
    private readonly options: DecodeGatheringOptions;
    /** Sequences in the decode dispatched last. */
    private lastBatch: ReadonlySet<number> = new Set();
    private lastDispatchAt = 0;
    /**
     * A moving average of a step: from a dispatch until a sequence of that decode queues its next token (decode,
     * sampling, the token's JavaScript). Only such returns are counted, so idle time between requests is not.
     */
    private stepMs = 0;
    /** Decodes that waited for a sequence that never came (for the tests). */
    public readonly counts = {cutShort: 0};

    public constructor(options: DecodeGatheringOptions) {
        this.options = options;
    }

    /** node-llama-cpp's `batching.dispatchSchedule`: called once when the first decode of a batch is queued. */
    public readonly schedule = (dispatch: () => void, queued?: QueuedSequenceIds): void => {
        if (queued == null) return void setImmediate(dispatch);
        const started = performance.now();
        const atSchedule = new Set(queued);
        const first = atSchedule.values().next().value as number;
        if (this.lastDispatchAt > 0 && this.lastBatch.has(first)) {
            const step = started - this.lastDispatchAt;
            this.stepMs = this.stepMs === 0 ? step : this.stepMs * 0.8 + step * 0.2;
        }
        // No step measured yet (the first decodes): nothing to scale a wait by, so none.
        const maxWaitMs = this.stepMs === 0 ? 0 : Math.min(this.options.maxWaitMs ?? 10, this.stepMs * (this.options.stepShare ?? 0.25));
        const check = () => {
            // Gone from the queue: node-llama-cpp dispatched on its own (it does once every sequence is queued).
            if (!queued.has(first)) return this.dispatched(atSchedule);
            // Leases are read again each time: a request that ends while we wait stops being waited for at once.
            const complete = this.waitingFor(queued) === undefined;
            if (!complete && performance.now() - started < maxWaitMs) return void setImmediate(check);
            if (!complete && maxWaitMs > 0) this.counts.cutShort++;
            this.dispatched(queued);
            dispatch();
        };
        setImmediate(check);
    };

    /** A sequence of the previous decode, still leased, that has not queued its next tokens; none when complete. */
    private waitingFor(queued: QueuedSequenceIds): number | undefined {
        const leased = this.options.leasedSequenceIds();
        for (const id of this.lastBatch) if (!queued.has(id) && leased.has(id)) return id;
        return undefined;
    }

    private dispatched(batch: QueuedSequenceIds) {
        this.lastDispatchAt = performance.now();
        this.lastBatch = new Set(batch);
    }
}
