import {LlamaChat, type ChatWrapper} from "node-llama-cpp";
import type {SequenceLease} from "../engine/SequenceScheduler.ts";
import {decisionHistory} from "./LlamaDecisionEngine.ts";

// An explanation is the stated answer, "because", and the model's continuation, cut to one sentence. The answer
// is kept verbatim (an option named "iPhone" or "Dr. Who" must not be recased or cut), so the sentence always
// starts with the chosen option; only the continuation is searched for the sentence end.

/** What the model's reply is prefilled with: it then has to give a reason for this answer. */
export function explanationOpening(answer: string): string {
    return `${answer}, because`;
}

/** The answer, the first sentence of the model's `continuation` of explanationOpening(answer), closed with a period. */
export function firstSentence(answer: string, continuation: string): string {
    // Whitespace collapsed to single spaces; other control characters (a small model can emit raw bytes) dropped.
    const rest = continuation.replace(/\s+/g, " ").replace(/\p{Cc}/gu, "");
    const end = rest.search(/[.!?](\s|$)/);
    const body = (end >= 0 ? rest.slice(0, end + 1) : rest).trimEnd();
    // Nothing said after "because": the answer alone is the sentence.
    if (body.replace(/[\s.!?,;:]/g, "") === "") return /[.!?]$/.test(answer) ? answer : `${answer}.`;
    const sentence = explanationOpening(answer) + body;
    return /[.!?]$/.test(sentence) ? sentence : sentence.replace(/[,;:\s]+$/, "") + ".";
}

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
