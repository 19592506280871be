import type {SamplingParams} from "../../../protocol/chat/types.ts";

/** OpenAI sampling fields to node-llama-cpp's generation options. */
export function toGenerationOptions(sampling: SamplingParams, {choiceIndex = 0}: {choiceIndex?: number} = {}) {
    const penalised = (sampling.presence_penalty ?? 0) !== 0 || (sampling.frequency_penalty ?? 0) !== 0;
    return {
        // The OpenAI default temperature is 1; node-llama-cpp's is 0 (greedy).
        temperature: sampling.temperature ?? 1,
        topP: sampling.top_p,
        // Each of `n` choices gets its own seed so seeded choices differ from each other yet stay reproducible.
        seed: sampling.seed != null ? sampling.seed + choiceIndex : undefined,
        customStopTriggers: sampling.stop,
        repeatPenalty: penalised
            ? {penalty: 1, presencePenalty: sampling.presence_penalty ?? 0, frequencyPenalty: sampling.frequency_penalty ?? 0}
            : false as const
    };
}
