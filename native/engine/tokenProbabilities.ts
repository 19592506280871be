import {TokenBias, type LlamaContextSequence, type LlamaModel, type Token} from "node-llama-cpp";
import {ValidationError} from "../../protocol/validation.ts";
import {ApiError} from "../../protocol/errors.ts";
import type {LegacyLogprobs, LogitBias, TokenLogprob} from "../../protocol/logprobs.ts";
import {commonPrefixLength} from "./SequenceScheduler.ts";

// Token probabilities. Every value is the model's raw next-token distribution: the log-softmax of the
// logits given the tokens before, taken before logit_bias, penalties, temperature and top_p. Generation samples
// with those on. With the patched engine (`npm run build:engine`) that distribution is read during generation, right
// after each token's sampling (recordTokenLogprobs); whatever was not read so (prompt tokens for `echo`, or every
// token with node-llama-cpp's prebuilt binding) is scored in one teacher-forced batch on the same sequence, which
// costs one prefill of those tokens. Either way only requests that asked for scores pay.

/** A token's log-probability and its most likely alternatives at the same position, best first. */
export type ScoredToken = {token: Token, logprob: number, top: Array<{token: Token, logprob: number}>};

/** A token to score: `context[0..position)` is what the model read before it. */
export type ScoreTarget = {position: number, token: Token};

type ControlledInput = Parameters<LlamaContextSequence["controlledEvaluate"]>[0];

/**
 * What the patched node-llama-cpp fills while a sequence generates (`_svcTokenLogprobs`, read by its `_evaluate`):
 * per position, the sampled token and [its logprob, then `top` pairs of id and logprob].
 */
type Recorder = {top: number, byPosition: Map<number, {token: Token, values: Float64Array}>, record(position: number, token: Token, values: Float64Array): void};
const recorderOf = (sequence: LlamaContextSequence) => sequence as unknown as {_svcTokenLogprobs?: Recorder};

/**
 * Has the sequence read each generated token's raw distribution (its logprob and the `topCount` best alternatives)
 * as it is sampled, until `stop`; scoreTokens then takes the tokens found there instead of scoring them again.
 * Measured on stories260K: the second pass over a 64-token output was 13 ms of a 33 ms request.
 */
export function recordTokenLogprobs(sequence: LlamaContextSequence, topCount: number): {stop(): void} {
    const byPosition: Recorder["byPosition"] = new Map();
    const recorder: Recorder = {top: topCount, byPosition, record: (position, token, values) => void byPosition.set(position, {token, values})};
    recorderOf(sequence)._svcTokenLogprobs = recorder;
    return {
        stop: () => {
            if (recorderOf(sequence)._svcTokenLogprobs === recorder) delete recorderOf(sequence)._svcTokenLogprobs;
        }
    };
}

/** A target's score as read during generation, when it was: the same token at the same position. */
function recordedScore(recorder: Recorder | undefined, target: ScoreTarget, topCount: number): ScoredToken | undefined {
    const entry = recorder?.byPosition.get(target.position);
    if (entry == null || entry.token !== target.token || recorder!.top < topCount) return undefined;
    const top: ScoredToken["top"] = [];
    for (let index = 0; index < topCount; index++)
        top.push({token: entry.values[1 + 2 * index] as Token, logprob: entry.values[2 + 2 * index]});
    return {token: target.token, logprob: entry.values[0], top};
}

/**
 * Scores `targets` (ascending positions, each at least 1 and at most `context.length`) against `context`, on
 * `sequence`: a target the sequence read as it was generated (recordTokenLogprobs) is taken from there; for the others
 * its cached prefix of `context` is kept, the rest is evaluated with logits at each target. The sequence is left
 * holding a prefix of `context`, so the next lease still reuses what it can.
 */
export async function scoreTokens(sequence: LlamaContextSequence, context: readonly Token[], targets: readonly ScoreTarget[], topCount: number): Promise<ScoredToken[]> {
    const recorder = recorderOf(sequence)._svcTokenLogprobs;
    const found = targets.map((target) => recordedScore(recorder, target, topCount));
    const scored = await scoreAgain(sequence, context, targets.filter((_, index) => found[index] == null), topCount);
    let next = 0;
    return found.map((score) => score ?? scored[next++]);
}

