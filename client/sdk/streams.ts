import {apiErrorFromBody, type HttpApiError, invalidResponse, TransportError} from "./errors.ts";
import type {ParsedSseEvent} from "../../base/common/sse.ts";

/**
 * An error sent inside a stream that had already started (`data: {"error": {...}}`). The HTTP status
 * was 2xx by then, so the status comes from a numeric `code` when the server gives one (vLLM does),
 * else 500: the server failed mid-answer.
 */
export function inStreamError(payload: Record<string, unknown>, headers?: Record<string, string>): HttpApiError {
    const error = payload.error as Record<string, unknown>;
    const status = typeof error.code === "number" && error.code >= 400 && error.code <= 599 ? error.code : 500;
    // A numeric code is not a spec §7 code; apiErrorFromBody then takes the code the status stands for.
    return apiErrorFromBody({status, statusLine: "Error in stream", json: payload, text: JSON.stringify(payload), headers});
}

/** The JSON object in an event's data; anything else breaks the protocol of spec §6. */
export function parseEventJson(event: ParsedSseEvent, status: number): Record<string, unknown> {
    let value: unknown;
    try {
        value = JSON.parse(event.data);
    } catch {
        throw invalidResponse(status, `Stream event data is not JSON: ${event.data.slice(0, 200)}`, event.data);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value))
        throw invalidResponse(status, `Stream event data is not a JSON object: ${event.data.slice(0, 200)}`, event.data);
    return value as Record<string, unknown>;
}

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
