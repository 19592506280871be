import {limits} from "./limits.ts";
import {fail, optional, readArray, readBoolean, readInteger, readObject, readString, required, readOutputBudget, readSampling, type FieldPath, type JsonObject, type SamplingParams} from "./validation.ts";
import {readLegacyLogprobs, readLogitBias, readTokenIdsExtension, type LegacyLogprobs, type LogitBias} from "./logprobs.ts";

/** A legacy `POST /completions` request after validation: prompts as a list, the budget resolved. */
export type CompletionRequest = SamplingParams & {
    model: string,
    prompts: string[],
    /** 0 only when scoring the prompt (`echo` with `logprobs`): nothing is generated. */
    maxTokens: number,
    maxTokensExplicit: boolean,
    n: number,
    echo: boolean,
    /** Alternatives per scored token (`logprobs: N`); undefined when the client asked for no scores. */
    topLogprobs?: number,
    /** Local-only `x_svc.token_ids`: the scores carry token ids (`logprobs.x_svc`). */
    tokenIds: boolean,
    logitBias?: LogitBias,
    stream: boolean,
    stream_options?: {include_usage?: boolean}
};

export type TextCompletion = {
    id: string,
    object: "text_completion",
    created: number,
    model: string,
    choices: Array<{index: number, text: string, finish_reason: "stop" | "length" | null, logprobs: LegacyLogprobs | null}>,
    usage?: CompletionUsage | null
};

const maxChoices = 128;

/**
 * Prompts per legacy request. Spec §4 leaves the body "not shown", so this is the OpenAI legacy format's own cap
 * on a prompt array (2048 entries); without one a body held 100,000 prompts, each tokenized and generated in turn.
 * Exported for the API tests.
 */
export const maxPrompts = 2048;

/**
 * Validates a legacy `POST /completions` body. The spec leaves its fields "not shown", so it takes the OpenAI
 * legacy shape with chat's budget rules (default 2048, positive, must fit the window) for one behaviour everywhere;
 * the one exception is OpenAI's prompt scoring with `max_tokens: 0` (isPromptScoring).
 */
export function parseCompletionRequest(raw: unknown): CompletionRequest {
    const body = readObject(raw, []);
    const echo = optional(body, "echo", [], readBoolean) ?? false;
    const topLogprobs = readLegacyLogprobs(body);
    const scoreOnly = isPromptScoring(body, echo, topLogprobs);
    const budget = scoreOnly ? {value: 0} : readOutputBudget(body, ["max_tokens"]);
    const stream = optional(body, "stream", [], readBoolean) ?? false;
    const streamOptions = optional(body, "stream_options", [], (value, path) => {
        const object = readObject(value, path);
        return {include_usage: optional(object, "include_usage", path, readBoolean)};
    });
    if (streamOptions != null && !stream) fail(["stream_options"], "is only allowed when stream is true");
    return {
        model: required(body, "model", [], readString),
        prompts: required(body, "prompt", [], readPrompts),
        maxTokens: budget?.value ?? limits.defaultChatMaxTokens,
        maxTokensExplicit: budget != null,
        n: optional(body, "n", [], (value, path) => readInteger(value, path, {min: 1, max: maxChoices})) ?? 1,
        echo,
        topLogprobs,
        tokenIds: readTokenIdsExtension(body, topLogprobs != null, "logprobs"),
        logitBias: readLogitBias(body),
        ...readSampling(body),
        stream,
        stream_options: streamOptions
    };
}

/**
 * `max_tokens: 0` with `echo: true` and `logprobs` scores the prompt and generates nothing, as OpenAI's legacy
 * completions allow (the way to score a text). Spec §7 cause 3 refuses a zero budget, but §4 leaves this
 * endpoint's body "not shown", so this one OpenAI case is taken; a zero budget is refused everywhere else, with
 * the way to ask for scoring named.
 */
function isPromptScoring(body: JsonObject, echo: boolean, topLogprobs: number | undefined): boolean {
    if (body.max_tokens !== 0) return false;
    if (!echo || topLogprobs == null)
        fail(["max_tokens"], "must be a positive integer, got 0; 0 is allowed only with echo: true and logprobs, to score the prompt");
    return true;
}

function readPrompts(value: unknown, path: FieldPath): string[] {
    if (typeof value === "string") return [value];
    const items = readArray(value, path);
    if (items.length > maxPrompts) fail(path, `holds ${items.length} prompts; at most ${maxPrompts} are allowed per request, so split them across requests`);
    const prompts = items.map((item, index) => readString(item, [...path, index]));
    if (prompts.length === 0) fail(path, "must hold at least one prompt");
    return prompts;
}

export type CompletionUsage = {
    prompt_tokens: number,
    completion_tokens: number,
    total_tokens: number,
    prompt_tokens_details: {cached_tokens: number},
    /** Output tokens spent thinking (spec 2.3.4: they are part of `completion_tokens`); sent when the model can think. */
    completion_tokens_details?: {reasoning_tokens: number}
};
