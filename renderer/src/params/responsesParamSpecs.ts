import {limits} from "../../../protocol/limits.ts";
import type {ParamSpec} from "./types.ts";

// The value fields of spec 2.4 (`POST /v1/responses`).
export const responsesParamSpecs: ParamSpec[] = [
    {key: "max_output_tokens", label: "max_output_tokens", kind: "integer", path: ["max_output_tokens"], min: 1, max: limits.contextWindow, group: "Output",
        help: "No default: the window left after the input is used."},
    {key: "temperature", label: "temperature", kind: "number", path: ["temperature"], min: 0, max: 2, step: 0.05, group: "Sampling", help: "As in chat."},
    {key: "top_p", label: "top_p", kind: "number", path: ["top_p"], min: 0, max: 1, step: 0.01, group: "Sampling", help: "As in chat."},
    {key: "enable_thinking", label: "enable_thinking", kind: "boolean", path: ["chat_template_kwargs", "enable_thinking"], group: "Reasoning",
        help: "chat_template_kwargs.enable_thinking, as in chat."},
    {key: "stream", label: "stream", kind: "boolean", path: ["stream"], group: "Streaming", help: "Responses events."}
];

export const defaultResponsesParams = {max_output_tokens: 256, stream: true};
