import {fail, optional, readArray, readBoolean, readInteger, readNumber, readObject, readString, type FieldPath, type JsonObject} from "./validation.ts";

/**
 * Most alternatives one token may list (`top_logprobs`, legacy `logprobs: N`). OpenAI stops at 20 (legacy at 5);
 * the local engine reads them from one sorted pass over the vocabulary, so it allows more, up to this stated cap.
 */
export const maxTopLogprobs = 100;

/** Most entries one `logit_bias` map may hold: OpenAI's own cap; each entry is a sampler bias on every token. */
export const maxLogitBiasEntries = 300;

/** `logit_bias`: token id -> bias added to that token's logit, -100 (banned) to 100 (all but forced). */
export type LogitBias = Map<number, number>;

/**
 * The local-only token id of a scored token or alternative (`x_svc.token_id`), sent only when the request's
 * `x_svc.token_ids` asked for it. OpenAI's shapes carry no ids, and an `x_svc` key beside them is ignored by its
 * clients, so replies keep parsing as the official shapes.
 */
export type TokenIdExtension = {x_svc?: {token_id: number}};

/** One scored token in OpenAI's chat shape (`choices[].logprobs.content[]`, Responses `output_text.logprobs[]`). */
export type TokenLogprob = TokenIdExtension & {
    token: string,
    logprob: number,
    bytes: number[],
    top_logprobs: Array<TokenIdExtension & {token: string, logprob: number, bytes: number[]}>
};

export type ChatLogprobs = {content: TokenLogprob[] | null, refusal: null};

/** Legacy completions' `logprobs`: parallel arrays, `null` where a token has no context to be scored from. */
export type LegacyLogprobs = {
    tokens: string[],
    token_logprobs: Array<number | null>,
    top_logprobs: Array<Record<string, number> | null>,
    text_offset: number[],
    /**
     * Local-only token ids when `x_svc.token_ids` asked for them: `token_ids` parallel to `tokens` (the legacy
     * shape has no per-token object to put an id in), `top_token_ids` parallel to `top_logprobs`, keyed alike.
     */
    x_svc?: {token_ids: number[], top_token_ids: Array<Record<string, number> | null>}
};

const readTopCount = (value: unknown, path: FieldPath) => readInteger(value, path, {min: 0, max: maxTopLogprobs});

/**
 * Chat's `logprobs` (boolean) and `top_logprobs` (0 to maxTopLogprobs, only with `logprobs: true`, as OpenAI
 * requires). Returns the number of alternatives per token, or undefined when no logprobs were asked for.
 */
export function readChatLogprobs(body: JsonObject): number | undefined {
    const wanted = optional(body, "logprobs", [], readBoolean) ?? false;
    const top = optional(body, "top_logprobs", [], readTopCount);
    if (top != null && !wanted) fail(["top_logprobs"], "needs logprobs: true");
    return wanted ? top ?? 0 : undefined;
}

/** The Responses `include` entry that asks for the output text's token scores. */
export const outputTextLogprobs = "message.output_text.logprobs";

/**
 * Responses: `include` (strings; only `message.output_text.logprobs` adds anything here, other OpenAI values name
 * stored or hosted-tool data this API does not keep) and `top_logprobs`. Scores are returned only when included.
 */
export function readResponsesLogprobs(body: JsonObject): number | undefined {
    const include = optional(body, "include", [], (value, path) => readArray(value, path).map((item, index) => readString(item, [...path, index])));
    const top = optional(body, "top_logprobs", [], readTopCount);
    return include?.includes(outputTextLogprobs) ? top ?? 0 : undefined;
}

/** Legacy completions' `logprobs: N`: an integer count of alternatives (0 to maxTopLogprobs) that turns scoring on. */
export function readLegacyLogprobs(body: JsonObject): number | undefined {
    return optional(body, "logprobs", [], readTopCount);
}

/**
 * `logit_bias`: an object from token ids (decimal strings, as JSON keys are) to numbers from -100 to 100. Whether
 * an id exists in the loaded model's vocabulary is the engine's check, as only it knows the vocabulary.
 */
export function readLogitBias(body: JsonObject): LogitBias | undefined {
    return optional(body, "logit_bias", [], (value, path) => {
        const object = readObject(value, path);
        const entries = Object.entries(object);
        if (entries.length > maxLogitBiasEntries)
            fail(path, `holds ${entries.length} entries; at most ${maxLogitBiasEntries} are allowed`);
        const bias: LogitBias = new Map();
        for (const [key, item] of entries) {
            if (!/^(0|[1-9][0-9]{0,9})$/.test(key)) fail([...path, key], "must be keyed by a token id (a non-negative integer)");
            bias.set(Number(key), readNumber(item, [...path, key], {min: -100, max: 100}));
        }
        return bias.size > 0 ? bias : undefined;
    });
}

/**
 * The local engine's `x_svc` extension on chat and legacy completions: `token_ids: true` adds each scored token's
 * and alternative's id, which OpenAI's logprobs lack and `logit_bias` is keyed by. Only the app's local connection
 * sends it; a remote OpenAI-format server would refuse or ignore it. Unknown keys are a 400, so a misspelt
 * extension is not silently dropped. Ids need scores to sit beside, so `token_ids` needs logprobs.
 */
export function readTokenIdsExtension(body: JsonObject, scored: boolean, logprobsField: string): boolean {
    const extension = optional(body, "x_svc", [], (value, path) => readObject(value, path));
    if (extension == null) return false;
    for (const key of Object.keys(extension))
        if (key !== "token_ids") fail(["x_svc", key], "is not an extension of this endpoint (known: token_ids)");
    const wanted = optional(extension, "token_ids", ["x_svc"], readBoolean) ?? false;
    if (wanted && !scored) fail(["x_svc", "token_ids"], `needs ${logprobsField}: token ids are given beside token scores`);
    return wanted;
}
