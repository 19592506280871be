import {invalidResponse} from "../../errors/invalidResponse.ts";
import type {ParsedSseEvent} from "../../sse/parseSse.ts";

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
