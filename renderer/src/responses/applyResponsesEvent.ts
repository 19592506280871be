import type {ResponsesReply, ResponsesStreamEvent} from "./types.ts";

const maxRows = 400;

/**
 * Folds one Responses stream event (spec 6.2) into the reply: text and reasoning deltas are joined,
 * `response.completed` brings the final response with its usage, and every event gets a row in the
 * events list. The final answer is the first content part of the `message` output item (spec 2.4).
 */
export function applyResponsesEvent(reply: ResponsesReply, event: ResponsesStreamEvent): ResponsesReply {
    const next: ResponsesReply = {...reply, eventCount: reply.eventCount + 1};
    next.events = [...reply.events, {seq: reply.eventCount, type: event.type, summary: summarize(event)}].slice(-maxRows);
    if (event.type === "response.output_text.delta" && typeof event.delta === "string") next.outputText += event.delta;
    if (event.type === "response.reasoning_text.delta" && typeof event.delta === "string") next.reasoningText += event.delta;
    const response = event.response as Record<string, unknown> | undefined;
    if (response && typeof response === "object") {
        next.response = response;
        if (typeof response.status === "string") next.status = response.status;
        if (response.usage && typeof response.usage === "object") next.usage = response.usage as Record<string, unknown>;
        if (event.type === "response.completed") {
            const text = outputTextOf(response);
            if (text !== null) next.outputText = text;
        }
    }
    return next;
}

/** The answer text of a whole Responses object: the message item's first content part, never reasoning. */
export function outputTextOf(response: Record<string, unknown>): string | null {
    const output = Array.isArray(response.output) ? response.output as Array<Record<string, unknown>> : [];
    const message = output.find((item) => item.type === "message");
    const first = Array.isArray(message?.content) ? (message.content as Array<Record<string, unknown>>)[0] : undefined;
    return typeof first?.text === "string" ? first.text : null;
}

/** The reasoning text of a whole Responses object (a `reasoning` item's `reasoning_text` parts). */
export function reasoningTextOf(response: Record<string, unknown>): string {
    const output = Array.isArray(response.output) ? response.output as Array<Record<string, unknown>> : [];
    return output.filter((item) => item.type === "reasoning")
        .flatMap((item) => Array.isArray(item.content) ? item.content as Array<Record<string, unknown>> : [])
        .filter((part) => part.type === "reasoning_text" && typeof part.text === "string")
        .map((part) => part.text as string).join("");
}

function summarize(event: ResponsesStreamEvent): string {
    if (typeof event.delta === "string") return JSON.stringify(event.delta);
    if (event.type === "error" || event.error) return JSON.stringify(event.error ?? event).slice(0, 200);
    const response = event.response as Record<string, unknown> | undefined;
    if (response?.status) return `status: ${String(response.status)}`;
    const item = event.item as Record<string, unknown> | undefined;
    if (item?.type) return `item: ${String(item.type)}`;
    if (typeof event.text === "string") return `${event.text.length} chars`;
    return "";
}
