import type {JsonBody} from "../../../client/sdk/index.ts";
import {modelIds} from "../../../protocol/limits.ts";
import {applyParams} from "../params/applyParams.ts";
import {chatParamSpecs} from "../params/chatParamSpecs.ts";
import {parseResponseFormat} from "./parseResponseFormat.ts";
import {parseToolsText} from "./parseToolsText.ts";
import type {ChatDraft, DraftMessage} from "./types.ts";

export type ChatRequestBuild = {
    body: JsonBody,
    /** Problems that stop a run: JSON the server could not read. The body leaves those fields out. */
    errors: {tools?: string, tool_choice?: string, response_format?: string}
};

/** The `POST /chat/completions` body (spec 2.1) for the playground's current draft. */
export function buildChatRequest(draft: ChatDraft): ChatRequestBuild {
    const errors: ChatRequestBuild["errors"] = {};
    const messages: JsonBody[] = [];
    if (draft.systemPrompt.trim()) messages.push({role: "system", content: draft.systemPrompt});
    for (const message of draft.messages) messages.push(toWireMessage(message));
    const body: JsonBody = {model: modelIds.chat, messages};
    applyParams(chatParamSpecs, draft.params, body);

    const tools = parseToolsText(draft.toolsText);
    if (tools.error) errors.tools = tools.error;
    else if (tools.tools && tools.tools.length > 0) body.tools = JSON.parse(draft.toolsText);

    if (draft.toolChoice.startsWith("function:")) {
        const name = draft.toolChoice.slice("function:".length);
        if (!tools.tools?.some((tool) => tool.function.name === name)) errors.tool_choice = `tool_choice names ${JSON.stringify(name)}, which is not in tools`;
        body.tool_choice = {type: "function", function: {name}};
    } else if (draft.toolChoice) body.tool_choice = draft.toolChoice;

    const format = parseResponseFormat(draft.responseFormat);
    if (format.error) errors.response_format = format.error;
    else if (format.value) body.response_format = format.value;
    return {body, errors};
}

function toWireMessage(message: DraftMessage): JsonBody {
    if (message.role === "tool") return {role: "tool", tool_call_id: message.toolCallId ?? "", content: message.content};
    const content = message.images.length === 0
        ? message.content
        : [
            ...(message.content ? [{type: "text", text: message.content}] : []),
            ...message.images.map((image) => ({type: "image_url", image_url: {url: image.dataUrl}}))
        ];
    if (message.role === "assistant" && message.toolCalls && message.toolCalls.length > 0)
        return {role: "assistant", content: message.content === "" && message.images.length === 0 ? null : content, tool_calls: message.toolCalls};
    return {role: message.role, content};
}
