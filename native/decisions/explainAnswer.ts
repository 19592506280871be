import {LlamaChat, type ChatHistoryItem, type ChatWrapper} from "node-llama-cpp";
import type {SequenceLease} from "../engine/SequenceScheduler.ts";

const maxExplanationTokens = 48;

/**
 * One sentence explaining an answer already chosen. The model continues a reply that starts by stating that
 * answer, so the explanation cannot contradict it; generation is greedy and stops at the end of the line.
 */
export async function explainAnswer({lease, chatWrapper, history, answerText, signal}: {
    lease: SequenceLease,
    chatWrapper: ChatWrapper,
    history: ChatHistoryItem[],
    answerText: string,
    signal: AbortSignal
}): Promise<{sentence: string, outputTokens: number}> {
    const opening = `${answerText}, because`;
    const prefilled: ChatHistoryItem[] = [...history.slice(0, -1), {type: "model", response: [opening]}];
    const chat = new LlamaChat({contextSequence: lease.sequence, chatWrapper});
    const before = lease.sequence.tokenMeter.usedOutputTokens;
    try {
        const result = await chat.generateResponse(prefilled, {
            maxTokens: maxExplanationTokens, temperature: 0, signal, customStopTriggers: ["\n"]
        });
        return {sentence: toSentence(opening + result.response), outputTokens: lease.sequence.tokenMeter.usedOutputTokens - before};
    } finally {
        chat.dispose({disposeSequence: false});
    }
}

/** The first sentence, closed with a period, whitespace collapsed. */
function toSentence(text: string): string {
    const collapsed = text.replace(/\s+/g, " ").trim();
    const end = collapsed.search(/[.!?](\s|$)/);
    const sentence = end >= 0 ? collapsed.slice(0, end + 1) : collapsed.replace(/[,;:\s]+$/, "") + ".";
    return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
