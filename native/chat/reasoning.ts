import {type ChatWrapper, LlamaText, type Tokenizer, type ChatHistoryItem} from "node-llama-cpp";
import {reasoningModelId} from "../../protocol/chat/parseChatRequest.ts";
import type {ChatCompletionRequest, ReasoningEffort} from "../../protocol/chat/types.ts";
import {limits} from "../../protocol/limits.ts";
import {ValidationError} from "../../protocol/validation.ts";
import type {ChatModelVariant} from "./routes.ts";
import {canThink} from "../library/modelFile.ts";

export type ReasoningControls = Pick<ChatCompletionRequest, "chat_template_kwargs" | "reasoning_effort" | "thinking_token_budget">;

export type Thinking = {
    /** The chat format has a thought segment; without one every reasoning control is moot (spec 2.6.4). */
    capable: boolean,
    enabled: boolean,
    /** Tokens the thought segment may spend out of `maxTokens`; Infinity is "no separate cap". */
    budget(maxTokens: number): number
};

/**
 * Share of the output budget the reasoning variant may think with, by `reasoning_effort`. The top one is the
 * 75% cap of spec 2.6.3 and 8; lower efforts think less, which is the only lever a local model has.
 */
const effortShares: Record<ReasoningEffort, number> = {low: 0.25, medium: 0.5, xhigh: limits.thinkingShare};

/**
 * Spec 2.6.1-2.6.3: the general model thinks only when `enable_thinking` is true and has one mode, so it refuses
 * `reasoning_effort`; the reasoning variant thinks unless `enable_thinking` is false, with the top-level effort
 * winning over the one in `chat_template_kwargs`. `thinking_token_budget` caps thinking on both.
 */
export function resolveThinking(request: ReasoningControls, variant: ChatModelVariant, chatWrapper: ChatWrapper): Thinking {
    const kwargs = request.chat_template_kwargs;
    if (!variant.reasoningByDefault) {
        if (request.reasoning_effort != null)
            throw new ValidationError(["reasoning_effort"], `is accepted only by the reasoning-by-default variant ${JSON.stringify(reasoningModelId)}`);
        if (kwargs?.reasoning_effort != null)
            throw new ValidationError(["chat_template_kwargs", "reasoning_effort"], `is accepted only by the reasoning-by-default variant ${JSON.stringify(reasoningModelId)}`);
    }
    const capable = canThink(chatWrapper);
    const enabled = capable && (kwargs?.enable_thinking ?? variant.reasoningByDefault);
    const effort = request.reasoning_effort ?? kwargs?.reasoning_effort ?? "low";
    return {
        capable,
        enabled,
        budget(maxTokens) {
            if (!enabled) return 0;
            if (request.thinking_token_budget != null) return request.thinking_token_budget;
            return variant.reasoningByDefault ? Math.floor(maxTokens * effortShares[effort]) : Infinity;
        }
    };
}

/**
 * Tokens a thinking turn reads beyond the rendered prompt: the thought prefix node-llama-cpp injects when the
 * format opens a thought on every response (it is part of what the model reads, so part of `prompt_tokens`),
 * and the suffix it injects when a budget closes the thought (so the window check leaves room for it).
 */
export function thinkingOverhead(chatWrapper: ChatWrapper, tokenizer: Tokenizer): {prefix: number, suffix: number} {
    const thought = chatWrapper.settings.segments?.thought;
    if (thought == null) return {prefix: 0, suffix: 0};
    const count = (text: string | LlamaText) => LlamaText(text).tokenize(tokenizer, "trimLeadingSpace").length;
    const textPrefix = typeof thought.prefix === "string" || LlamaText.isLlamaText(thought.prefix);
    return {
        prefix: thought.openOnResponseStart === true && textPrefix ? count(thought.prefix as string | LlamaText) : 0,
        suffix: thought.suffix != null ? count(thought.suffix) : 0
    };
}

/**
 * Turns thinking off the way thinking templates do: the open model turn that the chat wrapper renders last gets
 * an empty, closed thought (Qwen3's `enable_thinking: false` renders the same `<think>\n\n</think>`), so the
 * answer starts at once. With a thought budget of 0 as well, the model cannot open another one.
 * (Thinking "on" needs nothing: a thinking format opens its thought itself, or lets the model open it. Pre-filling
 * an open thought instead would escape node-llama-cpp's thought budget, which only counts thoughts it opened.)
 */
export function withThinkingOff(history: ChatHistoryItem[]): ChatHistoryItem[] {
    const last = history.at(-1);
    if (last?.type !== "model") return history;
    return [...history.slice(0, -1), {type: "model", response: [...last.response, {type: "segment", segmentType: "thought", text: "", ended: true}]}];
}
