import type {Token} from "node-llama-cpp";
import {ApiError} from "../../protocol/errors.ts";
import type {UpstreamClient} from "./UpstreamClient.ts";

// How the probabilities of a decision's label tokens are read from an OpenAI-compatible engine. The
// engine is asked for one next token after the round's prompt (sent as token ids) with log-probabilities, by the
// first method the startup probe sees work:
// 1. named token ids: `logprob_token_ids` asks for the label ids' own log-probabilities (the field this design prefers
//    for vLLM; not run here, so it is used only where the probe sees those ids come back);
// 2. `logit_bias` +100 (the OpenAI maximum) on every label id, with top log-probabilities: an equal shift keeps their
//    ratios, which are all a decision reads (the label softmax of probabilities.ts), and pushes the rest of the
//    vocabulary to zero. This needs probabilities reported *after* the bias: llama-server does with
//    `post_sampling_probs` (and top_k 0, min_p 0, top_p 1, temperature 1, so no sampler cuts a label away), vLLM
//    with `--logprobs-mode processed_logprobs`.
// The probe also finds how many alternatives one request may ask for.

/** The bias that makes every label token outrank the rest of the vocabulary (OpenAI's range is -100..100). */
const labelBias = 100;

/** A way of asking this upstream for label probabilities that the probe saw work. */
export type LabelMethod = {
    /** Extra body fields the engine needs (llama-server's sampler settings), or none for plain OpenAI engines. */
    extra: Record<string, unknown>,
    /** Method 1: the ids are named in `logprob_token_ids` (no bias); else method 2, biased top alternatives. */
    named?: boolean,
    /** Most alternatives one request may ask for (vLLM's `--max-logprobs` defaults to 20). */
    cap: number
};

/** llama-server's fields: probabilities after logit_bias, and no sampler that drops candidates. Unknown to other engines. */
export const llamaCppExtra = {post_sampling_probs: true, top_k: 0, min_p: 0, cache_prompt: true};
/** vLLM's field: alternatives keyed `token_id:<id>` rather than by their text, which is ambiguous. */
const openAiExtra = {return_tokens_as_token_ids: true};

type Scored = {id?: number, token?: string, logprob?: number, prob?: number};
type UpstreamLogprobs = {
    content?: Array<Scored & {top_logprobs?: Scored[], top_probs?: Scored[]}>,
    top_logprobs?: Array<Record<string, number> | null>
};
type UpstreamTextReply = {choices?: Array<{logprobs?: UpstreamLogprobs | null, text?: string}>, usage?: {prompt_tokens?: number, prompt_tokens_details?: {cached_tokens?: number} | null}};

/**
 * The next token's alternatives by token id, as log-probabilities, from any of the shapes engines answer in:
 * llama-server's `content[0].top_probs` (after sampling) or `top_logprobs` with ids, or the legacy OpenAI
 * `top_logprobs[0]` keyed `token_id:<id>` (vLLM's `return_tokens_as_token_ids`).
 */
export function nextTokenLogprobs(logprobs: UpstreamLogprobs | null | undefined): Map<Token, number> {
    const found = new Map<Token, number>();
    const first = logprobs?.content?.[0];
    for (const entry of first?.top_probs ?? first?.top_logprobs ?? []) {
        const value = entry.logprob ?? (entry.prob != null ? Math.log(entry.prob) : undefined);
        if (Number.isInteger(entry.id) && value != null) found.set(entry.id as Token, value);
    }
    for (const [key, value] of Object.entries(logprobs?.top_logprobs?.[0] ?? {})) {
        const id = /^token_id:(\d+)$/.exec(key)?.[1];
        if (id != null && typeof value === "number") found.set(Number(id) as Token, value);
    }
    return found;
}

export type LabelReading = {logprobs: Map<Token, number>, inputTokens: number};

/**
 * The log-probabilities of `ids` as the next token after `prompt`, in requests of at most `cap` alternatives. When
 * the ids exceed the cap they are split into groups that each also hold the first id, the anchor: each group's
 * values are shifted so the anchor agrees, which puts every group on one scale (only differences matter).
 */
