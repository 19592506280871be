import {LlamaChat, type ChatHistoryItem, type ChatWrapper} from "node-llama-cpp";
import type {FinishReason, SamplingParams} from "../../protocol/chat/types.ts";
import type {SequenceLease} from "../engine/SequenceScheduler.ts";
import {toGenerationOptions} from "../engine/utils/toGenerationOptions.ts";

export type ChatDelta = {content?: string, reasoning?: string};

export type ChatTurnResult = {
    content: string,
    reasoning: string,
    finishReason: FinishReason,
    completionTokens: number
};

export type ChatTurnOptions = {
    lease: SequenceLease,
    chatWrapper: ChatWrapper,
    history: ChatHistoryItem[],
    maxTokens: number,
    sampling: SamplingParams,
    choiceIndex: number,
    signal: AbortSignal,
    onDelta?: (delta: ChatDelta) => void
};

/** One assistant turn on a leased sequence: generation, the stream of deltas, and its own token count. */
export async function generateChatTurn({lease, chatWrapper, history, maxTokens, sampling, choiceIndex, signal, onDelta}: ChatTurnOptions): Promise<ChatTurnResult> {
    const chat = new LlamaChat({contextSequence: lease.sequence, chatWrapper});
    const outputBefore = lease.sequence.tokenMeter.usedOutputTokens;
    let reasoning = "";
    try {
        const result = await chat.generateResponse(history, {
            ...toGenerationOptions(sampling, {choiceIndex}),
            maxTokens,
            signal,
            stopOnAbortSignal: true,
            onResponseChunk(chunk) {
                if (chunk.text === "") return;
                if (chunk.type === "segment") {
                    if (chunk.segmentType !== "thought") return;
                    reasoning += chunk.text;
                    onDelta?.({reasoning: chunk.text});
                } else onDelta?.({content: chunk.text});
            }
        });
        return {
            content: result.response,
            reasoning,
            finishReason: result.metadata.stopReason === "maxTokens" ? "length" : "stop",
            completionTokens: lease.sequence.tokenMeter.usedOutputTokens - outputBefore
        };
    } finally {
        chat.dispose({disposeSequence: false});
    }
}
