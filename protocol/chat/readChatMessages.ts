import {fail, optional, readArray, readEnum, readObject, readString, required} from "../validation/read.ts";
import type {FieldPath} from "../validation/ValidationError.ts";
import {readImageDataUrl} from "./readImageDataUrl.ts";
import {readFunctionName} from "./readTools.ts";
import type {ChatContentPart, ChatMessage, ChatToolCall} from "./types.ts";

/** `messages` of spec 2.1, including the rule that tool results follow the assistant message carrying their calls. */
export function readChatMessages(value: unknown, path: FieldPath): ChatMessage[] {
    const items = readArray(value, path);
    if (items.length === 0) fail(path, "must hold at least one message");
    const messages = items.map((item, index) => readChatMessage(item, [...path, index]));
    checkToolResultsFollowTheirCalls(messages, path);
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

function checkToolResultsFollowTheirCalls(messages: ChatMessage[], path: FieldPath) {
    let openCallIds = new Set<string>();
    messages.forEach((message, index) => {
        if (message.role === "tool") {
            if (!openCallIds.has(message.tool_call_id))
                fail([...path, index, "tool_call_id"], `${JSON.stringify(message.tool_call_id)} answers no tool call of the preceding assistant message`);
            openCallIds.delete(message.tool_call_id);
            return;
        }
        openCallIds = new Set(message.role === "assistant" ? (message.tool_calls ?? []).map((call) => call.id) : []);
    });
}
