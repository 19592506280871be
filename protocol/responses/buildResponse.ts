import type {CompletionUsage} from "../chat/types.ts";
import type {ResponseMessageItem, ResponseObject, ResponseOutputItem, ResponseReasoningItem, ResponseUsage} from "./types.ts";

/** What a response says about itself before any output exists: its ids and the request fields it echoes. */
export type ResponseBase = {
    id: string,
    messageId: string,
    reasoningId: string,
    createdAt: number,
    model: string,
    instructions?: string,
    maxOutputTokens?: number,
    temperature?: number,
    top_p?: number
};

export type ResponseOutcome = {reasoning: string, text: string, usage: CompletionUsage, truncated: boolean};

/** The response object of spec 2.4, in progress (no output yet) or completed with its output and usage. */
export function buildResponse(base: ResponseBase, outcome?: ResponseOutcome): ResponseObject {
    return {
        id: base.id,
        object: "response",
        created_at: base.createdAt,
        status: outcome != null ? "completed" : "in_progress",
        model: base.model,
        output: outcome != null ? responseOutput(base, outcome.reasoning, outcome.text) : [],
        usage: outcome != null ? toResponseUsage(outcome.usage) : null,
        error: null,
        incomplete_details: outcome?.truncated ? {reason: "max_output_tokens"} : null,
        instructions: base.instructions ?? null,
        max_output_tokens: base.maxOutputTokens ?? null,
        temperature: base.temperature ?? null,
        top_p: base.top_p ?? null
    };
}

/**
 * Spec 2.4: a `reasoning` item precedes the message item only when thinking produced separated, non-empty
 * working; the answer is always the first content part of the `message` item.
 */
export function responseOutput(base: ResponseBase, reasoning: string, text: string): ResponseOutputItem[] {
    const message = messageItem(base.messageId, text, "completed");
    return reasoning !== "" ? [reasoningItem(base.reasoningId, reasoning, "completed"), message] : [message];
}

export function messageItem(id: string, text: string, status: ResponseMessageItem["status"]): ResponseMessageItem {
    return {id, type: "message", status, role: "assistant", content: [{type: "output_text", text, annotations: [], logprobs: []}]};
}

export function reasoningItem(id: string, text: string, status: ResponseReasoningItem["status"]): ResponseReasoningItem {
    return {id, type: "reasoning", summary: [], content: [{type: "reasoning_text", text}], status};
}

/** Chat usage (2.3) under the Responses names; reasoning tokens are part of the output tokens (2.3.4). */
export function toResponseUsage(usage: CompletionUsage): ResponseUsage {
    return {
        input_tokens: usage.prompt_tokens,
        input_tokens_details: {cached_tokens: usage.prompt_tokens_details.cached_tokens},
        output_tokens: usage.completion_tokens,
        output_tokens_details: {reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0},
        total_tokens: usage.total_tokens
    };
}
