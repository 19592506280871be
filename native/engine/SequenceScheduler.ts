import type {LlamaContextSequence, Token} from "node-llama-cpp";
import {ApiError} from "../../protocol/errors.ts";

/** Length of the shared prefix of two token lists: the part of a prompt the KV cache can keep. */
export function commonPrefixLength(a: readonly number[], b: readonly number[]): number {
    const limit = Math.min(a.length, b.length);
    let index = 0;
    while (index < limit && a[index] === b[index]) index++;
    return index;
}

export type SequenceLease = {
    sequence: LlamaContextSequence,
    /** Prompt tokens already in this sequence's KV cache when it was handed out. */
    reusablePrefix: number,
    release(): void
};

type Waiter = {prompt: readonly Token[], resolve(lease: SequenceLease): void, reject(error: unknown): void};

/**
 * Hands the parallel sequences of one context to requests. Free sequences go to the waiting request whose
 * prompt shares the longest prefix with them (so the KV cache is reused); at most `maxQueue` requests wait,
 * and past that the request is refused with 429 `service_busy` (spec §7) instead of queueing forever.
 */
export class SequenceScheduler {
    /** Each sequence's id: its place in the list given to the constructor (see leasedSequenceIds). */
    private readonly ids: ReadonlyMap<LlamaContextSequence, number>;
    private readonly leased = new Set<number>();
    private readonly free: LlamaContextSequence[];
    private readonly waiting: Waiter[] = [];
    private readonly maxQueue: number;
    private readonly retryAfterSeconds: number;

    public constructor(sequences: LlamaContextSequence[], {maxQueue, retryAfterSeconds = 1}: {maxQueue: number, retryAfterSeconds?: number}) {
        this.ids = new Map(sequences.map((sequence, id) => [sequence, id]));
        this.free = [...sequences];
        this.maxQueue = maxQueue;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public get queued() {
        return this.waiting.length;
    }

    public get idle() {
        return this.free.length;
    }

    /**
     * Ids of the sequences leased to requests now (decodeGathering.ts waits only for these). A sequence's id is its
     * place in the list given to the constructor: node-llama-cpp numbers the sequences of a fresh context 0, 1, ... in
     * the order they are taken, as LocalEngine takes them (it keeps the id to itself).
     */
    public leasedSequenceIds(): ReadonlySet<number> {
        return this.leased;
    }

    public acquire(prompt: readonly Token[], signal?: AbortSignal): Promise<SequenceLease> {
        if (signal?.aborted) return Promise.reject(signal.reason);
        if (this.free.length > 0) return Promise.resolve(this.lease(this.takeBestFor(prompt), prompt));
        if (this.waiting.length >= this.maxQueue)
            return Promise.reject(new ApiError(429, "service_busy",
                `the local engine is busy: ${this.waiting.length} requests are already waiting; retry after ${this.retryAfterSeconds} s`,
                {retryAfter: this.retryAfterSeconds}));

        return new Promise((resolve, reject) => {
            const waiter: Waiter = {prompt, resolve, reject};
            this.waiting.push(waiter);
            signal?.addEventListener("abort", () => {
                const index = this.waiting.indexOf(waiter);
                if (index >= 0) this.waiting.splice(index, 1);
                reject(signal.reason);
            }, {once: true});
        });
    }

    private lease(sequence: LlamaContextSequence, prompt: readonly Token[]): SequenceLease {
        let released = false;
        this.leased.add(this.idOf(sequence));
        return {
            sequence,
            reusablePrefix: commonPrefixLength(sequence.contextTokens, prompt),
            release: () => {
                if (released) return;
                released = true;
                this.giveBack(sequence);
            }
        };
    }

    private giveBack(sequence: LlamaContextSequence) {
        this.leased.delete(this.idOf(sequence));
        this.free.push(sequence);
        const waiter = this.waiting.shift();
        if (waiter != null) waiter.resolve(this.lease(this.takeBestFor(waiter.prompt), waiter.prompt));
    }

    /**
     * The free sequence holding the longest prefix of `prompt`; among equals the lowest id, which keeps the busy
     * sequences' ids consecutive: llama.cpp decodes a gap in them (sequences 0 and 2) as separate ubatches.
     */
    private takeBestFor(prompt: readonly Token[]): LlamaContextSequence {
        let bestIndex = 0;
        let bestLength = -1;
        this.free.forEach((sequence, index) => {
            const length = commonPrefixLength(sequence.contextTokens, prompt);
            if (length > bestLength || (length === bestLength && this.idOf(sequence) < this.idOf(this.free[bestIndex]))) {
                bestLength = length;
                bestIndex = index;
            }
        });
        return this.free.splice(bestIndex, 1)[0];
    }

    private idOf(sequence: LlamaContextSequence): number {
        return this.ids.get(sequence)!;
    }
}
