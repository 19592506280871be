import type {ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, FinishReason} from "../../protocol/chat/types.ts";
import type {CompletionRequest, CompletionUsage, TextCompletion} from "../../protocol/completions.ts";
import type {ResponsesRequest} from "../../protocol/responses/types.ts";
import type {JsonObject} from "../../protocol/validation.ts";
import {ValidationError} from "../../protocol/validation.ts";

// The bodies this server sends an OpenAI-compatible upstream, built from requests our own parsers validated
// (protocol/chat, protocol/responses, protocol/completions), and the upstream's answers read back into the spec's
// shapes (§2.2, §2.3, §6.1). Engines differ in small ways: reasoning arrives as `reasoning_content` (vLLM,
// llama-server) or `reasoning`, usage may lack its details, finish reasons may be engine-specific.

/** Fields an upstream is sent as the client gave them, once validated (the rest are rebuilt or local-only). */
const passedChatFields = ["n", "temperature", "top_p", "seed", "stop", "presence_penalty", "frequency_penalty", "tools", "tool_choice",
    "response_format", "chat_template_kwargs", "reasoning_effort", "logprobs", "top_logprobs", "logit_bias", "user"];
const passedCompletionFields = ["prompt", "n", "temperature", "top_p", "seed", "stop", "presence_penalty", "frequency_penalty", "echo",
    "logprobs", "logit_bias", "user"];

function pick(raw: JsonObject, fields: readonly string[]): JsonObject {
    return Object.fromEntries(fields.filter((field) => raw[field] !== undefined).map((field) => [field, raw[field]]));
}

/** `x_svc.token_ids` needs the local vocabulary's ids on every scored token, which an upstream does not report. */
export function refuseLocalOnly(tokenIds: boolean) {
    if (tokenIds) throw new ValidationError(["x_svc", "token_ids"], "is served by the local engine only; this server fronts an upstream engine");
}

/**
 * The upstream chat body: the validated messages (system for `developer`), the budget resolved as spec 2.1 says
 * (default 2048 sent explicitly, so an upstream's own default never applies), and usage always asked for on a
 * stream, since metering needs it whether or not the client wants to see it (§2.3, §7 "Charging").
 */
export function toUpstreamChatBody(raw: JsonObject, request: ChatCompletionRequest, model: string): JsonObject {
    return {
        ...pick(raw, passedChatFields),
        model,
        messages: request.messages,
        max_tokens: request.maxTokens,
        stream: request.stream,
        ...(request.stream ? {stream_options: {include_usage: true}} : {})
    };
}

/** A Responses request (spec 2.4) as the upstream chat turn it is served by. */
export function toUpstreamResponsesBody(request: ResponsesRequest, model: string): JsonObject {
    const body: JsonObject = {
        model,
        messages: request.messages,
        stream: request.stream,
        ...(request.stream ? {stream_options: {include_usage: true}} : {})
    };
    const optional: Record<string, unknown> = {
        max_tokens: request.maxOutputTokens, temperature: request.temperature, top_p: request.top_p, seed: request.seed,
        tools: request.tools, tool_choice: request.tool_choice, chat_template_kwargs: request.chat_template_kwargs,
        reasoning_effort: request.reasoning_effort, ...(request.topLogprobs != null ? {logprobs: true, top_logprobs: request.topLogprobs} : {})
    };
    for (const [key, value] of Object.entries(optional)) if (value !== undefined) body[key] = value;
    return body;
}

export function toUpstreamCompletionBody(raw: JsonObject, request: CompletionRequest, model: string): JsonObject {
    return {
        ...pick(raw, passedCompletionFields),
        model,
        max_tokens: request.maxTokens,
        stream: request.stream,
        ...(request.stream ? {stream_options: {include_usage: true}} : {})
    };
}

type UpstreamUsage = {prompt_tokens?: number, completion_tokens?: number, total_tokens?: number,
    prompt_tokens_details?: {cached_tokens?: number} | null, completion_tokens_details?: {reasoning_tokens?: number} | null};

const whole = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0 ? value as number : 0;

/** Spec 2.3: the four chat usage fields, the cached count 0 where the upstream gives none. */
export function toSpecUsage(usage: UpstreamUsage | null | undefined): CompletionUsage {
    const prompt = whole(usage?.prompt_tokens);
    const completion = whole(usage?.completion_tokens);
    const reasoning = usage?.completion_tokens_details?.reasoning_tokens;
    return {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        prompt_tokens_details: {cached_tokens: Math.min(prompt, whole(usage?.prompt_tokens_details?.cached_tokens))},
        ...(reasoning != null ? {completion_tokens_details: {reasoning_tokens: whole(reasoning)}} : {})
    };
}

