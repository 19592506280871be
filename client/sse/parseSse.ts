import {SseEventDecoder, type SseEvent} from "./SseEventDecoder.ts";
import {readChunks} from "./utils/readChunks.ts";

/** The data of the chat stream's last event (spec §6.1). */
export const sseDoneSentinel = "[DONE]";

export type ParsedSseEvent = SseEvent & {
    /** True for the `[DONE]` sentinel, which is always the last event yielded. */
    done: boolean
};

export type ParseSseOptions = {
    /** Stop reading (and cancel the source) at `data: [DONE]`. Default true. */
    stopAtDone?: boolean
};

/**
 * Parses a server-sent event stream incrementally: bytes may be split anywhere, including inside a
 * UTF-8 character or between the CR and LF of a line end. Breaking out of the loop cancels the source,
 * so an abandoned stream stops downloading.
 */
export async function* parseSse(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, options: ParseSseOptions = {}): AsyncGenerator<ParsedSseEvent, void, undefined> {
    const stopAtDone = options.stopAtDone ?? true;
    for await (const events of eventBatches(source)) {
        for (const event of events) {
            const done = event.data === sseDoneSentinel;
            yield {...event, done};
            if (done && stopAtDone) return;
        }
    }
}

async function* eventBatches(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent[], void, undefined> {
    // The default decoder drops a leading BOM, as the SSE standard asks, and keeps split characters.
    const text = new TextDecoder("utf-8");
    const decoder = new SseEventDecoder();
    for await (const chunk of readChunks(source)) yield decoder.push(text.decode(chunk, {stream: true}));
    yield decoder.push(text.decode());
    decoder.end();
}
