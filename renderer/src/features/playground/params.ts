// Request parameters of the playgrounds: their specs (limits from the spec), checks, and reading them into and out of a body.
import type {JsonBody} from "../../../../client/sdk/index.ts";
import {limits} from "../../../../protocol/limits.ts";
import {maxTopLogprobs, outputTextLogprobs} from "../../../../protocol/logprobs.ts";
import {formatLogitBias, parseLogitBias} from "./probabilities.ts";

/** A parameter value as the panel holds it; `undefined` means "not sent" (the server's default applies). */
export type ParamValue = number | boolean | string | string[] | undefined;

export type ParamValues = Record<string, ParamValue>;

export type ParamSpec = {
    key: string,
    label: string,
    /**
     * `logitBias`: "token id: bias" pairs as text, sent as the `logit_bias` object. `include`: a boolean in the
     * panel that, when true, adds `includes` to the request's `include` list (Responses).
     */
    kind: "integer" | "number" | "boolean" | "enum" | "stopList" | "logitBias" | "include",
    /** The `include` entry an `include` parameter stands for. */
    includes?: string,
    /** Where the value goes in the request body, e.g. `["chat_template_kwargs", "enable_thinking"]`. */
    path: string[],
    min?: number,
    max?: number,
    step?: number,
    options?: readonly string[],
    /** Sent only while this boolean parameter is true (`stream_options` needs `stream`). */
    requires?: string,
    /** Shown as the field's hint: the rule from the spec. */
    help: string,
    group: "Output" | "Sampling" | "Probabilities" | "Reasoning" | "Streaming"
};

/** The panel's inline warning for a value the server would reject, or null when it is within limits. */
export function checkParam(spec: ParamSpec, value: ParamValue): string | null {
    if (value === undefined) return null;
    if (spec.kind === "integer" || spec.kind === "number") {
        if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
        if (spec.kind === "integer" && !Number.isInteger(value)) return "must be an integer";
        if (spec.min !== undefined && value < spec.min) return `must be at least ${spec.min}`;
        if (spec.max !== undefined && value > spec.max) return `must be at most ${spec.max}`;
        return null;
    }
    if (spec.kind === "stopList") {
        if (!Array.isArray(value)) return "must be a list";
        if (spec.max !== undefined && value.length > spec.max) return `at most ${spec.max} sequences`;
        if (value.some((item) => item.length === 0)) return "sequences must not be empty";
        return null;
    }
    if (spec.kind === "logitBias") {
        const parsed = parseLogitBias(String(value));
        return "error" in parsed ? parsed.error : null;
    }
    if (spec.kind === "enum" && !spec.options?.includes(String(value))) return `must be one of ${spec.options?.join(", ")}`;
    return null;
}

/** `logit_bias`, on chat and legacy completions alike. */
function logitBiasSpec(): ParamSpec {
    return {key: "logit_bias", label: "logit_bias", kind: "logitBias", path: ["logit_bias"], group: "Probabilities",
        help: "token id: bias pairs, comma-separated; -100 bans a token, +100 all but forces it."};
}

// Every request field of spec 2.1 that is a plain value, with the limits the server enforces
// (protocol/validation/readSampling.ts, readOutputBudget.ts, parseChatCompletionRequest.ts). The budgets' bounds and
// help, and seed's help, depend on the connection: the panel shows them through specsForTarget.
/** What temperature and top_p do, the same words in chat and Responses. */
const temperatureHelp = "Randomness of sampling: 0 always takes the most likely token (suits classification and extraction), higher varies the wording.";
const topPHelp = "Nucleus sampling: only the most likely tokens whose probabilities add up to top_p are drawn from.";

