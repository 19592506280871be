import type {LlamaContextSequence, Token} from "node-llama-cpp";
import {commonPrefixLength} from "../engine/utils/commonPrefixLength.ts";

export type RoundInput = {tokens: Token[], labelTokens: Token[][]};

export type RoundsEvaluation = {
    /** Pooled inputs: per round, per label, the logits of that label's token ids. */
    logits: Array<Array<Map<Token, number>>>,
    /** Tokens the model read: the shared prefix once (when not already cached) plus every round's own suffix. */
    evaluatedTokens: number,
    sharedPrefixTokens: number
};

/**
 * Evaluates the prompt prefix all rounds share once, then each round's short suffix on top of it, reading the
 * next-token logits of the round's label tokens and erasing the suffix again. N questions therefore cost one
 * prefill plus N short suffixes, not N full prompts.
 */
export async function evaluateRounds(sequence: LlamaContextSequence, rounds: RoundInput[], signal?: AbortSignal): Promise<RoundsEvaluation> {
    let prefixLength = rounds[0].tokens.length - 1;
    for (const round of rounds) prefixLength = Math.min(prefixLength, commonPrefixLength(rounds[0].tokens, round.tokens), round.tokens.length - 1);
    const prefix = rounds[0].tokens.slice(0, prefixLength);

    const cached = commonPrefixLength(sequence.contextTokens, prefix);
    if (cached < sequence.contextTokens.length)
        await sequence.eraseContextTokenRanges([{start: cached, end: sequence.contextTokens.length}]);
    if (cached < prefix.length) await sequence.evaluateWithoutGeneratingNewTokens(prefix.slice(cached));
    let evaluatedTokens = prefix.length - cached;

    const logits: RoundsEvaluation["logits"] = [];
    for (const round of rounds) {
        signal?.throwIfAborted();
        const suffix = round.tokens.slice(prefixLength);
        const wanted = round.labelTokens.flat();
        const input = suffix.map((token, index) => index < suffix.length - 1
            ? token
            : [token, {generateNext: {logits: {filter: {tokens: wanted}}}}] as const);
        const output = await sequence.controlledEvaluate(input as Parameters<LlamaContextSequence["controlledEvaluate"]>[0]);
        const next = output.at(-1)?.next.logits ?? new Map<Token, number>();
        logits.push(round.labelTokens.map((ids) => new Map(ids.map((id) => [id, next.get(id) ?? -Infinity]))));
        evaluatedTokens += suffix.length;
        await sequence.eraseContextTokenRanges([{start: prefixLength, end: sequence.contextTokens.length}]);
    }
    return {logits, evaluatedTokens, sharedPrefixTokens: prefix.length};
}
