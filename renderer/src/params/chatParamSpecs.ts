import {limits} from "../../../protocol/limits.ts";
import type {ParamSpec} from "./types.ts";

// Every request field of spec 2.1 that is a plain value, with the limits the server enforces
// (protocol/validation/readSampling.ts, readOutputBudget.ts, parseChatCompletionRequest.ts).
export const chatParamSpecs: ParamSpec[] = [
    {key: "max_tokens", label: "max_tokens", kind: "integer", path: ["max_tokens"], min: 1, max: limits.contextWindow, group: "Output",
        help: `Output budget. Prompt + budget ≤ ${limits.contextWindow.toLocaleString("en-US")}; default ${limits.defaultChatMaxTokens}.`},
    {key: "max_completion_tokens", label: "max_completion_tokens", kind: "integer", path: ["max_completion_tokens"], min: 1, max: limits.contextWindow, group: "Output",
        help: "Same as max_tokens; wins when both are sent."},
    {key: "n", label: "n", kind: "integer", path: ["n"], min: 1, max: 128, group: "Output", help: "Number of choices."},
    {key: "stop", label: "stop", kind: "stopList", path: ["stop"], max: 4, group: "Output", help: "Up to 4 non-empty stop sequences."},
    {key: "temperature", label: "temperature", kind: "number", path: ["temperature"], min: 0, max: 2, step: 0.05, group: "Sampling", help: "0 suits classification and extraction."},
    {key: "top_p", label: "top_p", kind: "number", path: ["top_p"], min: 0, max: 1, step: 0.01, group: "Sampling", help: "Nucleus sampling."},
    {key: "seed", label: "seed", kind: "integer", path: ["seed"], min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, group: "Sampling",
        help: "Reproducible with temperature 0."},
    {key: "presence_penalty", label: "presence_penalty", kind: "number", path: ["presence_penalty"], min: -2, max: 2, step: 0.1, group: "Sampling", help: "-2 to 2."},
    {key: "frequency_penalty", label: "frequency_penalty", kind: "number", path: ["frequency_penalty"], min: -2, max: 2, step: 0.1, group: "Sampling", help: "-2 to 2."},
    {key: "enable_thinking", label: "enable_thinking", kind: "boolean", path: ["chat_template_kwargs", "enable_thinking"], group: "Reasoning",
        help: "chat_template_kwargs.enable_thinking: the model reasons only when true."},
    {key: "include_reasoning", label: "include_reasoning", kind: "boolean", path: ["include_reasoning"], group: "Reasoning",
        help: "Default true; false makes message.reasoning null."},
    {key: "reasoning_effort", label: "reasoning_effort", kind: "enum", path: ["reasoning_effort"], options: ["low", "medium", "xhigh"], group: "Reasoning",
        help: "Reasoning-by-default variant only; omit for svc-1."},
    {key: "thinking_token_budget", label: "thinking_token_budget", kind: "integer", path: ["thinking_token_budget"], min: 0, group: "Reasoning",
        help: "Caps tokens spent on thinking."},
    {key: "stream", label: "stream", kind: "boolean", path: ["stream"], group: "Streaming", help: "Server-sent events."},
    {key: "include_usage", label: "include_usage", kind: "boolean", path: ["stream_options", "include_usage"], requires: "stream", group: "Streaming",
        help: "stream_options.include_usage: the last chunk carries usage."}
];

/** What a fresh chat playground sends: a small budget suits demos, streaming shows the engine working. */
export const defaultChatParams = {max_tokens: 256, temperature: 0.7, stream: true, include_usage: true};
