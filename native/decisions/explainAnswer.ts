import {LlamaChat, type ChatWrapper} from "node-llama-cpp";
import type {SequenceLease} from "../engine/SequenceScheduler.ts";
import {decisionHistory} from "./decisionHistory.ts";
import {explanationOpening, firstSentence} from "./utils/firstSentence.ts";

const maxExplanationTokens = 48;

/**
 * One sentence explaining an answer already chosen. The model continues a reply that starts by stating that
 * answer, so the explanation cannot contradict it; generation is greedy and stops at the end of the line.
 */
export async function explainAnswer({lease, chatWrapper, text, questionPrompt, answerText, signal}: {
    lease: SequenceLease,
    chatWrapper: ChatWrapper,
    text: string,
    questionPrompt: string,
    answerText: string,
    signal: AbortSignal
}): Promise<{sentence: string, inputTokens: number, outputTokens: number}> {
    const chat = new LlamaChat({contextSequence: lease.sequence, chatWrapper});
    const meter = lease.sequence.tokenMeter;
    const before = {input: meter.usedInputTokens, output: meter.usedOutputTokens};
    try {
        const result = await chat.generateResponse(decisionHistory(text, questionPrompt, explanationOpening(answerText)), {
            maxTokens: maxExplanationTokens, temperature: 0, signal, customStopTriggers: ["\n"]
        });
        return {
            sentence: firstSentence(answerText, result.response),
            inputTokens: meter.usedInputTokens - before.input,
            outputTokens: meter.usedOutputTokens - before.output
        };
    } finally {
        chat.dispose({disposeSequence: false});
    }
}
