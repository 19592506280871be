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

/** One scored token in OpenAI's chat shape (`choices[].logprobs.content[]`, Responses `output_text.logprobs[]`). */
export type TokenLogprob = {token: string, logprob: number, bytes: number[], top_logprobs: Array<{token: string, logprob: number, bytes: number[]}>};

export type ChatLogprobs = {content: TokenLogprob[] | null, refusal: null};

/** Legacy completions' `logprobs`: parallel arrays, `null` where a token has no context to be scored from. */
export type LegacyLogprobs = {
    tokens: string[],
    token_logprobs: Array<number | null>,
    top_logprobs: Array<Record<string, number> | null>,
    text_offset: number[]
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
