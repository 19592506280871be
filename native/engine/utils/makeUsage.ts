import type {CompletionUsage} from "../../../protocol/chat/types.ts";

/**
 * Usage of spec 2.3 for chat and legacy completions. `cached_tokens` is the prompt prefix found in the sequence's
 * KV cache; the last prompt token is always evaluated again (its logits start generation), so it never counts.
 */
export function makeUsage({promptTokens, reusablePrefix, completionTokens}: {promptTokens: number, reusablePrefix: number, completionTokens: number}): CompletionUsage {
    return {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        prompt_tokens_details: {cached_tokens: Math.max(0, Math.min(reusablePrefix, promptTokens - 1))}
    };
}
