// The playgrounds' "probabilities" view model: token scores read from chat (`logprobs.content[]`) and legacy
// completions (`tokens`/`token_logprobs`/`top_logprobs`) replies alike, and the sequence's summary numbers.
import type {JsonBody} from "../../../../client/sdk/index.ts";

/**
 * One scored token: its text, log-probability (null when unscored, like echo's first token) and alternatives. `id`
 * is the token id, present only when the server sent one (the local engine's `x_svc.token_ids`; OpenAI's shapes
 * have none), for the readout that builds logit_bias entries.
 */
export type TokenScore = {token: string, logprob: number | null, top: Array<{token: string, logprob: number, id?: number}>, id?: number};

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** `{id}` when `value` is a token id, else nothing, so scores without ids keep their plain shape. */
const idOf = (value: unknown): {id?: number} => (Number.isInteger(value) && (value as number) >= 0 ? {id: value as number} : {});

/** A chat entry's or alternative's local-only `x_svc.token_id`. */
const chatIdOf = (entry: JsonBody) => idOf((entry.x_svc as JsonBody | undefined)?.token_id);

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
                .map((item) => ({token: item.token as string, logprob: item.logprob as number, ...chatIdOf(item)})),
            ...chatIdOf(entry)
        }));
    }
    if (!Array.isArray(body.tokens)) return [];
    const logprobValues = Array.isArray(body.token_logprobs) ? body.token_logprobs : [];
    const tops = Array.isArray(body.top_logprobs) ? body.top_logprobs : [];
    // The legacy shape's ids sit in parallel arrays under `x_svc`, the alternatives' keyed by text as top_logprobs is.
    const ids = (body.x_svc ?? {}) as JsonBody;
    const tokenIds = Array.isArray(ids.token_ids) ? ids.token_ids : [];
    const topIds = Array.isArray(ids.top_token_ids) ? ids.top_token_ids : [];
    return (body.tokens as unknown[]).map((token, index) => {
        const top = tops[index] !== null && typeof tops[index] === "object" ? tops[index] as Record<string, unknown> : {};
        const alternativeIds = topIds[index] !== null && typeof topIds[index] === "object" ? topIds[index] as Record<string, unknown> : {};
        return {
            token: String(token),
            logprob: isNumber(logprobValues[index]) ? logprobValues[index] : null,
            top: Object.entries(top).filter((entry): entry is [string, number] => isNumber(entry[1]))
                .map(([text, logprob]) => ({token: text, logprob, ...idOf(alternativeIds[text])}))
                .sort((a, b) => b.logprob - a.logprob),
            ...idOf(tokenIds[index])
        };
    });
}

/**
 * The request body as sent to the local engine: a request that asks for scores (chat's `logprobs: true`, legacy
 * `logprobs: N`) also asks for their token ids through the local-only `x_svc.token_ids`. Never applied to a remote
 * connection: an OpenAI-format server does not know the extension.
 */
export function withLocalTokenIds(body: JsonBody): JsonBody {
    const scored = body.logprobs === true || typeof body.logprobs === "number";
    return scored && body.x_svc === undefined ? {...body, x_svc: {token_ids: true}} : body;
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

/**
 * The one-click logit_bias entries of the token id readout: -100 bans a token (OpenAI and the local engine alike);
 * +5 makes it markedly likelier without forcing it, which +100 would (every position becomes that token).
 */
export const biasPresets = [{label: "ban", bias: -100}, {label: "favour", bias: 5}] as const;

/**
 * The logit_bias editor's text with `id` set to `bias` (the probabilities view's one-click entries): an entry for
 * the same id is replaced, others are kept in order. Text that cannot be read is kept as typed, the entry appended,
 * so the editor's warning still points at the user's mistake.
 */
export function setLogitBiasEntry(text: string | undefined, id: number, bias: number): string {
    const parsed = parseLogitBias(text ?? "");
    if ("error" in parsed) return `${text}, ${id}: ${bias}`;
    return formatLogitBias({...parsed.value, [String(id)]: bias})!;
}
