import {TransportError} from "../errors/TransportError.ts";
import type {ParsedSseEvent} from "../sse/parseSse.ts";
import {inStreamError} from "./utils/inStreamError.ts";
import {parseEventJson} from "./utils/parseEventJson.ts";

/**
 * Chat and legacy completion chunks (spec §6.1): one JSON object per event, the last possibly carrying
 * only `usage`, then `[DONE]`. A stream that ends without `[DONE]` was cut off, and says so.
 */
export async function* readChatChunks<T>(events: AsyncIterable<ParsedSseEvent>, status: number): AsyncGenerator<T, void, undefined> {
    for await (const event of events) {
        if (event.done) return;
        const payload = parseEventJson(event, status);
        if (payload.error && typeof payload.error === "object" && !("choices" in payload)) throw inStreamError(payload);
        yield payload as T;
    }
    throw new TransportError("interrupted", "The stream ended before [DONE]");
}
