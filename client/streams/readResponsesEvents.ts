import {TransportError} from "../errors/TransportError.ts";
import type {ParsedSseEvent} from "../sse/parseSse.ts";
import {parseEventJson} from "./utils/parseEventJson.ts";

// Events after which a Responses stream is complete, successfully or not.
const terminalTypes = new Set(["response.completed", "response.failed", "response.incomplete", "error"]);

/**
 * Responses events (spec §6.2) as `{type, ...}` objects; `type` falls back to the `event:` name when the
 * data omits it. Error events are yielded like any other, since they are part of the event sequence.
 * A stream that ends with no terminal event was cut off, and says so.
 */
export async function* readResponsesEvents<T extends {type: string}>(events: AsyncIterable<ParsedSseEvent>, status: number): AsyncGenerator<T, void, undefined> {
    let ended = false;
    for await (const event of events) {
        if (event.done) break;
        const payload = parseEventJson(event, status);
        const type = typeof payload.type === "string" ? payload.type : event.event;
        const typed = {...payload, type} as T;
        if (terminalTypes.has(type)) ended = true;
        yield typed;
    }
    if (!ended) throw new TransportError("interrupted", "The Responses stream ended before a terminal event");
}
