import {optional, readBoolean, readEnum, readInteger, readObject, type JsonObject} from "../validation/read.ts";
import type {FieldPath} from "../validation/ValidationError.ts";
import type {ChatCompletionRequest, ReasoningEffort} from "./types.ts";

const readEffort = (value: unknown, path: FieldPath): ReasoningEffort => readEnum(value, path, ["low", "medium", "xhigh"] as const);

/** The reasoning fields of spec 2.1/2.6, shared by chat and Responses. Which model accepts effort is the engine's call. */
export function readReasoningControls(body: JsonObject): Pick<ChatCompletionRequest, "chat_template_kwargs" | "reasoning_effort" | "thinking_token_budget"> {
    const kwargs = optional(body, "chat_template_kwargs", [], (value, path) => {
        const object = readObject(value, path);
        return {
            ...object,
            enable_thinking: optional(object, "enable_thinking", path, readBoolean),
            reasoning_effort: optional(object, "reasoning_effort", path, readEffort)
        };
    });
    return {
        chat_template_kwargs: kwargs,
        reasoning_effort: optional(body, "reasoning_effort", [], readEffort),
        thinking_token_budget: optional(body, "thinking_token_budget", [], (value, path) => readInteger(value, path, {min: 0}))
    };
}
