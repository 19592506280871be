import {limits} from "../../../protocol/limits.ts";
import type {ParamSpec} from "./types.ts";

// Legacy `POST /completions`: the spec leaves its fields "not shown"; the engine takes the OpenAI legacy
// shape with chat's budget rules (protocol/completions/parseCompletionRequest.ts).
export const completionsParamSpecs: ParamSpec[] = [
    {key: "max_tokens", label: "max_tokens", kind: "integer", path: ["max_tokens"], min: 1, max: limits.contextWindow, group: "Output",
        help: `Default ${limits.defaultChatMaxTokens}; prompt + budget must fit the window.`},
    {key: "n", label: "n", kind: "integer", path: ["n"], min: 1, max: 128, group: "Output", help: "Number of choices."},
    {key: "stop", label: "stop", kind: "stopList", path: ["stop"], max: 4, group: "Output", help: "Up to 4 non-empty stop sequences."},
    {key: "echo", label: "echo", kind: "boolean", path: ["echo"], group: "Output", help: "Repeat the prompt before the completion."},
    {key: "temperature", label: "temperature", kind: "number", path: ["temperature"], min: 0, max: 2, step: 0.05, group: "Sampling", help: "0 to 2."},
    {key: "top_p", label: "top_p", kind: "number", path: ["top_p"], min: 0, max: 1, step: 0.01, group: "Sampling", help: "0 to 1."},
    {key: "seed", label: "seed", kind: "integer", path: ["seed"], min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, group: "Sampling", help: "Reproducible with temperature 0."},
    {key: "presence_penalty", label: "presence_penalty", kind: "number", path: ["presence_penalty"], min: -2, max: 2, step: 0.1, group: "Sampling", help: "-2 to 2."},
    {key: "frequency_penalty", label: "frequency_penalty", kind: "number", path: ["frequency_penalty"], min: -2, max: 2, step: 0.1, group: "Sampling", help: "-2 to 2."},
    {key: "stream", label: "stream", kind: "boolean", path: ["stream"], group: "Streaming", help: "Server-sent events."},
    {key: "include_usage", label: "include_usage", kind: "boolean", path: ["stream_options", "include_usage"], requires: "stream", group: "Streaming",
        help: "stream_options.include_usage: the last chunk carries usage."}
];

export const defaultCompletionsParams = {max_tokens: 128, temperature: 0.7, stream: true, include_usage: true};
