// The usage objects of spec §2.3 in the three counts billing reads (§2.3 rule 2): uncached input, cached input and
// output. Every endpoint family spells them differently; this is the one place that knows all the spellings.

export type MeteredTokens = {uncachedInputTokens: number, cachedInputTokens: number, outputTokens: number};

/** Any §2.3 usage: chat and completions (`prompt_tokens`...), Responses and decisions (`input_tokens`...). */
export type AnyUsage = {
    prompt_tokens?: number,
    completion_tokens?: number,
    prompt_tokens_details?: {cached_tokens?: number},
    input_tokens?: number,
    output_tokens?: number,
    input_tokens_details?: {cached_tokens?: number}
};

/**
 * Spec §2.3 rule 2: uncached input = input − cached input. Reasoning tokens are part of the output count (rule 4),
 * so they need no term of their own; images are part of the input count (§1 rule 4).
 */
export function meteredTokens(usage: AnyUsage): MeteredTokens {
    const input = count(usage.prompt_tokens ?? usage.input_tokens);
    const cached = Math.min(input, count(usage.prompt_tokens_details?.cached_tokens ?? usage.input_tokens_details?.cached_tokens));
    return {uncachedInputTokens: input - cached, cachedInputTokens: cached, outputTokens: count(usage.completion_tokens ?? usage.output_tokens)};
}

function count(value: number | undefined): number {
    return Number.isSafeInteger(value) && value! > 0 ? value! : 0;
}
