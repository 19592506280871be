// The Responses playground's model: the draft of instructions and input parts, its request, and the events folded into a reply.
import type {JsonBody} from "../../../../client/sdk/index.ts";
import {modelIds} from "../../../../protocol/limits.ts";
import {newId} from "../../ui/browser.ts";
import type {DraftImage} from "../../ui/images.tsx";
import {type ParamValues, applyParams, responsesParamSpecs, readParams} from "./params.ts";
import {readTokenScores, type TokenScore} from "./probabilities.ts";

/** One input part of a Responses user message (spec 2.4): text, or an image as a data URL. */
export type ResponsesPart = {id: string, type: "input_text", text: string} | ({type: "input_image"} & DraftImage);

export type ResponsesDraft = {instructions: string, parts: ResponsesPart[], params: ParamValues};

/** One Responses stream event (spec 6.2), read loosely: the playground shows whatever the server sends. */
export type ResponsesStreamEvent = {type: string} & JsonBody;

/** One streamed event as the events list shows it. */
export type ResponsesEventRow = {seq: number, type: string, summary: string};

export type ResponsesReply = {
    events: ResponsesEventRow[],
    /** Events received; the list keeps only the latest few hundred rows. */
    eventCount: number,
    outputText: string,
    reasoningText: string,
    status?: string,
    usage?: Record<string, unknown>,
    response?: Record<string, unknown>
};

export const emptyResponsesReply = (): ResponsesReply => ({events: [], eventCount: 0, outputText: "", reasoningText: ""});

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

/** The token scores of the output text (`output_text.logprobs`), present when the request included them. */
export function outputTokensOf(response: Record<string, unknown> | undefined): TokenScore[] {
    const output = Array.isArray(response?.output) ? response.output as Array<Record<string, unknown>> : [];
    const message = output.find((item) => item.type === "message");
    const first = Array.isArray(message?.content) ? (message.content as Array<Record<string, unknown>>)[0] : undefined;
    return readTokenScores({content: first?.logprobs});
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

/**
 * The `POST /v1/responses` body (spec 2.4): one user message of `input_text` / `input_image` parts
 * (`detail` is required on every image), or a plain string input when there is only text.
 */
export function buildResponsesRequest(draft: ResponsesDraft): JsonBody {
    const body: JsonBody = {model: modelIds.chat};
    if (draft.instructions.trim()) body.instructions = draft.instructions;
    const onlyText = draft.parts.every((part) => part.type === "input_text");
    body.input = onlyText && draft.parts.length <= 1
        ? (draft.parts[0]?.type === "input_text" ? draft.parts[0].text : "")
        : [{
            role: "user",
            content: draft.parts.map((part) => part.type === "input_text"
                ? {type: "input_text", text: part.text}
                : {type: "input_image", image_url: part.dataUrl, detail: "auto"})
        }];
    return applyParams(responsesParamSpecs, draft.params, body);
}

/** Rebuilds the Responses draft from a stored request body (the user parts of its input, in order). */
export function draftFromResponsesRequest(body: JsonBody): ResponsesDraft {
    const parts: ResponsesPart[] = [];
    if (typeof body.input === "string") parts.push({id: newId(), type: "input_text", text: body.input});
    else if (Array.isArray(body.input)) {
        for (const message of body.input as JsonBody[]) {
            if (typeof message.content === "string") parts.push({id: newId(), type: "input_text", text: message.content});
            else if (Array.isArray(message.content)) for (const part of message.content as JsonBody[]) {
                if (part.type === "input_text") parts.push({id: newId(), type: "input_text", text: String(part.text ?? "")});
                if (part.type === "input_image") parts.push({id: newId(), type: "input_image", name: `image ${parts.length + 1}`, dataUrl: String(part.image_url ?? "")});
            }
        }
    }
    return {instructions: typeof body.instructions === "string" ? body.instructions : "", parts, params: readParams(responsesParamSpecs, body)};
}
