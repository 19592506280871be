import {LlamaCompletion, type Token} from "node-llama-cpp";
import type {FinishReason, SamplingParams} from "../../protocol/chat/types.ts";
import type {SequenceLease} from "../engine/SequenceScheduler.ts";
import {toGenerationOptions} from "../engine/utils/toGenerationOptions.ts";

export type CompletionTextResult = {text: string, finishReason: Exclude<FinishReason, "tool_calls">, completionTokens: number};

/** Continues raw prompt tokens on a leased sequence (legacy completions: no chat template). */
export async function generateCompletionText({lease, prompt, maxTokens, sampling, choiceIndex, signal, onText}: {
    lease: SequenceLease,
    prompt: Token[],
    maxTokens: number,
    sampling: SamplingParams,
    choiceIndex: number,
    signal: AbortSignal,
    onText?: (text: string) => void
}): Promise<CompletionTextResult> {
    const completion = new LlamaCompletion({contextSequence: lease.sequence});
    const outputBefore = lease.sequence.tokenMeter.usedOutputTokens;
    const {tokens} = lease.sequence.model;
    // LlamaCompletion prepends the BOS token itself; `prompt` holds it already (so usage and the window count it).
    const input = tokens.shouldPrependBosToken && prompt[0] === tokens.bos ? prompt.slice(1) : prompt;
    try {
        const result = await completion.generateCompletionWithMeta(input, {
            ...toGenerationOptions(sampling, {choiceIndex}),
            maxTokens,
            // The route checked that prompt plus budget fit the window: keep the whole prompt (LlamaCompletion
            // would otherwise cut its start to leave a tenth of the context free) and never shift it out.
            contextShiftSize: lease.sequence.context.contextSize - prompt.length,
            disableContextShift: true,
            signal,
            stopOnAbortSignal: true,
            onTextChunk: onText
        });
        return {
            text: result.response,
            finishReason: result.metadata.stopReason === "maxTokens" ? "length" : "stop",
            completionTokens: lease.sequence.tokenMeter.usedOutputTokens - outputBefore
        };
    } finally {
        completion.dispose({disposeSequence: false});
    }
}