export const chatParamSpecs: ParamSpec[] = [
    {key: "max_tokens", label: "max_tokens", kind: "integer", path: ["max_tokens"], min: 1, max: limits.contextWindow, group: "Output",
        help: "Output budget."},
    {key: "max_completion_tokens", label: "max_completion_tokens", kind: "integer", path: ["max_completion_tokens"], min: 1, max: limits.contextWindow, group: "Output",
        help: "Same as max_tokens; wins when both are sent."},
    {key: "n", label: "n", kind: "integer", path: ["n"], min: 1, max: 128, group: "Output", help: "Number of choices."},
    {key: "stop", label: "stop", kind: "stopList", path: ["stop"], max: 4, group: "Output", help: "Up to 4 non-empty stop sequences."},
    {key: "temperature", label: "temperature", kind: "number", path: ["temperature"], min: 0, max: 2, step: 0.05, group: "Sampling", help: temperatureHelp},
    {key: "top_p", label: "top_p", kind: "number", path: ["top_p"], min: 0, max: 1, step: 0.01, group: "Sampling", help: topPHelp},
    {key: "seed", label: "seed", kind: "integer", path: ["seed"], min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, group: "Sampling",
        help: "Sampling seed."},
    {key: "presence_penalty", label: "presence_penalty", kind: "number", path: ["presence_penalty"], min: -2, max: 2, step: 0.1, group: "Sampling", help: "-2 to 2."},
    {key: "frequency_penalty", label: "frequency_penalty", kind: "number", path: ["frequency_penalty"], min: -2, max: 2, step: 0.1, group: "Sampling", help: "-2 to 2."},
    {key: "logprobs", label: "logprobs", kind: "boolean", path: ["logprobs"], group: "Probabilities", help: "Score each output token (the probabilities view)."},
    {key: "top_logprobs", label: "top_logprobs", kind: "integer", path: ["top_logprobs"], min: 0, max: maxTopLogprobs, requires: "logprobs", group: "Probabilities",
        help: `Alternatives per token, 0 to ${maxTopLogprobs} locally (OpenAI: 20).`},
    logitBiasSpec(),
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

/**
 * Where the playground's requests go, as far as the parameters' rules depend on it: the local engine, whose window is
 * the context of the model it loaded (unknown while it is stopped), or the hosted service, whose limits are the spec's.
 */
export type ParamTarget = {kind: "local", contextSize?: number} | {kind: "remote"};

const budgetKeys = new Set(["max_tokens", "max_completion_tokens", "max_output_tokens"]);

/** The window a budget must fit on `target`, with where that number comes from, for the help text. */
function windowOf(target: ParamTarget): {max?: number, text: string} {
    if (target.kind === "remote") return {max: limits.contextWindow, text: `${limits.contextWindow.toLocaleString("en-US")} (the service's window)`};
    if (target.contextSize == null) return {text: "the loaded model's context (known once the engine runs)"};
    return {max: target.contextSize, text: `${target.contextSize.toLocaleString("en-US")} (the loaded model's context)`};
}

/**
 * The specs as they hold on `target`: the output budgets bounded by its window, and the help of the budgets and of
 * `seed` saying what that server does. The local engine fits a default budget into what the prompt leaves, and its
 * seed fixes sampling at any temperature, each choice of `n` on seed + its index (native/engine/LocalEngine.ts
 * toGenerationOptions); the hosted service states its own rules (spec 2.1, 2.4).
 */
export function specsForTarget(specs: readonly ParamSpec[], target: ParamTarget): ParamSpec[] {
    const window = windowOf(target);
    const local = target.kind === "local";
    const defaultBudget = `default ${limits.defaultChatMaxTokens}${local ? ", lowered to what the prompt leaves" : ""}`;
    return specs.map((spec) => {
        if (spec.key === "seed")
            return {...spec, help: local
                ? "The same seed and request give the same output at any temperature on this engine; choice i of n uses seed + i."
                : "Reproducible sampling when combined with temperature 0 (the service's rule)."};
        if (!budgetKeys.has(spec.key)) return spec;
        const help = spec.key === "max_completion_tokens" ? "Same as max_tokens; wins when both are sent."
            : spec.key === "max_output_tokens" ? `Input + budget ≤ ${window.text}. No default: the window left after the input is used.`
                : `Output budget. Prompt + budget ≤ ${window.text}; ${defaultBudget}.`;
        return {...spec, max: window.max, help};
    });
}

/** What a fresh chat playground sends: a small budget suits demos, streaming shows the engine working. */
export const defaultChatParams = {max_tokens: 256, temperature: 0.7, stream: true, include_usage: true};

// The value fields of spec 2.4 (`POST /v1/responses`).
export const responsesParamSpecs: ParamSpec[] = [
    {key: "max_output_tokens", label: "max_output_tokens", kind: "integer", path: ["max_output_tokens"], min: 1, max: limits.contextWindow, group: "Output",
        help: "No default: the window left after the input is used."},
    {key: "temperature", label: "temperature", kind: "number", path: ["temperature"], min: 0, max: 2, step: 0.05, group: "Sampling", help: temperatureHelp},
    {key: "top_p", label: "top_p", kind: "number", path: ["top_p"], min: 0, max: 1, step: 0.01, group: "Sampling", help: topPHelp},
    {key: "logprobs", label: "include logprobs", kind: "include", path: ["include"], includes: outputTextLogprobs, group: "Probabilities",
        help: `include: ["${outputTextLogprobs}"]: score the output text's tokens.`},
    {key: "top_logprobs", label: "top_logprobs", kind: "integer", path: ["top_logprobs"], min: 0, max: maxTopLogprobs, requires: "logprobs", group: "Probabilities",
        help: `Alternatives per token, 0 to ${maxTopLogprobs} locally (OpenAI: 20).`},
    {key: "enable_thinking", label: "enable_thinking", kind: "boolean", path: ["chat_template_kwargs", "enable_thinking"], group: "Reasoning",
        help: "chat_template_kwargs.enable_thinking, as in chat."},
    {key: "stream", label: "stream", kind: "boolean", path: ["stream"], group: "Streaming", help: "Responses events."}
];

export const defaultResponsesParams = {max_output_tokens: 256, stream: true};

// Legacy `POST /completions`: the spec leaves its fields "not shown"; the engine takes the OpenAI legacy
// shape with chat's budget rules (protocol/completions/parseCompletionRequest.ts).
export const completionsParamSpecs: ParamSpec[] = [
    {key: "max_tokens", label: "max_tokens", kind: "integer", path: ["max_tokens"], min: 1, max: limits.contextWindow, group: "Output",
        help: "Output budget."},
    {key: "n", label: "n", kind: "integer", path: ["n"], min: 1, max: 128, group: "Output", help: "Number of choices."},
    {key: "stop", label: "stop", kind: "stopList", path: ["stop"], max: 4, group: "Output", help: "Up to 4 non-empty stop sequences."},
    {key: "echo", label: "echo", kind: "boolean", path: ["echo"], group: "Output", help: "Repeat the prompt before the completion."},
    {key: "temperature", label: "temperature", kind: "number", path: ["temperature"], min: 0, max: 2, step: 0.05, group: "Sampling", help: "0 to 2."},
    {key: "top_p", label: "top_p", kind: "number", path: ["top_p"], min: 0, max: 1, step: 0.01, group: "Sampling", help: "0 to 1."},
    {key: "seed", label: "seed", kind: "integer", path: ["seed"], min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, group: "Sampling", help: "Sampling seed."},
    {key: "presence_penalty", label: "presence_penalty", kind: "number", path: ["presence_penalty"], min: -2, max: 2, step: 0.1, group: "Sampling", help: "-2 to 2."},
    {key: "frequency_penalty", label: "frequency_penalty", kind: "number", path: ["frequency_penalty"], min: -2, max: 2, step: 0.1, group: "Sampling", help: "-2 to 2."},
    {key: "logprobs", label: "logprobs", kind: "integer", path: ["logprobs"], min: 0, max: maxTopLogprobs, group: "Probabilities",
        help: `Score each token with this many alternatives (0 to ${maxTopLogprobs}); with echo the prompt is scored too.`},
    logitBiasSpec(),
    {key: "stream", label: "stream", kind: "boolean", path: ["stream"], group: "Streaming", help: "Server-sent events."},
    {key: "include_usage", label: "include_usage", kind: "boolean", path: ["stream_options", "include_usage"], requires: "stream", group: "Streaming",
        help: "stream_options.include_usage: the last chunk carries usage."}
];

export const defaultCompletionsParams = {max_tokens: 128, temperature: 0.7, stream: true, include_usage: true};

/** The playgrounds, each with its own parameters. */
export type PlaygroundKind = "chat" | "responses" | "completions";

export const paramSpecsFor: Record<PlaygroundKind, ParamSpec[]> = {
    chat: chatParamSpecs,
    responses: responsesParamSpecs,
    completions: completionsParamSpecs
};

/**
 * Writes the set parameters into a request body at their paths. Values are sent as typed, even out of
 * range: the playground exists to see what the server answers, and the panel flags the range itself.
 * `stream: false` is left out (it is the default), and so is anything whose `requires` is not true.
 */
export function applyParams(specs: readonly ParamSpec[], values: ParamValues, body: JsonBody): JsonBody {
    for (const spec of specs) {
        const value = values[spec.key];
        if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
        if (spec.key === "stream" && value === false) continue;
        if (spec.requires && values[spec.requires] !== true) continue;
        if (spec.kind === "include") {
            if (value === true) setAt(body, spec.path, [...readList(getAt(body, spec.path)), spec.includes]);
            continue;
        }
        if (spec.kind === "logitBias") {
            const parsed = parseLogitBias(String(value));
            // Text that does not parse is flagged in the panel and left out, as the server could not read it either.
            if ("value" in parsed && Object.keys(parsed.value).length > 0) setAt(body, spec.path, parsed.value);
            continue;
        }
        setAt(body, spec.path, value);
    }
    return body;
}

function setAt(body: JsonBody, path: string[], value: unknown) {
    let target: Record<string, unknown> = body;
    for (const key of path.slice(0, -1)) {
        const next = target[key];
        if (next === null || typeof next !== "object" || Array.isArray(next)) target[key] = {};
        target = target[key] as Record<string, unknown>;
    }
    target[path[path.length - 1]] = value;
}

/** The inverse of applyParams: the parameter values a stored request body holds (history, re-open). */
export function readParams(specs: readonly ParamSpec[], body: JsonBody): ParamValues {
    const values: ParamValues = {};
    for (const spec of specs) {
        const value = getAt(body, spec.path);
        if (value === undefined || value === null) continue;
        if (spec.kind === "include") values[spec.key] = readList(value).includes(spec.includes ?? "") ? true : undefined;
        else if (spec.kind === "logitBias") values[spec.key] = formatLogitBias(value);
        else if (spec.kind === "stopList") values[spec.key] = typeof value === "string" ? [value] : Array.isArray(value) ? value.map(String) : undefined;
        else if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") values[spec.key] = value;
    }
    if (specs.some((spec) => spec.key === "stream") && values.stream === undefined) values.stream = false;
    return values;
}

const readList = (value: unknown): unknown[] => Array.isArray(value) ? value : [];

function getAt(body: JsonBody, path: string[]): unknown {
    let value: unknown = body;
    for (const key of path) {
        if (value === null || typeof value !== "object") return undefined;
        value = (value as Record<string, unknown>)[key];
    }
    return value;
}
