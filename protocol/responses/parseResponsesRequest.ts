import {checkToolResultsFollowTheirCalls, readFunctionName, readReasoningControls, readToolChoice, readTools, refuseForcedCallOnStream} from "../chat/parseChatRequest.ts";
import {fail, optional, readBoolean, readObject, readString, required, type JsonObject, readOutputBudget, readSampling, ValidationError, type FieldPath} from "../validation.ts";
import type {ResponsesRequest} from "./types.ts";
import {readImageDataUrl} from "../images.ts";
import type {ChatContentPart, ChatMessage} from "../chat/types.ts";
import {readResponsesLogprobs} from "../logprobs.ts";

/** Validates a `POST /v1/responses` body against spec 2.4; throws ValidationError with the field's path. */
export function parseResponsesRequest(raw: unknown): ResponsesRequest {
    const body = readObject(raw, []);
    const model = required(body, "model", [], readString);
    const instructions = optional(body, "instructions", [], readString);
    const input = required(body, "input", [], readResponsesInput);
    const budget = readOutputBudget(body, ["max_output_tokens"]);
    refuseUnsupportedFields(body);
    const {temperature, top_p, seed} = readSampling(body, {withStop: false, withPenalties: false});
    const tools = optional(body, "tools", [], (value, path) => readTools(value, path, {flat: true}));
    const toolChoice = optional(body, "tool_choice", [], (value, path) => readToolChoice(value, path, tools, {flat: true}));
    const stream = optional(body, "stream", [], readBoolean) ?? false;
    refuseForcedCallOnStream(toolChoice, stream);
    return {
        model,
        // "System-level guidance applied ahead of input" (spec 2.4): the first message of the conversation.
        messages: instructions != null ? [{role: "system", content: instructions}, ...input] : input,
        instructions,
        maxOutputTokens: budget?.value,
        temperature,
        top_p,
        seed,
        ...readReasoningControls(body),
        tools,
        tool_choice: toolChoice,
        topLogprobs: readResponsesLogprobs(body),
        stream
    };
}

/**
 * Fields of the wider Responses format that this API does not have: refused with a pointer to what does the job,
 * rather than silently ignored so a client never believes a JSON contract or a stored conversation applied.
 */
function refuseUnsupportedFields(body: JsonObject) {
    if (body.previous_response_id != null)
        fail(["previous_response_id"], "is not supported: requests are self-contained, so send the full input on every call");
    const format = body.text != null ? optional(readObject(body.text, ["text"]), "format", ["text"], readObject) : undefined;
    if (format != null && format.type !== "text")
        fail(["text", "format"], "is not supported: the Responses API has no JSON mode; use response_format on /chat/completions");
    if (body.response_format != null)
        fail(["response_format"], "is not supported: the Responses API has no JSON mode; use it on /chat/completions");
}

// `input` of spec 2.4: a prompt string, or a list of items: messages whose content is a string or an array of
// Responses parts, and, for tool calling (2.5), the model's `function_call` items and the client's
// `function_call_output` items answering them.
// `input` is a union, and a value that fits none of its shapes is refused the way a schema validator refuses a
// union: one error per shape checked, each saying which shape did not match, none naming a missing field
// (so the chat spellings `text` and `image_url: {url}`, and an `input_image` without `detail`, all read alike).

type Role = "system" | "user" | "assistant";
type PartShape = "input_text" | "input_image" | "output_text";

/**
 * `developer` is the newer OpenAI spelling of `system`; clients built on the openai package send it. A Map, as
 * the role is the client's string: a plain object would find "toString" or "constructor" on Object.prototype.
 */
const roleOf = new Map<string, Role>([["system", "system"], ["developer", "system"], ["user", "user"], ["assistant", "assistant"]]);

/** The part shapes each role may hold, in the order they are checked. */
const shapesOf: Record<Role, PartShape[]> = {
    system: ["input_text"],
    user: ["input_text", "input_image"],
    // An assistant turn sent back from an earlier response holds `output_text` parts.
    assistant: ["output_text", "input_text"]
};

const imageDetails = ["auto", "low", "high"];

const itemShapes = ["message", "function_call", "function_call_output"] as const;

type Problem = {path: FieldPath, message: string};

/**
 * Reads `input` at `path` into chat messages (a string is one user message). Consecutive `function_call` items
 * are the tool calls of one assistant message (with the text of an assistant message right before them), and
 * each `function_call_output` is a tool message, which must answer a call of the calls just before it.
 */
