// Server-sent events (WHATWG format) read from a byte stream: the SDK reads the svc API's streams with it (client/sdk),
// and the upstream front (native/upstream) reads an OpenAI-compatible engine's streams with it.

/**
 * Iterates a byte stream; a ReadableStream is read through its reader because not every browser makes
 * it async-iterable. Leaving early cancels the stream, which closes the connection under a fetch body.
 */
export async function* readChunks(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
    if (!isReadableStream(source)) {
        yield* source;
        return;
    }
    const reader = source.getReader();
    let finished = false;
    try {
        for (;;) {
            const {done, value} = await reader.read();
            if (done) {
                finished = true;
                return;
            }
            if (value && value.byteLength > 0) yield value;
        }
    } catch (error) {
        finished = true;
        throw error;
    } finally {
        if (!finished) await reader.cancel().catch(() => undefined);
        reader.releaseLock();
    }
}

function isReadableStream(source: unknown): source is ReadableStream<Uint8Array> {
    return typeof (source as ReadableStream | null)?.getReader === "function";
}

const lf = 10;
const cr = 13;

export type SseEvent = {
    /** The `event:` name; `message` when the server sent none. */
    event: string,
    /** The `data:` lines joined with `\n`. */
    data: string,
    /** The last `id:` seen on the stream, carried over as the SSE standard says; "" when none. */
    id: string,
    /** The `retry:` reconnection time in ms, when this event set one. */
    retry?: number
};

/**
 * The line-level state machine of the WHATWG server-sent events format, fed text in pieces of any size:
 * lines end in CRLF, LF or CR (a CR ends its line at once; an LF right after it, even at the start of the
 * next piece, is skipped); `:` lines are comments; a blank line dispatches; events with no data are dropped.
 */
export class SseEventDecoder {
    /** Pieces of the line not ended yet, joined once it ends, so a long line in tiny pieces costs O(n). */
    private partial: string[] = [];
    /** The last piece ended in CR: an LF opening the next piece belongs to that line end. */
    private skipLf = false;
    private dataLines: string[] = [];
    private eventName = "";
    private lastId = "";
    private retry: number | undefined;

    /** Decodes more text and returns the events it completed. */
    public push(text: string): SseEvent[] {
        const events: SseEvent[] = [];
        let start = 0;
        if (this.skipLf && text.length > 0) {
            if (text.charCodeAt(0) === lf) start = 1;
            this.skipLf = false;
        }
        for (let index = start; index < text.length; index++) {
            const code = text.charCodeAt(index);
            if (code !== lf && code !== cr) continue;
            const tail = text.slice(start, index);
            const line = this.partial.length > 0 ? this.partial.join("") + tail : tail;
            this.partial = [];
            if (code === cr) {
                if (index + 1 === text.length) this.skipLf = true;
                else if (text.charCodeAt(index + 1) === lf) index++;
            }
            start = index + 1;
            this.takeLine(line, events);
        }
        if (start < text.length) this.partial.push(text.slice(start));
        return events;
    }

    /**
     * Ends the stream. An event without its closing blank line is discarded, as the standard says,
     * since a stream cut mid-event may have lost data lines.
     */
    public end(): void {
        this.partial = [];
        this.skipLf = false;
        this.dataLines = [];
        this.eventName = "";
    }

    private takeLine(line: string, events: SseEvent[]) {
        if (line === "") {
            this.dispatch(events);
            return;
        }
        if (line.startsWith(":")) return;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        switch (field) {
            case "data":
                this.dataLines.push(value);
                break;
            case "event":
                this.eventName = value;
                break;
            case "id":
                if (!value.includes("\0")) this.lastId = value;
                break;
            case "retry":
                if (/^\d+$/.test(value)) this.retry = Number(value);
                break;
            default:
                // Unknown fields are ignored by the standard.
                break;
        }
    }

    private dispatch(events: SseEvent[]) {
        if (this.dataLines.length > 0) {
            const event: SseEvent = {event: this.eventName || "message", data: this.dataLines.join("\n"), id: this.lastId};
            if (this.retry !== undefined) event.retry = this.retry;
            events.push(event);
        }
        this.dataLines = [];
        this.eventName = "";
        this.retry = undefined;
    }
}

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
