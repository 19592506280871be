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
    private readonly free: LlamaContextSequence[];
    private readonly waiting: Waiter[] = [];
    private readonly maxQueue: number;
    private readonly retryAfterSeconds: number;

    public constructor(sequences: LlamaContextSequence[], {maxQueue, retryAfterSeconds = 1}: {maxQueue: number, retryAfterSeconds?: number}) {
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
        const waiter = this.waiting.shift();
        if (waiter == null) {
            this.free.push(sequence);
            return;
        }
        this.free.push(sequence);
        waiter.resolve(this.lease(this.takeBestFor(waiter.prompt), waiter.prompt));
    }

    private takeBestFor(prompt: readonly Token[]): LlamaContextSequence {
        let bestIndex = 0;
        let bestLength = -1;
        this.free.forEach((sequence, index) => {
            const length = commonPrefixLength(sequence.contextTokens, prompt);
            if (length > bestLength) {
                bestLength = length;
                bestIndex = index;
            }
        });
        return this.free.splice(bestIndex, 1)[0];
    }
}
