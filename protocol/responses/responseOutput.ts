import type {ChatToolCall} from "../chat/types.ts";
import type {ResponseFunctionCallItem, ResponseMessageItem, ResponseObject, ResponseOutputItem, ResponseReasoningItem, ResponseUsage, ResponseStreamEvent} from "./types.ts";
import type {CompletionUsage} from "../completions.ts";
import type {TokenLogprob} from "../logprobs.ts";

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

export type ResponseOutcome = {
    reasoning: string,
    text: string,
    calls: ResponseFunctionCallItem[],
    usage: CompletionUsage,
    truncated: boolean,
    /** The text's token scores, when the request included `message.output_text.logprobs`. */
    logprobs?: TokenLogprob[]
};

/** The response object of spec 2.4, in progress (no output yet) or completed with its output and usage. */
export function buildResponse(base: ResponseBase, outcome?: ResponseOutcome): ResponseObject {
    return {
        id: base.id,
        object: "response",
        created_at: base.createdAt,
        status: outcome != null ? "completed" : "in_progress",
        model: base.model,
        output: outcome != null ? responseOutput(base, outcome) : [],
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
 * working; the answer is always the first content part of the `message` item. A turn that called tools
 * (2.5) has a message item only for text written before the calls, then one `function_call` item per call.
 */
export function responseOutput(base: ResponseBase, {reasoning, text, calls, logprobs}: Pick<ResponseOutcome, "reasoning" | "text" | "calls" | "logprobs">): ResponseOutputItem[] {
    return [
        ...(reasoning !== "" ? [reasoningItem(base.reasoningId, reasoning, "completed")] : []),
        ...(text !== "" || calls.length === 0 ? [messageItem(base.messageId, text, "completed", logprobs)] : []),
        ...calls
    ];
}

export function messageItem(id: string, text: string, status: ResponseMessageItem["status"], logprobs: TokenLogprob[] = []): ResponseMessageItem {
    return {id, type: "message", status, role: "assistant", content: [{type: "output_text", text, annotations: [], logprobs}]};
}

export function reasoningItem(id: string, text: string, status: ResponseReasoningItem["status"]): ResponseReasoningItem {
    return {id, type: "reasoning", summary: [], content: [{type: "reasoning_text", text}], status};
}

export function functionCallItem(id: string, call: ChatToolCall): ResponseFunctionCallItem {
    return {id, type: "function_call", call_id: call.id, name: call.function.name, arguments: call.function.arguments, status: "completed"};
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

type Phase = "idle" | "reasoning" | "message" | "calls";

/**
 * Turns a stream of reasoning, answer text and tool calls into the standard Responses event sequence (spec 6.2):
 * `response.created`, `response.in_progress`, then per output item `output_item.added`, its content (for text,
 * `content_part.added`, the deltas, `*.done`, `content_part.done`; for a call, `function_call_arguments.delta`
 * and `.done`), `output_item.done`, and finally `response.completed`, each numbered by `sequence_number` and
 * each item's events routed by its `output_index` and `item_id`. The completed response holds exactly the items
 * that were streamed, with the same ids, so a client's stream accumulator ends with the same object a
 * non-streaming call returns.
 */
export class ResponseEventWriter {
    private readonly base: ResponseBase;
    private readonly emit: (event: ResponseStreamEvent) => void;
    private sequence = 0;
    private phase: Phase = "idle";
    private reasoning = "";
    private text = "";
    private readonly calls: ResponseFunctionCallItem[] = [];
    /** Output items added so far: the next item's `output_index`. */
    private added = 0;
    private messageIndex = 0;
    private readonly logprobs: TokenLogprob[] = [];

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
        if (delta === "" || this.phase !== "idle" && this.phase !== "reasoning") return;
        if (this.phase === "idle") {
            this.phase = "reasoning";
            this.send("response.output_item.added", {output_index: this.added++, item: {...reasoningItem(this.base.reasoningId, "", "in_progress"), content: []}});
            this.send("response.content_part.added", {...this.reasoningRoute(), part: {type: "reasoning_text", text: ""}});
        }
        this.reasoning += delta;
        this.send("response.reasoning_text.delta", {...this.reasoningRoute(), delta});
    }

    /** Text after a tool call is not streamed, for the same reason as late reasoning (the model stops at its calls). */
    public textDelta(delta: string, logprobs: TokenLogprob[] = []) {
        if (delta === "" || this.phase === "calls") return;
        this.openMessage();
        this.text += delta;
        this.logprobs.push(...logprobs);
        this.send("response.output_text.delta", {...this.messageRoute(), delta, logprobs});
    }

    /** A call arrives whole (node-llama-cpp reports it once its arguments are complete): one arguments delta. */
    public functionCall(item: ResponseFunctionCallItem) {
        this.closeOpenItem();
        this.phase = "calls";
        const route = {item_id: item.id, output_index: this.added++};
        this.send("response.output_item.added", {output_index: route.output_index, item: {...item, arguments: "", status: "in_progress"}});
        this.send("response.function_call_arguments.delta", {...route, delta: item.arguments});
        this.send("response.function_call_arguments.done", {...route, arguments: item.arguments});
        this.send("response.output_item.done", {output_index: route.output_index, item});
        this.calls.push(item);
    }

    /** Closes the open items and sends `response.completed`; returns the completed response. */
    public finish(usage: ResponseOutcome["usage"], truncated: boolean): ResponseObject {
        // A turn without calls always has its message item, empty or not.
        if (this.phase !== "calls") this.openMessage();
        this.closeOpenItem();
        const response = buildResponse(this.base, {reasoning: this.reasoning, text: this.text, calls: this.calls, usage, truncated, logprobs: this.logprobs});
        this.send("response.completed", {response});
        return response;
    }

    private openMessage() {
        if (this.phase === "message") return;
        this.closeOpenItem();
        this.phase = "message";
        this.messageIndex = this.added++;
        this.send("response.output_item.added", {output_index: this.messageIndex, item: {...messageItem(this.base.messageId, "", "in_progress"), content: []}});
        this.send("response.content_part.added", {...this.messageRoute(), part: {type: "output_text", text: "", annotations: [], logprobs: []}});
    }

    /** Sends the `*.done` events of the open reasoning or message item. */
    private closeOpenItem() {
        if (this.phase === "reasoning") {
            const part = {type: "reasoning_text", text: this.reasoning};
            this.send("response.reasoning_text.done", {...this.reasoningRoute(), text: this.reasoning});
            this.send("response.content_part.done", {...this.reasoningRoute(), part});
            this.send("response.output_item.done", {output_index: 0, item: reasoningItem(this.base.reasoningId, this.reasoning, "completed")});
        } else if (this.phase === "message") {
            const part = {type: "output_text", text: this.text, annotations: [], logprobs: this.logprobs};
            this.send("response.output_text.done", {...this.messageRoute(), text: this.text, logprobs: this.logprobs});
            this.send("response.content_part.done", {...this.messageRoute(), part});
            this.send("response.output_item.done", {output_index: this.messageIndex, item: messageItem(this.base.messageId, this.text, "completed", this.logprobs)});
        }
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
