// Numbers a playground run shows about its output, each computed here once: the generation rate (tokens/s) and how
// the token view's count of scored tokens relates to the output tokens that usage reports.
import type {JsonBody} from "../../../../client/sdk/index.ts";
import {outputTextLogprobs} from "../../../../protocol/logprobs.ts";
import type {RunTiming} from "./runs.ts";

/** Whether a request asks for token scores: chat `logprobs: true`, legacy `logprobs: N`, Responses' include entry. */
export function asksForScores(body: JsonBody | undefined): boolean {
    if (body == null) return false;
    if (body.logprobs === true || typeof body.logprobs === "number") return true;
    return Array.isArray(body.include) && body.include.includes(outputTextLogprobs);
}

/** The output tokens a reply's usage reports (chat and legacy `completion_tokens`, Responses `output_tokens`). */
export function usageOutputTokens(usage: Record<string, unknown> | undefined): {field: string, count: number} | undefined {
    for (const field of ["completion_tokens", "output_tokens"]) {
        const count = usage?.[field];
        if (typeof count === "number" && Number.isFinite(count)) return {field, count};
    }
    return undefined;
}

/** What tokens/s means wherever it is shown. */
export const rateDefinition = "Output tokens after the first, divided by the time from the first token's arrival to the end of the reply (measured here)";

export type GenerationRate = {tokensPerSecond: number} | {unmeasured: string};

/**
 * The generation rate of a run, from the arrival of its streamed tokens, or why it cannot be measured for this run;
 * undefined when the run reports no output tokens at all. The API reports no generation time of its own: its
 * `Server-Timing` ends at the response headers, which a stream sends before its first token (spec §4), so the only
 * timeline is the tokens' arrival here, and that is the generation only when the server sends each token as it is made.
 */
export function generationRate(run: {timing: RunTiming, request?: JsonBody}, usage: Record<string, unknown> | undefined): GenerationRate | undefined {
    const output = usageOutputTokens(usage);
    if (output == null) return undefined;
    if (run.request != null && run.request.stream !== true)
        return {unmeasured: "Not streamed: only the whole request's time is known, which includes reading the prompt."};
    if (asksForScores(run.request))
        return {unmeasured: "Token scores were asked for: the engine sends a scored stream's tokens only once all of them are scored, so their arrival does not time the generation."};
    const {totalMs, firstTokenMs} = run.timing;
    const generateMs = totalMs !== undefined && firstTokenMs !== undefined ? totalMs - firstTokenMs : undefined;
    if (output.count < 2 || generateMs === undefined || generateMs <= 0)
        return {unmeasured: "Fewer than two output tokens arrived over time, so there is no interval to measure."};
    return {tokensPerSecond: (output.count - 1) / (generateMs / 1000)};
}

/** What the token view's count means wherever it is shown. */
export const scoredCountDefinition = "Tokens of the returned text that carry a score (logprob)";

/**
 * What a scored prompt's counts mean, said on screen (the chips, the scored tokens and usage's prompt_tokens differ by
 * design): every chip is a token of the prompt, the first has nothing before it so it is not scored, and prompt_tokens
 * also counts what the model adds before the text (a start-of-text token).
 */
export function echoedCountsNote(chips: number, scored: number, usage: Record<string, unknown> | undefined): string {
    const prompt = typeof usage?.prompt_tokens === "number" ? usage.prompt_tokens : null;
    const unscored = chips - scored;
    const parts = [`${chips} token${chips === 1 ? "" : "s"} of the prompt, ${scored} scored` +
        (unscored > 0 ? ` (${unscored === 1 ? "the first has" : `${unscored} have`} nothing before ${unscored === 1 ? "it" : "them"} to score against)` : "")];
    if (prompt !== null && prompt > chips)
        parts.push(`prompt_tokens ${prompt} also counts ${prompt - chips} token${prompt - chips === 1 ? "" : "s"} the model adds before the text (start of text)`);
    return parts.join("; ");
}

/**
 * How the token view's scored tokens relate to the output tokens usage reports, in words for the screen, or null when
 * they agree or cannot be compared: usage covers every choice of `n` together, and an echoed prompt is scored too.
 * Usage counts every output token the server generated (spec 2.3), also those outside the scored text: a stop
 * sequence and the end-of-turn token (generated, never returned), reasoning (returned, not scored), a regenerated attempt.
 */
export function scoredTokensNote(scored: number, usage: Record<string, unknown> | undefined, {choices = 1, echoed = false}: {choices?: number, echoed?: boolean} = {}): string | null {
    const output = usageOutputTokens(usage);
    if (output == null || choices !== 1 || echoed || output.count === scored) return null;
    const difference = output.count - scored;
    if (difference > 0)
        return `${output.field} is ${output.count}: it also counts ${difference} output token${difference === 1 ? "" : "s"} not in the scored text ` +
            "(a stop sequence, the end-of-turn token, reasoning or a regenerated attempt)";
    return `${output.field} is ${output.count}, fewer than the ${scored} scored tokens`;
}
