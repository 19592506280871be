import type {JsonBody} from "../../../client/sdk/index.ts";
import {chatParamSpecs} from "../params/chatParamSpecs.ts";
import {readParams} from "../params/readParams.ts";
import {newId} from "../utils/newId.ts";
import type {ChatDraft, DraftMessage, DraftRole, ToolCall, ToolChoiceSetting} from "./types.ts";

/** Rebuilds the playground draft from a request body (a history entry being re-opened). */
export function draftFromChatRequest(body: JsonBody): ChatDraft {
    const wire = Array.isArray(body.messages) ? body.messages as JsonBody[] : [];
    // A leading system message is the system prompt field; later ones stay messages.
    const first = wire[0];
    const systemPrompt = first?.role === "system" && typeof first.content === "string" ? first.content : "";
    const messages = (systemPrompt ? wire.slice(1) : wire).map(fromWireMessage);
    const format = body.response_format as JsonBody | undefined;
    return {
        systemPrompt,
        messages,
        params: readParams(chatParamSpecs, body),
        toolsText: Array.isArray(body.tools) ? JSON.stringify(body.tools, null, 2) : "",
        toolChoice: toolChoiceSetting(body.tool_choice),
        responseFormat: {
            mode: format?.type === "json_object" || format?.type === "json_schema" ? format.type : "none",
            schemaText: format?.type === "json_schema" ? JSON.stringify(format.json_schema, null, 2) : defaultSchemaText
        }
    };
}

export const defaultSchemaText = JSON.stringify({
    name: "answer",
    schema: {type: "object", properties: {answer: {type: "string"}}, required: ["answer"]}
}, null, 2);

function fromWireMessage(message: JsonBody): DraftMessage {
    const role = (["system", "user", "assistant", "tool"].includes(String(message.role)) ? message.role : "user") as DraftRole;
    const draft: DraftMessage = {id: newId(), role, content: "", images: []};
    if (typeof message.content === "string") draft.content = message.content;
    else if (Array.isArray(message.content)) {
        const parts = message.content as JsonBody[];
        draft.content = parts.filter((part) => part.type === "text").map((part) => String(part.text ?? "")).join("\n");
        draft.images = parts.filter((part) => part.type === "image_url").map((part, index) => ({
            id: newId(),
            name: `image ${index + 1}`,
            dataUrl: String((part.image_url as JsonBody | undefined)?.url ?? "")
        }));
    }
    if (role === "tool") draft.toolCallId = String(message.tool_call_id ?? "");
    if (role === "assistant" && Array.isArray(message.tool_calls)) draft.toolCalls = message.tool_calls as ToolCall[];
    return draft;
}

function toolChoiceSetting(choice: unknown): ToolChoiceSetting {
    if (choice === "auto" || choice === "none" || choice === "required") return choice;
    const name = (choice as {function?: {name?: unknown}} | undefined)?.function?.name;
    return typeof name === "string" ? `function:${name}` : "";
}
