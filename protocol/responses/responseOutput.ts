import type {CompletionUsage} from "../chat/types.ts";
import type {ResponseMessageItem, ResponseObject, ResponseOutputItem, ResponseReasoningItem, ResponseUsage, ResponseStreamEvent} from "./types.ts";

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

type Phase = "idle" | "reasoning" | "message";

/**
 * Turns a stream of reasoning and answer text into the standard Responses event sequence (spec 6.2):
 * `response.created`, `response.in_progress`, then per output item `output_item.added`, `content_part.added`,
 * the text deltas, `*.done`, `content_part.done`, `output_item.done`, and finally `response.completed`, each
 * numbered by `sequence_number`. The completed response holds exactly the items that were streamed, with the
 * same ids, so a client's stream accumulator ends with the same object a non-streaming call returns.
 */
export class ResponseEventWriter {
    private readonly base: ResponseBase;
    private readonly emit: (event: ResponseStreamEvent) => void;
    private sequence = 0;
    private phase: Phase = "idle";
    private reasoning = "";
    private text = "";

    public constructor(base: ResponseBase, emit: (event: ResponseStreamEvent) => void) {
        this.base = base;
        this.emit = emit;
    }

    public start() {
        const response = buildResponse(this.base);
        this.send("response.created", {response});
        this.send("response.in_progress", {response});
    }

    /**
     * Thinking comes before the answer (spec 2.6.4). Working that arrives after the answer started has no
     * place left in the streamed order, so it is not streamed and not part of the completed response either.
     */
    public reasoningDelta(delta: string) {
        if (delta === "" || this.phase === "message") return;
        if (this.phase === "idle") {
            this.phase = "reasoning";
            this.send("response.output_item.added", {output_index: 0, item: {...reasoningItem(this.base.reasoningId, "", "in_progress"), content: []}});
            this.send("response.content_part.added", {...this.reasoningRoute(), part: {type: "reasoning_text", text: ""}});
        }
        this.reasoning += delta;
        this.send("response.reasoning_text.delta", {...this.reasoningRoute(), delta});
    }

    public textDelta(delta: string) {
        if (delta === "") return;
        this.openMessage();
        this.text += delta;
        this.send("response.output_text.delta", {...this.messageRoute(), delta, logprobs: []});
    }

    /** Closes the open items and sends `response.completed`; returns the completed response. */
    public finish(usage: ResponseOutcome["usage"], truncated: boolean): ResponseObject {
        this.openMessage();
        const part = {type: "output_text", text: this.text, annotations: [], logprobs: []};
        this.send("response.output_text.done", {...this.messageRoute(), text: this.text, logprobs: []});
        this.send("response.content_part.done", {...this.messageRoute(), part});
        this.send("response.output_item.done", {output_index: this.messageIndex, item: messageItem(this.base.messageId, this.text, "completed")});
        const response = buildResponse(this.base, {reasoning: this.reasoning, text: this.text, usage, truncated});
        this.send("response.completed", {response});
        return response;
    }

    private openMessage() {
        if (this.phase === "message") return;
        if (this.phase === "reasoning") {
            const part = {type: "reasoning_text", text: this.reasoning};
            this.send("response.reasoning_text.done", {...this.reasoningRoute(), text: this.reasoning});
            this.send("response.content_part.done", {...this.reasoningRoute(), part});
            this.send("response.output_item.done", {output_index: 0, item: reasoningItem(this.base.reasoningId, this.reasoning, "completed")});
        }
        this.phase = "message";
        this.send("response.output_item.added", {output_index: this.messageIndex, item: {...messageItem(this.base.messageId, "", "in_progress"), content: []}});
        this.send("response.content_part.added", {...this.messageRoute(), part: {type: "output_text", text: "", annotations: [], logprobs: []}});
    }

    private get messageIndex() {
        return this.reasoning !== "" ? 1 : 0;
    }

    private reasoningRoute() {
        return {item_id: this.base.reasoningId, output_index: 0, content_index: 0};
    }

    private messageRoute() {
        return {item_id: this.base.messageId, output_index: this.messageIndex, content_index: 0};
    }

    private send(type: string, fields: Record<string, unknown>) {
        this.emit({type, sequence_number: this.sequence++, ...fields});
    }
}
