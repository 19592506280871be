import type {SamplingParams} from "../validation.ts";
import type {CompletionUsage} from "../completions.ts";
import type {ChatLogprobs, LogitBias} from "../logprobs.ts";
// Wire types of spec 2.1-2.3 and 6.1 (chat completions), shaped like the OpenAI chat format.

export type ChatContentPart =
    | {type: "text", text: string}
    | {type: "image_url", image_url: {url: string, detail?: string}};

export type ChatToolCall = {id: string, type: "function", function: {name: string, arguments: string}};

export type ChatMessage =
    | {role: "system", content: string | ChatContentPart[]}
    | {role: "user", content: string | ChatContentPart[]}
    | {role: "assistant", content: string | ChatContentPart[] | null, tool_calls?: ChatToolCall[], reasoning?: string | null}
    | {role: "tool", content: string, tool_call_id: string};

export type ChatTool = {type: "function", function: {name: string, description?: string, parameters?: Record<string, unknown>, strict?: boolean}};

export type ChatToolChoice = "auto" | "none" | "required" | {type: "function", function: {name: string}};

export type ResponseFormat =
    | {type: "text"}
    | {type: "json_object"}
    | {type: "json_schema", json_schema: {name: string, schema?: Record<string, unknown>, strict?: boolean, description?: string}};

export type ReasoningEffort = "low" | "medium" | "xhigh";

/** A chat completion request after validation: `stop` normalised to an array, the budget resolved. */
export type ChatCompletionRequest = SamplingParams & {
    model: string,
    messages: ChatMessage[],
    /** The resolved output budget and whether the client chose it (explicit budgets may be `max_output_tokens_exceeded`). */
    maxTokens: number,
    maxTokensExplicit: boolean,
    /** The field the budget came from (`max_completion_tokens` wins over `max_tokens`), for errors that name it. */
    maxTokensField: string,
    n: number,
    /** Alternatives per scored token; undefined unless the client sent `logprobs: true`. */
    topLogprobs?: number,
    /** Local-only `x_svc.token_ids`: each scored token and alternative carries its id. */
    tokenIds: boolean,
    logitBias?: LogitBias,
    tools?: ChatTool[],
    tool_choice?: ChatToolChoice,
    response_format?: ResponseFormat,
    chat_template_kwargs?: {enable_thinking?: boolean, reasoning_effort?: ReasoningEffort, [key: string]: unknown},
    reasoning_effort?: ReasoningEffort,
    include_reasoning: boolean,
    thinking_token_budget?: number,
    stream: boolean,
    stream_options?: {include_usage?: boolean},
    user?: string
};

export type FinishReason = "stop" | "length" | "tool_calls";

export type ChatCompletion = {
    id: string,
    object: "chat.completion",
    created: number,
    model: string,
    choices: Array<{
        index: number,
        message: {role: "assistant", content: string | null, reasoning?: string | null, tool_calls?: ChatToolCall[]},
        finish_reason: FinishReason,
        logprobs: ChatLogprobs | null
    }>,
    usage: CompletionUsage
};

export type ChatCompletionChunk = {
    id: string,
    object: "chat.completion.chunk",
    created: number,
    model: string,
    choices: Array<{
        index: number,
        delta: {
            role?: "assistant",
            content?: string | null,
            reasoning?: string | null,
            tool_calls?: Array<{index: number, id?: string, type?: "function", function: {name?: string, arguments?: string}}>
        },
        finish_reason: FinishReason | null,
        logprobs: ChatLogprobs | null
    }>,
    usage?: CompletionUsage | null
};
