import {limits} from "./limits.ts";
import {fail, optional, readArray, readBoolean, readInteger, readObject, readString, required, readOutputBudget, readSampling, type FieldPath, type SamplingParams} from "./validation.ts";
import {readLegacyLogprobs, readLogitBias, type LegacyLogprobs, type LogitBias} from "./logprobs.ts";

/** A legacy `POST /completions` request after validation: prompts as a list, the budget resolved. */
export type CompletionRequest = SamplingParams & {
    model: string,
    prompts: string[],
    maxTokens: number,
    maxTokensExplicit: boolean,
    n: number,
    echo: boolean,
    /** Alternatives per scored token (`logprobs: N`); undefined when the client asked for no scores. */
    topLogprobs?: number,
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
 * on a prompt array (2048 entries); without one a body held 100,000 prompts, each tokenized and generated in turn
 * (issue 13). Exported for the API tests.
 */
export const maxPrompts = 2048;

/**
 * Validates a legacy `POST /completions` body. The spec leaves its fields "not shown", so it takes the OpenAI
 * legacy shape with chat's budget rules (default 2048, positive, must fit the window) for one behaviour everywhere.
 */
export function parseCompletionRequest(raw: unknown): CompletionRequest {
    const body = readObject(raw, []);
    const budget = readOutputBudget(body, ["max_tokens"]);
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
        echo: optional(body, "echo", [], readBoolean) ?? false,
        topLogprobs: readLegacyLogprobs(body),
        logitBias: readLogitBias(body),
        ...readSampling(body),
        stream,
        stream_options: streamOptions
    };
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
