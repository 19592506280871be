import {limits} from "../limits.ts";
import {fail, optional, readBoolean, readInteger, readObject, readString, required, type JsonObject} from "../validation/read.ts";
import {readOutputBudget} from "../validation/readOutputBudget.ts";
import {readSampling} from "../validation/readSampling.ts";
import type {FieldPath} from "../validation/ValidationError.ts";
import {readChatMessages} from "./readChatMessages.ts";
import {readReasoningControls} from "./readReasoningControls.ts";
import {readResponseFormat} from "./readResponseFormat.ts";
import {readToolChoice, readTools} from "./readTools.ts";
import type {ChatCompletionRequest} from "./types.ts";

const maxChoices = 128;

/** Validates a `POST /chat/completions` body against spec 2.1; throws ValidationError with the field's path. */
export function parseChatCompletionRequest(raw: unknown): ChatCompletionRequest {
    const body = readObject(raw, []);
    const model = required(body, "model", [], readString);
    const messages = required(body, "messages", [], readChatMessages);
    const budget = readOutputBudget(body, ["max_completion_tokens", "max_tokens"]);
    const tools = optional(body, "tools", [], readTools);
    const toolChoice = optional(body, "tool_choice", [], (value, path) => readToolChoice(value, path, tools));
    const stream = optional(body, "stream", [], readBoolean) ?? false;
    const streamOptions = optional(body, "stream_options", [], readStreamOptions);
    const responseFormat = optional(body, "response_format", [], readResponseFormat);

    if (streamOptions != null && !stream) fail(["stream_options"], "is only allowed when stream is true");
    if (stream && responseFormat != null && responseFormat.type !== "text")
        fail(["response_format"], "is not supported with stream: this deployment does not support constrained decoding on streaming requests");
    if (stream && toolChoice != null && (toolChoice === "required" || typeof toolChoice === "object"))
        fail(["tool_choice"], "forcing a tool call is not supported on streaming requests; use \"auto\" or send stream: false");

    return {
        model,
        messages,
        maxTokens: budget?.value ?? limits.defaultChatMaxTokens,
        maxTokensExplicit: budget != null,
        maxTokensField: budget?.field ?? "max_tokens",
        n: optional(body, "n", [], (value, path) => readInteger(value, path, {min: 1, max: maxChoices})) ?? 1,
        ...readSampling(body),
        tools,
        tool_choice: toolChoice,
        response_format: responseFormat,
        ...readReasoningControls(body),
        include_reasoning: optional(body, "include_reasoning", [], readBoolean) ?? true,
        stream,
        stream_options: streamOptions,
        user: optional(body, "user", [], readString)
    };
}

function readStreamOptions(value: unknown, path: FieldPath): {include_usage?: boolean} {
    const object: JsonObject = readObject(value, path);
    return {include_usage: optional(object, "include_usage", path, readBoolean)};
}
