import type {SamplingParams} from "../../protocol/chat/types.ts";
import type {SequenceLease} from "../engine/SequenceScheduler.ts";
import {generateChatTurn, type ChatDelta, type ChatTurnResult} from "./generateChatTurn.ts";
import type {ChatTurnPlan} from "./planChatTurn.ts";
import {UnsatisfiedFormatError} from "./UnsatisfiedFormatError.ts";

export type ChatChoiceOptions = {
    lease: SequenceLease,
    sampling: SamplingParams,
    choiceIndex: number,
    signal: AbortSignal,
    /** Streams the first attempt; plans with more than one attempt are never streamed (spec 2.5.2, 2.7.8). */
    onDelta?: (delta: ChatDelta) => void
};

/**
 * Generates one choice by the plan's attempts, in order, until one keeps the request's contract. The result
 * counts the tokens of every attempt (spec 2.3.5: regenerations are reported and charged). A reply cut by the
 * budget is returned as it is, since another attempt would be cut the same way (spec 2.7.7).
 */
export async function runChatChoice(plan: ChatTurnPlan, {lease, sampling, choiceIndex, signal, onDelta}: ChatChoiceOptions): Promise<ChatTurnResult> {
    let completionTokens = 0;
    let reasoningTokens = 0;
    let last: ChatTurnResult | undefined;
    let problem: string | undefined;
    for (const [attemptIndex, attempt] of plan.attempts.entries()) {
        const result = await generateChatTurn({
            lease,
            chatWrapper: attempt.chatWrapper,
            history: attempt.history,
            maxTokens: plan.maxTokens,
            sampling: attemptIndex === 0 ? sampling : resample(sampling, attemptIndex),
            choiceIndex,
            signal,
            onDelta: attemptIndex === 0 ? onDelta : undefined,
            functions: attempt.functions,
            grammar: attempt.grammar,
            thoughtBudget: attempt.thoughtBudget
        });
        completionTokens += result.completionTokens;
        reasoningTokens += result.reasoningTokens;
        last = {...result, completionTokens, reasoningTokens};
        if (result.finishReason === "length" || signal.aborted) return last;
        problem = attempt.check?.(result);
        if (problem == null) return last;
    }
    if (plan.failWhenUnsatisfied)
        throw new UnsatisfiedFormatError(`${problem} (after ${plan.attempts.length} attempts)`, {completionTokens, reasoningTokens});
    return last!;
}

/**
 * A regeneration must be able to differ from the reply it replaces: greedy decoding would repeat it, so
 * retries sample at a temperature of at least 0.7, and a seeded request moves to another fixed seed.
 */
function resample(sampling: SamplingParams, attemptIndex: number): SamplingParams {
    return {
        ...sampling,
        temperature: Math.max(sampling.temperature ?? 1, 0.7),
        seed: sampling.seed != null ? sampling.seed + attemptIndex * 7919 : undefined
    };
}
