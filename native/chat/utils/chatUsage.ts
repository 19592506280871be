import type {CompletionUsage} from "../../../protocol/chat/types.ts";
import {makeUsage} from "../../engine/utils/makeUsage.ts";

/**
 * Usage of a chat turn (spec 2.3): the engine's prompt and cache counts, every output token of every choice
 * and attempt, and how many of those were thinking (2.3.4) when the model's format can think.
 */
export function chatUsage({promptTokens, reusablePrefix, completionTokens, reasoningTokens, canThink}: {
    promptTokens: number,
    reusablePrefix: number,
    completionTokens: number,
    reasoningTokens: number,
    canThink: boolean
}): CompletionUsage {
    const usage = makeUsage({promptTokens, reusablePrefix, completionTokens});
    return canThink ? {...usage, completion_tokens_details: {reasoning_tokens: reasoningTokens}} : usage;
}