export async function readLabelLogprobs(upstream: UpstreamClient, model: string, method: LabelMethod, prompt: readonly Token[], ids: readonly Token[],
    signal: AbortSignal): Promise<LabelReading> {
    const unique = [...new Set(ids)];
    const [anchor, ...rest] = unique;
    const groups: Token[][] = unique.length <= method.cap ? [unique] : [];
    if (groups.length === 0) for (let from = 0; from < rest.length; from += method.cap - 1) groups.push([anchor, ...rest.slice(from, from + method.cap - 1)]);
    const logprobs = new Map<Token, number>();
    let inputTokens = 0;
    for (const group of groups) {
        const reply = await upstream.postJson<UpstreamTextReply>("/completions", labelRequest(model, method, prompt, group), signal);
        const read = nextTokenLogprobs(reply.choices?.[0]?.logprobs);
        const shift = logprobs.has(anchor) && read.has(anchor) ? logprobs.get(anchor)! - read.get(anchor)! : 0;
        for (const id of group) if (read.has(id) && !logprobs.has(id)) logprobs.set(id, read.get(id)! + shift);
        const prompted = reply.usage?.prompt_tokens ?? prompt.length;
        inputTokens += Math.max(0, prompted - (reply.usage?.prompt_tokens_details?.cached_tokens ?? 0));
    }
    if (logprobs.size === 0)
        throw new ApiError(502, "upstream_error", "the upstream engine returned no probability for any label token of a decision round");
    return {logprobs, inputTokens};
}

function labelRequest(model: string, method: LabelMethod, prompt: readonly Token[], ids: readonly Token[]) {
    return {
        ...method.extra,
        model,
        prompt,
        max_tokens: 1,
        temperature: 1,
        top_p: 1,
        logprobs: ids.length,
        ...(method.named ? {logprob_token_ids: ids} : {logit_bias: Object.fromEntries(ids.map((id) => [String(id), labelBias]))})
    };
}

/** What the probe found: a method, or why decisions cannot be served on this upstream (the 503's message). */
export type LabelProbe = {method: LabelMethod} | {unavailable: string};

/** Alternatives asked for when probing the cap: a nested label round holds at most 26 labels of up to 8 spellings each. */
const capsToTry = [256, 20, 5];

/** The methods in order of preference: named ids first, then the bias with llama-server's fields, then plain. */
const flavours: Array<{name: string, extra: Record<string, unknown>, named: boolean}> = [
    {name: "named token ids (logprob_token_ids)", extra: openAiExtra, named: true},
    {name: "logit_bias with llama.cpp fields", extra: llamaCppExtra, named: false},
    {name: "logit_bias with OpenAI fields", extra: openAiExtra, named: false}
];

/**
 * Tries each method with two probe ids that are not among the unbiased top tokens, so only a working method brings
 * them back: named ids must come back; biased ones must also carry (nearly) all the probability, which shows the
 * engine reported them after the bias. The cap is then the largest alternatives count the engine accepts.
 */
export async function probeLabelMethod(upstream: UpstreamClient, model: string, prompt: readonly Token[], candidates: readonly Token[],
    signal: AbortSignal): Promise<LabelProbe> {
    const failures: string[] = [];
    for (const {name, extra, named} of flavours) {
        try {
            const plain = await upstream.postJson<UpstreamTextReply>("/completions", {...extra, model, prompt, max_tokens: 1, logprobs: 5}, signal);
            const top = nextTokenLogprobs(plain.choices?.[0]?.logprobs);
            const probeIds = [...new Set(candidates)].filter((id) => !top.has(id)).slice(0, 2);
            const body = labelRequest(model, {extra, named, cap: probeIds.length}, prompt, probeIds);
            const read = nextTokenLogprobs((await upstream.postJson<UpstreamTextReply>("/completions", body, signal)).choices?.[0]?.logprobs);
            const mass = probeIds.reduce((sum, id) => sum + Math.exp(read.get(id) ?? -Infinity), 0);
            if (probeIds.every((id) => read.has(id)) && (named || mass > 0.99))
                return {method: {extra, named, cap: await largestCap(upstream, model, prompt, extra, signal)}};
            failures.push(named ? `${name}: the named ids did not come back`
                : `${name}: the biased label tokens came back with ${(mass * 100).toFixed(1)}% of the probability, so the engine reports probabilities before logit_bias`);
        } catch (error) {
            if (signal.aborted || error instanceof ApiError && error.status >= 500) throw error;
            failures.push(`${name}: ${(error as Error).message}`);
        }
    }
    return {unavailable: `the upstream engine cannot give label probabilities (${failures.join("; ")}); for vLLM start it with --logprobs-mode processed_logprobs`};
}

/** The method was tried with 2 alternatives only: the largest count the engine accepts (vLLM refuses more than its cap with a 400). */
async function largestCap(upstream: UpstreamClient, model: string, prompt: readonly Token[], extra: Record<string, unknown>, signal: AbortSignal): Promise<number> {
    for (const cap of capsToTry) {
        try {
            await upstream.postJson("/completions", {...extra, model, prompt, max_tokens: 1, logprobs: cap}, signal);
            return cap;
        } catch (error) {
            if (!(error instanceof ApiError && error.status === 400)) throw error;
        }
    }
    return 2;
}