export function readResponsesInput(value: unknown, path: FieldPath): ChatMessage[] {
    const stringShape: Problem = {path, message: "does not match the string input shape"};
    if (typeof value === "string") return [{role: "user", content: value}];
    if (!Array.isArray(value)) throw unionError([stringShape, {path, message: "does not match the message list shape"}]);
    if (value.length === 0) fail(path, "must hold at least one message");
    const messages: ChatMessage[] = [];
    const itemOf: number[] = [];
    value.forEach((item, index) => {
        const message = readItem(item, [...path, index], stringShape);
        const last = messages.at(-1);
        if (message.role === "assistant" && message.tool_calls != null && last?.role === "assistant")
            last.tool_calls = [...last.tool_calls ?? [], ...message.tool_calls];
        else {
            messages.push(message);
            itemOf.push(index);
        }
    });
    checkToolResultsFollowTheirCalls(messages, (index) => [...path, itemOf[index], "call_id"]);
    return messages;
}

function readItem(value: unknown, path: FieldPath, stringShape: Problem): ChatMessage {
    const item = asObject(value);
    const read = item == null ? undefined : readMessage(item, path, stringShape) ?? readFunctionCall(item, path) ?? readFunctionCallOutput(item, path, stringShape);
    if (read == null) throw unionError([stringShape, ...itemShapes.map((shape) => ({path, message: `does not match the ${shape} item shape`}))]);
    return read;
}

/** A message item, or undefined when the item does not have the message shape. */
function readMessage(message: JsonObject, path: FieldPath, stringShape: Problem): ChatMessage | undefined {
    const role = typeof message.role === "string" ? roleOf.get(message.role) : undefined;
    const content = message.content;
    const fits = (message.type === undefined || message.type === "message") && role != null &&
        (typeof content === "string" || Array.isArray(content));
    if (!fits) return undefined;

    const messageRole = role!;
    if (typeof content === "string") return {role: messageRole, content};
    const parts = (content as unknown[]).map((part, index) => readPart(part, [...path, "content", index], shapesOf[messageRole], stringShape));
    // Only user turns may hold images; the other roles keep their text as one string.
    if (messageRole === "user") return {role: messageRole, content: parts};
    return {role: messageRole, content: textOf(parts)};
}

/** A `function_call` item (a call from an earlier response: `id` and `status` are not needed) as an assistant tool call. */
function readFunctionCall(item: JsonObject, path: FieldPath): ChatMessage | undefined {
    const {type, call_id: id, name, arguments: args} = item;
    if (type !== "function_call" || typeof id !== "string" || typeof name !== "string" || typeof args !== "string") return undefined;
    readFunctionName(name, [...path, "name"]);
    return {role: "assistant", content: null, tool_calls: [{id, type: "function", function: {name, arguments: args}}]};
}

/** A `function_call_output` item as a tool message; its `output` is a string or `input_text` parts. */
function readFunctionCallOutput(item: JsonObject, path: FieldPath, stringShape: Problem): ChatMessage | undefined {
    const {type, call_id: id, output} = item;
    if (type !== "function_call_output" || typeof id !== "string" || (typeof output !== "string" && !Array.isArray(output))) return undefined;
    const content = typeof output === "string"
        ? output
        : textOf(output.map((part, index) => readPart(part, [...path, "output", index], ["input_text"], stringShape)));
    return {role: "tool", tool_call_id: id, content};
}

function textOf(parts: ChatContentPart[]): string {
    return parts.map((part) => part.type === "text" ? part.text : "").join("");
}

function readPart(value: unknown, path: FieldPath, shapes: PartShape[], stringShape: Problem): ChatContentPart {
    const part = asObject(value);
    for (const shape of shapes) {
        const read = part != null ? readShape(part, shape, path) : undefined;
        if (read != null) return read;
    }
    throw unionError([stringShape, ...shapes.map((shape) => ({path, message: `does not match the ${shape} part shape`}))]);
}

/** The part read as `shape`, or undefined when it does not have that shape. */
function readShape(part: JsonObject, shape: PartShape, path: FieldPath): ChatContentPart | undefined {
    if (part.type !== shape) return undefined;
    if (shape !== "input_image") return typeof part.text === "string" ? {type: "text", text: part.text} : undefined;
    if (typeof part.image_url !== "string" || typeof part.detail !== "string" || !imageDetails.includes(part.detail)) return undefined;
    // The shape fits; the URL itself must still be an inline image (a specific error, not a shape mismatch).
    readImageDataUrl(part.image_url, [...path, "image_url"]);
    return {type: "image_url", image_url: {url: part.image_url, detail: part.detail}};
}

function asObject(value: unknown): JsonObject | undefined {
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value as JsonObject : undefined;
}

function unionError(problems: Problem[]): ValidationError {
    return new ValidationError(problems[0].path, problems[0].message, {problems});
}
