import {randomInt} from "node:crypto";
import type {SamplingParams} from "../../../protocol/chat/types.ts";

/** OpenAI sampling fields to node-llama-cpp's generation options. */
export function toGenerationOptions(sampling: SamplingParams, {choiceIndex = 0}: {choiceIndex?: number} = {}) {
    const penalised = (sampling.presence_penalty ?? 0) !== 0 || (sampling.frequency_penalty ?? 0) !== 0;
    return {
        // The OpenAI default temperature is 1; node-llama-cpp's is 0 (greedy).
        temperature: sampling.temperature ?? 1,
        topP: sampling.top_p,
        // Each of `n` choices gets its own seed so seeded choices differ from each other yet stay reproducible.
        // Unseeded requests need a random one: node-llama-cpp's default is the current second, which made every
        // choice of `n` and every request within the same second sample the same text.
        seed: sampling.seed != null ? toUint32(sampling.seed + choiceIndex) : randomInt(0, 2 ** 32),
        customStopTriggers: sampling.stop,
        repeatPenalty: penalised
            ? {penalty: 1, presencePenalty: sampling.presence_penalty ?? 0, frequencyPenalty: sampling.frequency_penalty ?? 0}
            : false as const
    };
}

/** llama.cpp seeds are unsigned 32-bit: wrap rather than clamp, so negative and large seeds stay distinct. */
function toUint32(seed: number): number {
    return ((seed % 2 ** 32) + 2 ** 32) % 2 ** 32;
}
