import type {ChatHistoryItem, ChatModelResponse} from "node-llama-cpp";
import type {ChatContentPart, ChatMessage} from "../../protocol/chat/types.ts";
import {maxSchemaDepth} from "../../protocol/chat/parseChatRequest.ts";
import {jsonDepth} from "../../protocol/validation.ts";

/** Text of a message's content; image parts are refused earlier, so only text parts remain here. */
export function contentText(content: string | ChatContentPart[] | null): string {
    if (content == null) return "";
    if (typeof content === "string") return content;
    return content.map((part) => part.type === "text" ? part.text : "").join("");
}

/**
 * OpenAI-format messages to node-llama-cpp's chat history. Tool calls and their results become function-call
 * items inside the model turn, which is how node-llama-cpp's chat wrappers render them in the model's own format.
 * Ends with an open model turn, the shape LlamaChat continues from.
 */
export function toChatHistory(messages: ChatMessage[]): ChatHistoryItem[] {
    const history: ChatHistoryItem[] = [];
    for (const message of messages) {
        if (message.role === "system") history.push({type: "system", text: contentText(message.content)});
        else if (message.role === "user") history.push({type: "user", text: contentText(message.content)});
        else if (message.role === "assistant") {
            const response: ChatModelResponse["response"] = [];
            const text = contentText(message.content);
            if (text !== "") response.push(text);
            for (const call of message.tool_calls ?? [])
                response.push({type: "functionCall", name: call.function.name, params: parseArguments(call.function.arguments), result: undefined});
            history.push({type: "model", response});
        } else {
            attachToolResult(history, message.tool_call_id, message.content, messages);
        }
    }
    if (history.at(-1)?.type !== "model") history.push({type: "model", response: []});
    return history;
}

/**
 * Deepest tool-call arguments or tool result passed on parsed: node-llama-cpp's chat wrappers render them
 * recursively, and a value 5,000 levels deep overflowed the stack (a 500). The same 128 levels
 * a JSON Schema may have; anything deeper reaches the model as the text the client sent, like text that is not JSON.
 */
const maxParsedDepth = maxSchemaDepth;

function parseArguments(text: string): unknown {
    let value: unknown;
    try {
        value = JSON.parse(text);
    } catch {
        return text;
    }
    return jsonDepth(value, maxParsedDepth) > maxParsedDepth ? text : value;
}

/** A tool message fills the `result` of the matching call in the latest model turn (validated to exist). */
function attachToolResult(history: ChatHistoryItem[], toolCallId: string, content: string, messages: ChatMessage[]) {
    const turn = history.at(-1);
    if (turn?.type !== "model") return;
    const assistant = [...messages].reverse().find((message) => message.role === "assistant" && message.tool_calls?.some((call) => call.id === toolCallId));
    const callIndex = assistant?.role === "assistant" ? (assistant.tool_calls ?? []).findIndex((call) => call.id === toolCallId) : -1;
    const calls = turn.response.filter((item) => typeof item !== "string" && item.type === "functionCall");
    const call = calls[callIndex];
    if (call != null && typeof call !== "string" && call.type === "functionCall") call.result = parseArguments(content);
}
