import type {LlamaContextSequence, Token} from "node-llama-cpp";
import {commonPrefixLength} from "../engine/utils/commonPrefixLength.ts";

export type RoundInput = {tokens: Token[], labelTokens: Token[][]};

export type RoundsEvaluation = {
    /** Pooled inputs: per round, per label, the logits of that label's token ids. */
    logits: Array<Array<Map<Token, number>>>,
    /** Tokens the model read: the shared prefix once (counted even when it was already cached) plus every round's own new tokens. */
    inputTokens: number
};

type ControlledInput = Parameters<LlamaContextSequence["controlledEvaluate"]>[0];

/**
 * Evaluates the prompt prefix all rounds share once, then each round on top of whatever the previous round left
 * that it can reuse: rounds come grouped by question, so a question's text is read once and its orders and
 * nested rounds add only their own short tails. N questions therefore cost one prefill plus N short suffixes.
 * The last token of every round is evaluated afresh, as its next-token logits are the answer.
 */
export async function evaluateRounds(sequence: LlamaContextSequence, rounds: RoundInput[], signal?: AbortSignal): Promise<RoundsEvaluation> {
    let prefixLength = rounds[0].tokens.length - 1;
    for (const round of rounds) prefixLength = Math.min(prefixLength, commonPrefixLength(rounds[0].tokens, round.tokens), round.tokens.length - 1);
    const prefix = rounds[0].tokens.slice(0, prefixLength);

    const cached = commonPrefixLength(sequence.contextTokens, prefix);
    if (cached < sequence.contextTokens.length)
        await sequence.eraseContextTokenRanges([{start: cached, end: sequence.contextTokens.length}]);
    if (cached < prefix.length) await sequence.evaluateWithoutGeneratingNewTokens(prefix.slice(cached));

    let inputTokens = prefix.length;
    let current: readonly Token[] = prefix;
    const logits: RoundsEvaluation["logits"] = [];
    for (const round of rounds) {
        signal?.throwIfAborted();
        const keep = Math.max(prefixLength, Math.min(commonPrefixLength(current, round.tokens), round.tokens.length - 1));
        if (current.length > keep) await sequence.eraseContextTokenRanges([{start: keep, end: current.length}]);
        const fresh = round.tokens.slice(keep);
        const wanted = round.labelTokens.flat();
        const input = fresh.map((token, index) => index < fresh.length - 1
            ? token
            : [token, {generateNext: {logits: {filter: {tokens: wanted}}}}] as const);
        const output = await sequence.controlledEvaluate(input as ControlledInput);
        const next = output.at(-1)?.next.logits ?? new Map<Token, number>();
        logits.push(round.labelTokens.map((ids) => new Map(ids.map((id) => [id, next.get(id) ?? -Infinity]))));
        inputTokens += fresh.length;
        current = round.tokens;
    }
    // Leave just the shared prefix, so the next request on the same input reuses it and nothing else.
    if (current.length > prefixLength) await sequence.eraseContextTokenRanges([{start: prefixLength, end: current.length}]);
    return {logits, inputTokens};
}