/** Spec 2.2 knows `stop`, `length` and `tool_calls`; an engine's other reasons (`eos`, `abort`) mean it stopped. */
export function toFinishReason(reason: unknown): FinishReason {
    return reason === "length" || reason === "tool_calls" ? reason : "stop";
}

type UpstreamMessage = {content?: string | null, reasoning_content?: string | null, reasoning?: string | null, tool_calls?: unknown[]};
type UpstreamChoice = {index?: number, message?: UpstreamMessage, delta?: UpstreamMessage & {role?: string}, finish_reason?: unknown, logprobs?: unknown};
export type UpstreamChat = {id?: string, created?: number, choices?: UpstreamChoice[], usage?: UpstreamUsage | null};

/** The separated working of a message or delta, wherever this engine puts it (spec 2.6.4). */
export function reasoningOf(message: UpstreamMessage | undefined): string | undefined {
    const text = message?.reasoning_content ?? message?.reasoning;
    return typeof text === "string" && text !== "" ? text : undefined;
}

/** An upstream chat completion as spec 2.2's, under the model id the client called. */
export function toSpecCompletion(upstream: UpstreamChat, request: ChatCompletionRequest, id: string, created: number): ChatCompletion {
    return {
        id: upstream.id ?? id,
        object: "chat.completion",
        created: upstream.created ?? created,
        model: request.model,
        choices: (upstream.choices ?? []).map((choice, position) => {
            const reasoning = reasoningOf(choice.message);
            const calls = (choice.message?.tool_calls ?? []) as ChatCompletion["choices"][number]["message"]["tool_calls"];
            return {
                index: choice.index ?? position,
                message: {
                    role: "assistant",
                    content: calls != null && calls.length > 0 ? null : choice.message?.content ?? "",
                    // Spec 2.6.5: include_reasoning false makes separated working null.
                    ...(reasoning != null ? {reasoning: request.include_reasoning ? reasoning : null} : {}),
                    ...(calls != null && calls.length > 0 ? {tool_calls: calls} : {})
                },
                finish_reason: toFinishReason(choice.finish_reason),
                logprobs: (choice.logprobs ?? null) as ChatCompletion["choices"][number]["logprobs"]
            };
        }),
        usage: toSpecUsage(upstream.usage)
    };
}

/** One upstream stream chunk's choices as spec 6.1's (reasoning first under its spec name, content, tool-call pieces). */
export function toSpecChunkChoices(upstream: UpstreamChat, includeReasoning: boolean): ChatCompletionChunk["choices"] {
    const choices: ChatCompletionChunk["choices"] = [];
    for (const [position, choice] of (upstream.choices ?? []).entries()) {
        const delta = choice.delta ?? {};
        const reasoning = reasoningOf(delta);
        const out: ChatCompletionChunk["choices"][number]["delta"] = {};
        if (delta.role === "assistant") out.role = "assistant";
        if (reasoning != null && includeReasoning) out.reasoning = reasoning;
        if (typeof delta.content === "string") out.content = delta.content;
        if (Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0) out.tool_calls = delta.tool_calls as typeof out.tool_calls;
        const finish = choice.finish_reason == null ? null : toFinishReason(choice.finish_reason);
        // A reasoning piece the client asked not to see leaves an empty delta: nothing to send.
        if (Object.keys(out).length === 0 && finish == null) continue;
        choices.push({index: choice.index ?? position, delta: out, finish_reason: finish, logprobs: (choice.logprobs ?? null) as ChatCompletionChunk["choices"][number]["logprobs"]});
    }
    return choices;
}

type UpstreamText = {id?: string, created?: number, choices?: Array<{index?: number, text?: string, finish_reason?: unknown, logprobs?: unknown}>, usage?: UpstreamUsage | null};
export type {UpstreamText};

/** An upstream legacy completion's choices in the spec's shape (§4 "Same usage shape as chat"). */
export function toSpecTextChoices(upstream: UpstreamText, final: boolean): TextCompletion["choices"] {
    return (upstream.choices ?? []).map((choice, position) => ({
        index: choice.index ?? position,
        text: choice.text ?? "",
        finish_reason: choice.finish_reason == null && !final ? null : choice.finish_reason === "length" ? "length" : "stop",
        logprobs: (choice.logprobs ?? null) as TextCompletion["choices"][number]["logprobs"]
    }));
}