/** Scores `targets` in one teacher-forced batch on `sequence` (see scoreTokens). */
async function scoreAgain(sequence: LlamaContextSequence, context: readonly Token[], targets: readonly ScoreTarget[], topCount: number): Promise<ScoredToken[]> {
    if (targets.length === 0) return [];
    const first = targets[0].position;
    const last = targets.at(-1)!.position;
    // The token before the first target is evaluated afresh: its logits are the first target's distribution.
    const keep = Math.min(commonPrefixLength(sequence.contextTokens, context), first - 1);
    if (keep < sequence.contextTokens.length)
        await sequence.eraseContextTokenRanges([{start: keep, end: sequence.contextTokens.length}]);
    const byPosition = new Map(targets.map((target) => [target.position, target.token]));
    const input = context.slice(keep, last).map((token, index) => {
        const next = byPosition.get(keep + index + 1);
        if (next == null) return token;
        // includeTop is at least 1: the best logit is the maximum the total weight below is relative to.
        return [token, {generateNext: {logits: {filter: {tokens: [next], includeTop: Math.max(1, topCount)}}, totalLogitWeight: true}}] as const;
    });
    // No sampling options: greedy with no bias or penalty, so the logits come back as the model produced them.
    const output = await sequence.controlledEvaluate(input as ControlledInput);
    const scored: ScoredToken[] = [];
    output.forEach((item, index) => {
        const chosen = byPosition.get(keep + index + 1);
        if (chosen == null) return;
        const logits = item?.next.logits;
        const weight = item?.next.totalLogitWeight;
        if (logits == null || weight == null)
            throw new ApiError(500, "internal_error", `node-llama-cpp returned no logits for position ${keep + index + 1}, so it could not be scored`);
        const best = Math.max(...logits.values());
        // totalLogitWeight is the sum of exp(logit - best) over the vocabulary, so log Z = best + ln(weight).
        const logZ = best + Math.log(weight);
        const logprobOf = (token: Token) => (logits.get(token) ?? -Infinity) - logZ;
        const top = [...logits.keys()]
            .sort((a, b) => logits.get(b)! - logits.get(a)!)
            .slice(0, topCount)
            .map((token) => ({token, logprob: logprobOf(token)}));
        scored.push({token: chosen, logprob: logprobOf(chosen), top});
    });
    return scored;
}

/**
 * The sampler bias for `logit_bias`, or undefined when there is none (the generation options stay as they were).
 * -100 bans a token outright (node-llama-cpp's "never"); other values are added to the logit as OpenAI does, so
 * +100 all but forces a token. Ids outside the loaded vocabulary are a 400 naming the entry.
 */
export function toTokenBias(model: LlamaModel, logitBias: LogitBias | undefined): TokenBias | undefined {
    if (logitBias == null) return undefined;
    const vocabularySize = model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length;
    const bias = new TokenBias(model.tokenizer);
    for (const [token, value] of logitBias) {
        if (vocabularySize != null && token >= vocabularySize)
            throw new ValidationError(["logit_bias", String(token)], `is not a token id of this model (its vocabulary has ids 0 to ${vocabularySize - 1})`);
        // End-of-generation tokens are skipped by TokenBias (a ban on them would never let the reply end).
        bias.set(token as Token, value <= -100 ? "never" : {logit: value});
    }
    return bias;
}

/** How many preceding tokens a token's text is read after: enough for SentencePiece's word-start spaces. */
const pieceContext = 4;

/**
 * A token's text as the client reads it, with its bytes, read after the tokens `before` it: a SentencePiece token
 * such as `▁there` reads " there" after other text and "there" at the start of a text (detokenized alone it lost
 * its space, so the pieces of a completion did not join into its text). A byte-fallback token (`<0xE2>`) holds
 * part of a character: its text is U+FFFD, as in OpenAI's replies, and its bytes are the one byte it stands for,
 * so the bytes of consecutive tokens join into the text.
 */
function tokenPiece(model: LlamaModel, token: Token, before: readonly Token[]): {token: string, bytes: number[]} {
    // Only a byte-fallback token is detokenized alone (an ASCII one such as <0x0A> reads as its character).
    const byte = /^<0x([0-9A-Fa-f]{2})>$/.exec(model.fileInfo.metadata.tokenizer?.ggml?.tokens?.[token] ?? "");
    if (byte != null && model.detokenize([token], true) === "\uFFFD") return {token: "\uFFFD", bytes: [Number.parseInt(byte[1], 16)]};
    const text = model.detokenize([token], true, before);
    return {token: text, bytes: [...Buffer.from(text, "utf8")]};
}

/** The local-only id field of a token when the request asked for ids (`x_svc.token_ids`), else nothing. */
const idField = (token: Token, withIds: boolean) => (withIds ? {x_svc: {token_id: token}} : {});

/**
 * Scored tokens in OpenAI's chat shape (`logprobs.content[]`, also the Responses `output_text.logprobs[]`); with
 * `withIds` each entry and alternative also carries its token id in `x_svc`. `before` holds the tokens that precede
 * the first scored one (the prompt's): each text is read after what precedes it.
 */
