import {limits} from "../limits.ts";
import {fail, optional, readArray, readBoolean, readInteger, readObject, readString, required} from "../validation/read.ts";
import {readOutputBudget} from "../validation/readOutputBudget.ts";
import {readSampling} from "../validation/readSampling.ts";
import type {FieldPath} from "../validation/ValidationError.ts";
import type {CompletionRequest} from "./types.ts";

const maxChoices = 128;

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
        ...readSampling(body),
        stream,
        stream_options: streamOptions
    };
}

function readPrompts(value: unknown, path: FieldPath): string[] {
    if (typeof value === "string") return [value];
    const prompts = readArray(value, path).map((item, index) => readString(item, [...path, index]));
    if (prompts.length === 0) fail(path, "must hold at least one prompt");
    return prompts;
}
