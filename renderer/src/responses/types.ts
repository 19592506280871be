import type {JsonBody} from "../../../client/sdk/index.ts";
import type {DraftImage} from "../chat/types.ts";
import type {ParamValues} from "../params/types.ts";

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
