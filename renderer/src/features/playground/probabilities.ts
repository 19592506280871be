// The playgrounds' "probabilities" view model: token scores read from chat (`logprobs.content[]`) and legacy
// completions (`tokens`/`token_logprobs`/`top_logprobs`) replies alike, and the sequence's summary numbers.
import type {JsonBody} from "../../../../client/sdk/index.ts";

/** One scored token: its text, log-probability (null when unscored, like echo's first token) and alternatives. */
export type TokenScore = {token: string, logprob: number | null, top: Array<{token: string, logprob: number}>};

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** The token scores of one `choices[]` entry's `logprobs`, in either wire shape; [] when there are none. */
export function readTokenScores(logprobs: unknown): TokenScore[] {
    if (logprobs === null || typeof logprobs !== "object") return [];
    const body = logprobs as JsonBody;
    if (Array.isArray(body.content)) {
        return (body.content as JsonBody[]).filter((entry) => typeof entry?.token === "string").map((entry) => ({
            token: entry.token as string,
            logprob: isNumber(entry.logprob) ? entry.logprob : null,
            top: (Array.isArray(entry.top_logprobs) ? entry.top_logprobs as JsonBody[] : [])
                .filter((item) => typeof item?.token === "string" && isNumber(item.logprob))
                .map((item) => ({token: item.token as string, logprob: item.logprob as number}))
        }));
    }
    if (!Array.isArray(body.tokens)) return [];
    const logprobValues = Array.isArray(body.token_logprobs) ? body.token_logprobs : [];
    const tops = Array.isArray(body.top_logprobs) ? body.top_logprobs : [];
    return (body.tokens as unknown[]).map((token, index) => {
        const top = tops[index] !== null && typeof tops[index] === "object" ? tops[index] as Record<string, unknown> : {};
        return {
            token: String(token),
            logprob: isNumber(logprobValues[index]) ? logprobValues[index] : null,
            top: Object.entries(top).filter((entry): entry is [string, number] => isNumber(entry[1]))
                .map(([text, logprob]) => ({token: text, logprob}))
                .sort((a, b) => b.logprob - a.logprob)
        };
    });
}

/** Total log-probability of the scored tokens and their perplexity, exp(-mean logprob); null when none is scored. */
export function summarize(scores: readonly TokenScore[]): {total: number, perplexity: number, count: number} | null {
    const values = scores.map((score) => score.logprob).filter(isNumber);
    if (values.length === 0) return null;
    const total = values.reduce((sum, value) => sum + value, 0);
    return {total, perplexity: Math.exp(-total / values.length), count: values.length};
}

/** A probability as the view prints it: "42.1%", and "<0.1%" for what would round to nothing. */
export function percent(logprob: number): string {
    const value = Math.exp(logprob) * 100;
    return value < 0.1 ? "<0.1%" : `${value.toFixed(1)}%`;
}

/** A token as a chip shows it: whitespace made visible, so " the" and "the" can be told apart. */
export function showToken(token: string): string {
    return token.replace(/ /g, "·").replace(/\n/g, "↵").replace(/\t/g, "⇥");
}

/**
 * `logit_bias` as the parameters panel holds it, "id: bias" pairs separated by commas or newlines; returns the
 * request's object, or the reason it cannot be read.
 */
export function parseLogitBias(text: string): {value: Record<string, number>} | {error: string} {
    const value: Record<string, number> = {};
    for (const entry of text.split(/[,\n]/).map((part) => part.trim()).filter(Boolean)) {
        const match = /^(\d+)\s*:\s*(-?\d+(?:\.\d+)?)$/.exec(entry);
        if (match == null) return {error: `"${entry}" is not "token id: bias"`};
        const bias = Number(match[2]);
        if (bias < -100 || bias > 100) return {error: `bias ${bias} is outside -100 to 100`};
        value[match[1]] = bias;
    }
    return {value};
}

/** The inverse of parseLogitBias, for a stored request body. */
export function formatLogitBias(value: unknown): string | undefined {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    return Object.entries(value as Record<string, unknown>).map(([id, bias]) => `${id}: ${String(bias)}`).join(", ");
}