export function toTokenLogprobs(model: LlamaModel, scored: readonly ScoredToken[], {withIds = false, before = []}: {withIds?: boolean, before?: readonly Token[]} = {}): TokenLogprob[] {
    const tokens = scored.map((item) => item.token);
    return scored.map(({token, logprob, top}, index) => {
        const preceding = precedingTokens(before, tokens, index);
        return {
            ...tokenPiece(model, token, preceding),
            logprob,
            top_logprobs: top.map((alternative) => ({...tokenPiece(model, alternative.token, preceding), logprob: alternative.logprob, ...idField(alternative.token, withIds)})),
            ...idField(token, withIds)
        };
    });
}

/** The last few tokens before `tokens[index]`, reaching into `before` for the first ones. */
function precedingTokens(before: readonly Token[], tokens: readonly Token[], index: number): Token[] {
    const own = tokens.slice(Math.max(0, index - pieceContext), index);
    return own.length >= pieceContext ? own : [...before.slice(Math.max(0, before.length - (pieceContext - own.length))), ...own];
}

/**
 * Legacy completions' `logprobs` for `tokens`, in order, where `scores[i]` belongs to `tokens[i]` and null means
 * unscored (the first prompt token, which nothing precedes). Offsets count UTF-16 characters from `textStart`.
 * With `withIds`, `x_svc` holds the tokens' ids and the alternatives' ids keyed by their text, as `top_logprobs` is.
 */
export function toLegacyLogprobs(model: LlamaModel, tokens: readonly Token[], scores: ReadonlyArray<ScoredToken | null>, {textStart = 0, withIds = false, before = []}: {textStart?: number, withIds?: boolean, before?: readonly Token[]} = {}): LegacyLogprobs {
    const result: LegacyLogprobs = {tokens: [], token_logprobs: [], top_logprobs: [], text_offset: []};
    const ids: NonNullable<LegacyLogprobs["x_svc"]> = {token_ids: [...tokens], top_token_ids: []};
    let offset = textStart;
    tokens.forEach((token, index) => {
        const preceding = precedingTokens(before, tokens, index);
        const text = tokenPiece(model, token, preceding).token;
        const score = scores[index];
        const top = score?.top.map((item) => [tokenPiece(model, item.token, preceding).token, item] as const);
        result.tokens.push(text);
        result.token_logprobs.push(score?.logprob ?? null);
        result.top_logprobs.push(top == null ? null : Object.fromEntries(top.map(([piece, item]) => [piece, item.logprob])));
        ids.top_token_ids.push(top == null ? null : Object.fromEntries(top.map(([piece, item]) => [piece, item.token])));
        result.text_offset.push(offset);
        offset += text.length;
    });
    return withIds ? {...result, x_svc: ids} : result;
}

/** Concatenates legacy logprobs of consecutive pieces of one choice's text (the echoed prompt, then the output). */
export function joinLegacyLogprobs(first: LegacyLogprobs, second: LegacyLogprobs): LegacyLogprobs {
    const joined: LegacyLogprobs = {
        tokens: [...first.tokens, ...second.tokens],
        token_logprobs: [...first.token_logprobs, ...second.token_logprobs],
        top_logprobs: [...first.top_logprobs, ...second.top_logprobs],
        text_offset: [...first.text_offset, ...second.text_offset]
    };
    if (first.x_svc == null || second.x_svc == null) return joined;
    return {...joined, x_svc: {
        token_ids: [...first.x_svc.token_ids, ...second.x_svc.token_ids],
        top_token_ids: [...first.x_svc.top_token_ids, ...second.x_svc.top_token_ids]
    }};
}

/**
 * Where generated `tokens` (in order, a subsequence of what was sampled) sit in `contextTokens`, the sequence's
 * state after generation. The last of `sampled` tokens is never evaluated (generation stops on sampling it), so the
 * output starts at `length - (sampled - 1)`; a token past the evaluated state gets position `length`.
 */
export function locateOutputTokens(contextTokens: readonly Token[], sampled: number, tokens: readonly Token[]): ScoreTarget[] {
    let cursor = Math.max(1, contextTokens.length - Math.max(0, sampled - 1));
    const targets: ScoreTarget[] = [];
    for (const token of tokens) {
        while (cursor < contextTokens.length && contextTokens[cursor] !== token) cursor++;
        // Scoring tokens at the wrong positions would report wrong values: refuse instead (a bug, never the client's).
        if (cursor > contextTokens.length)
            throw new ApiError(500, "internal_error", "The generated tokens could not be matched to the sequence's state, so they could not be scored");
        targets.push({position: cursor, token});
        cursor++;
    }
    return targets;
}
