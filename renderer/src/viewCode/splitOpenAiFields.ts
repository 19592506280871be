import type {JsonBody} from "../../../client/sdk/index.ts";
import type {Endpoint} from "./types.ts";

// Fields the official openai clients know for each endpoint; anything else (include_reasoning,
// chat_template_kwargs, thinking_token_budget, ...) goes through their pass-through for extra fields.
const known: Record<Endpoint, ReadonlySet<string>> = {
    chat: new Set(["model", "messages", "max_tokens", "max_completion_tokens", "temperature", "top_p", "seed", "stop", "n", "tools",
        "tool_choice", "response_format", "reasoning_effort", "presence_penalty", "frequency_penalty", "stream", "stream_options", "user"]),
    responses: new Set(["model", "input", "instructions", "max_output_tokens", "temperature", "top_p", "stream"]),
    completions: new Set(["model", "prompt", "max_tokens", "temperature", "top_p", "seed", "stop", "n", "presence_penalty",
        "frequency_penalty", "echo", "stream", "stream_options", "user"])
};

/** The body split into fields the openai client types know and extras, each in the body's order. */
export function splitOpenAiFields(endpoint: Endpoint, body: JsonBody): {standard: JsonBody, extra: JsonBody} {
    const standard: JsonBody = {};
    const extra: JsonBody = {};
    for (const [key, value] of Object.entries(body)) (known[endpoint].has(key) ? standard : extra)[key] = value;
    return {standard, extra};
}
