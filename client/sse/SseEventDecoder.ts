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
