import {limits} from "../limits.ts";
import {fail, quoteValue, checkJsonDepth, optional, readBoolean, readInteger, readObject, readString, required, type JsonObject, readOutputBudget, readSampling, type FieldPath, readArray, readEnum} from "../validation.ts";
import type {ChatCompletionRequest, ChatContentPart, ChatMessage, ChatToolCall, ReasoningEffort, ResponseFormat, ChatTool, ChatToolChoice} from "./types.ts";
import {readImageDataUrl} from "../images.ts";
import {readChatLogprobs, readLogitBias, readTokenIdsExtension} from "../logprobs.ts";

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
    refuseFormatOnStream(responseFormat, stream);
    refuseForcedCallOnStream(toolChoice, stream);
    const topLogprobs = readChatLogprobs(body);

    return {
        model,
        messages,
        maxTokens: budget?.value ?? limits.defaultChatMaxTokens,
        maxTokensExplicit: budget != null,
        maxTokensField: budget?.field ?? "max_tokens",
        n: optional(body, "n", [], (value, path) => readInteger(value, path, {min: 1, max: maxChoices})) ?? 1,
        ...readSampling(body),
        topLogprobs,
        tokenIds: readTokenIdsExtension(body, topLogprobs != null, "logprobs: true"),
        logitBias: readLogitBias(body),
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

/** `messages` of spec 2.1, including the rule that tool results follow the assistant message carrying their calls. */
export function readChatMessages(value: unknown, path: FieldPath): ChatMessage[] {
    const items = readArray(value, path);
    if (items.length === 0) fail(path, "must hold at least one message");
    const messages = items.map((item, index) => readChatMessage(item, [...path, index]));
    checkToolResultsFollowTheirCalls(messages, (index) => [...path, index, "tool_call_id"]);
    return messages;
}

function readChatMessage(value: unknown, path: FieldPath): ChatMessage {
    const message = readObject(value, path);
    const role = required(message, "role", path, (item, itemPath) => readEnum(item, itemPath, ["system", "developer", "user", "assistant", "tool"] as const));
    switch (role) {
        case "system":
        case "developer":
            // `developer` is the newer OpenAI spelling of `system`; clients built on the openai package send it.
            return {role: "system", content: required(message, "content", path, readContent)};
        case "user":
            return {role: "user", content: required(message, "content", path, readContent)};
        case "tool":
            return {
                role: "tool",
                tool_call_id: required(message, "tool_call_id", path, readString),
                content: required(message, "content", path, readToolContent)
            };
        case "assistant": {
            const toolCalls = optional(message, "tool_calls", path, readToolCalls);
            const content = toolCalls != null && toolCalls.length > 0
                ? optional(message, "content", path, readContent) ?? null
                : required(message, "content", path, readContent);
            return {role: "assistant", content, ...(toolCalls != null ? {tool_calls: toolCalls} : {})};
        }
    }
}

function readContent(value: unknown, path: FieldPath): string | ChatContentPart[] {
    if (typeof value === "string") return value;
    return readArray(value, path).map((item, index) => readContentPart(item, [...path, index]));
}

/** Tool results are strings per spec 2.1; text parts are joined so OpenAI clients that send parts still work. */
function readToolContent(value: unknown, path: FieldPath): string {
    if (typeof value === "string") return value;
    return readArray(value, path).map((item, index) => {
        const part = readContentPart(item, [...path, index]);
        if (part.type !== "text") fail([...path, index], "tool results hold text only");
        return part.text;
    }).join("");
}

function readContentPart(value: unknown, path: FieldPath): ChatContentPart {
    const part = readObject(value, path);
    const type = required(part, "type", path, (item, itemPath) => readEnum(item, itemPath, ["text", "image_url"] as const));
    if (type === "text") return {type, text: required(part, "text", path, readString)};
    const image = required(part, "image_url", path, readObject);
    const url = required(image, "url", [...path, "image_url"], readString);
    readImageDataUrl(url, [...path, "image_url", "url"]);
    return {type, image_url: {url, detail: optional(image, "detail", [...path, "image_url"], readString)}};
}

function readToolCalls(value: unknown, path: FieldPath): ChatToolCall[] {
    return readArray(value, path).map((item, index) => {
        const itemPath = [...path, index];
        const call = readObject(item, itemPath);
        required(call, "type", itemPath, (type, typePath) => readEnum(type, typePath, ["function"] as const));
        const fn = required(call, "function", itemPath, readObject);
        const fnPath = [...itemPath, "function"];
        return {
            id: required(call, "id", itemPath, readString),
            type: "function",
            function: {name: required(fn, "name", fnPath, readFunctionName), arguments: required(fn, "arguments", fnPath, readString)}
        };
    });
}

/** Spec 2.5.4: a tool result follows the assistant message carrying its call; `idPath` locates message `index`'s id. */
export function checkToolResultsFollowTheirCalls(messages: ChatMessage[], idPath: (index: number) => FieldPath) {
    let openCallIds = new Set<string>();
    messages.forEach((message, index) => {
        if (message.role === "tool") {
            if (!openCallIds.has(message.tool_call_id))
                fail(idPath(index), `${quoteValue(message.tool_call_id)} answers no tool call of the preceding assistant message`);
            openCallIds.delete(message.tool_call_id);
            return;
        }
        openCallIds = new Set(message.role === "assistant" ? (message.tool_calls ?? []).map((call) => call.id) : []);
    });
}

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

/**
 * Nesting levels a JSON Schema (`response_format`, a tool's `parameters`) may have. The engine's schema compiler
 * (ajv 8.20) and grammar builder recurse per level: ajv overflowed the stack at 500 nested `properties` (1,001
 * levels) and took 0.37 s at 300; 128 levels (64 nested object schemas) leaves both far from that edge, where
 * structured-output services allow 5 to 10 nested objects.
 */
export const maxSchemaDepth = 128;

const readSchema = (value: unknown, path: FieldPath): JsonObject => {
    const schema = readObject(value, path);
    checkJsonDepth(schema, path, maxSchemaDepth);
    return schema;
};

/** `response_format` of spec 2.7; the schema's validity as JSON Schema is checked by the engine before generation. */
export function readResponseFormat(value: unknown, path: FieldPath): ResponseFormat {
    const object = readObject(value, path);
    const type = required(object, "type", path, (item, itemPath) => readEnum(item, itemPath, ["text", "json_object", "json_schema"] as const));
    if (type !== "json_schema") return {type};
    const jsonSchema = required(object, "json_schema", path, readObject);
    const schemaPath = [...path, "json_schema"];
    const name = required(jsonSchema, "name", schemaPath, readString);
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) fail([...schemaPath, "name"], "must be 1-64 characters of a-z, A-Z, 0-9, underscores and dashes");
    return {
        type,
        json_schema: {
            name,
            description: optional(jsonSchema, "description", schemaPath, readString),
            schema: optional(jsonSchema, "schema", schemaPath, readSchema),
            strict: optional(jsonSchema, "strict", schemaPath, readBoolean)
        }
    };
}

const functionNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

export function readFunctionName(value: unknown, path: FieldPath): string {
    const name = readString(value, path);
    if (!functionNamePattern.test(name)) fail(path, "must be 1-64 characters of a-z, A-Z, 0-9, underscores and dashes");
    return name;
}

/**
 * `tools` of spec 2.1: function definitions with unique names and a JSON Schema object for `parameters`. Chat
 * nests a definition under `function`; the Responses format (`flat`) has its fields on the tool itself.
 */
export function readTools(value: unknown, path: FieldPath, {flat = false} = {}): ChatTool[] {
    const seen = new Set<string>();
    return readArray(value, path).map((item, index) => {
        const itemPath = [...path, index];
        const tool = readObject(item, itemPath);
        required(tool, "type", itemPath, (type, typePath) => readEnum(type, typePath, ["function"] as const));
        const fn = flat ? tool : required(tool, "function", itemPath, readObject);
        const fnPath = flat ? itemPath : [...itemPath, "function"];
        const name = required(fn, "name", fnPath, readFunctionName);
        if (seen.has(name)) fail([...fnPath, "name"], `duplicates the function name ${JSON.stringify(name)}`);
        seen.add(name);
        // Accepted, not needed: a call's arguments are generated under the schema's grammar either way.
        const strict = optional(fn, "strict", fnPath, readBoolean);
        return {
            type: "function",
            function: {
                name,
                description: optional(fn, "description", fnPath, readString),
                parameters: optional(fn, "parameters", fnPath, readSchema),
                ...(strict != null ? {strict} : {})
            }
        };
    });
}

/**
 * `tool_choice` of spec 2.5; `required` and named choices need the tools they point at. A named choice is
 * `{type: function, function: {name}}` in chat and `{type: function, name}` in the Responses format (`flat`).
 */
export function readToolChoice(value: unknown, path: FieldPath, tools: ChatTool[] | undefined, {flat = false} = {}): ChatToolChoice {
    if (typeof value === "string") {
        const choice = readEnum(value, path, ["auto", "none", "required"] as const);
        if (choice === "required" && (tools == null || tools.length === 0)) fail(path, "\"required\" needs at least one tool in tools");
        return choice;
    }
    const object = readObject(value, path);
    required(object, "type", path, (type, typePath) => readEnum(type, typePath, ["function"] as const));
    const fn = flat ? object : required(object, "function", path, readObject);
    const fnPath = flat ? path : [...path, "function"];
    const name = required(fn, "name", fnPath, readFunctionName);
    if (!tools?.some((tool) => tool.function.name === name))
        fail([...fnPath, "name"], `names no function in tools: ${JSON.stringify(name)}`);
    return {type: "function", function: {name}};
}

/** Spec 2.7 and §7 cause 5: JSON mode (`json_object`, `json_schema`) is for non-streaming requests only. */
export function refuseFormatOnStream(responseFormat: {type: string} | undefined, stream: boolean) {
    if (stream && responseFormat != null && responseFormat.type !== "text")
        fail(["response_format"], "is not supported with stream: this deployment does not support constrained decoding on streaming requests");
}

/** Spec 2.5.2 and 6.2: forcing a call (`required` or a named function) is for non-streaming requests only. */
export function refuseForcedCallOnStream(toolChoice: ChatToolChoice | undefined, stream: boolean) {
    if (stream && (toolChoice === "required" || typeof toolChoice === "object"))
        fail(["tool_choice"], "forcing a tool call is not supported on streaming requests; use \"auto\" or send stream: false");
}

/**
 * Id of the variant of `svc-1` that reasons by default (spec 1 and 9.2 leave the hosted id unshown). The local
 * engine serves it beside `svc-1` when the loaded model's chat template can think.
 */
export const reasoningModelId = "svc-1-reasoning";
