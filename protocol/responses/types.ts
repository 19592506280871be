// Wire types of spec 2.4 and 6.2 (the Responses API), shaped like the OpenAI Responses format so its clients work.
import type {ChatMessage, ChatTool, ChatToolChoice, ReasoningEffort} from "../chat/types.ts";
import type {SamplingParams} from "../validation.ts";
import type {TokenLogprob} from "../logprobs.ts";

/** A Responses request after validation; `instructions` and `input` are already turned into chat messages. */
export type ResponsesRequest = Pick<SamplingParams, "temperature" | "top_p" | "seed"> & {
    model: string,
    /**
     * `instructions` (as a system message) followed by `input`, in the chat form both endpoints generate from:
     * `function_call` items are assistant tool calls, `function_call_output` items tool results.
     */
    messages: ChatMessage[],
    instructions?: string,
    /** Absent means "the window left after the rendered input" (spec 2.4, 8): there is no default budget. */
    maxOutputTokens?: number,
    chat_template_kwargs?: {enable_thinking?: boolean, reasoning_effort?: ReasoningEffort, [key: string]: unknown},
    reasoning_effort?: ReasoningEffort,
    thinking_token_budget?: number,
    /** Function tools, read from the flat Responses shape into the chat one. */
    tools?: ChatTool[],
    tool_choice?: ChatToolChoice,
    /** Alternatives per scored token; undefined unless `include` holds `message.output_text.logprobs`. */
    topLogprobs?: number,
    stream: boolean
};

export type ResponseOutputText = {type: "output_text", text: string, annotations: unknown[], logprobs: TokenLogprob[]};

export type ResponseMessageItem = {
    id: string,
    type: "message",
    status: "in_progress" | "completed" | "incomplete",
    role: "assistant",
    content: ResponseOutputText[]
};

export type ResponseReasoningText = {type: "reasoning_text", text: string};

export type ResponseReasoningItem = {
    id: string,
    type: "reasoning",
    summary: never[],
    content: ResponseReasoningText[],
    status: "in_progress" | "completed" | "incomplete"
};

/** A call the model made (spec 2.5): `call_id` is what the `function_call_output` item answering it carries. */
export type ResponseFunctionCallItem = {
    id: string,
    type: "function_call",
    call_id: string,
    name: string,
    arguments: string,
    status: "in_progress" | "completed" | "incomplete"
};

export type ResponseOutputItem = ResponseReasoningItem | ResponseMessageItem | ResponseFunctionCallItem;

/** Usage of spec 2.3 for Responses. */
export type ResponseUsage = {
    input_tokens: number,
    input_tokens_details: {cached_tokens: number},
    output_tokens: number,
    output_tokens_details: {reasoning_tokens: number},
    total_tokens: number
};

export type ResponseObject = {
    id: string,
    object: "response",
    created_at: number,
    status: "in_progress" | "completed",
    model: string,
    output: ResponseOutputItem[],
    usage: ResponseUsage | null,
    error: null,
    /** Set when the output budget ended the answer; `status` stays `completed` (the only state spec 3 names). */
    incomplete_details: {reason: "max_output_tokens"} | null,
    instructions: string | null,
    max_output_tokens: number | null,
    temperature: number | null,
    top_p: number | null
};

/** One Responses server-sent event (spec 6.2); every event carries its `sequence_number`, from 0 up. */
export type ResponseStreamEvent = {type: string, sequence_number: number, [field: string]: unknown};
