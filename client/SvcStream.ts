import type {ResponseMeta} from "./types.ts";

/**
 * A streamed answer: iterate it with `for await`. The request is sent when iteration starts, and only
 * once; `meta` is filled in as soon as the first bytes arrived. Leaving the loop early (break, throw)
 * cancels the download; pass an AbortSignal in the options to stop it from elsewhere.
 */
export class SvcStream<T> implements AsyncIterable<T> {
    /** Status, timings and headers of the response; null until the stream opened. */
    public meta: ResponseMeta | null = null;
    private started = false;
    private readonly start: (setMeta: (meta: ResponseMeta) => void) => AsyncGenerator<T, void, undefined>;

    public constructor(start: (setMeta: (meta: ResponseMeta) => void) => AsyncGenerator<T, void, undefined>) {
        this.start = start;
    }

    public [Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
        if (this.started) throw new Error("An SvcStream can be iterated only once; call the stream method again for a new request");
        this.started = true;
        return this.start((meta) => {
            this.meta = meta;
        });
    }

    /** Reads the whole stream into an array (tests, or callers that only want the final state). */
    public async toArray(): Promise<T[]> {
        const items: T[] = [];
        for await (const item of this) items.push(item);
        return items;
    }
}
