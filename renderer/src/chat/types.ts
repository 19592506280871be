import type {ParamValues} from "../params/types.ts";

export type DraftImage = {id: string, name: string, dataUrl: string};

export type ToolCall = {id: string, type: "function", function: {name: string, arguments: string}};

export type DraftRole = "system" | "user" | "assistant" | "tool";

/** One message as the playground edits it; buildChatRequest turns it into the wire shape of spec 2.1. */
export type DraftMessage = {
    id: string,
    role: DraftRole,
    content: string,
    images: DraftImage[],
    /** `tool` messages: the call this result answers. */
    toolCallId?: string,
    /** `assistant` messages: the calls the model made (kept when a tool-call reply is answered). */
    toolCalls?: ToolCall[]
};

/** `tool_choice` as the panel holds it: "" is not sent, `function:<name>` names one function. */
export type ToolChoiceSetting = "" | "auto" | "none" | "required" | `function:${string}`;

export type ResponseFormatSetting = {mode: "none" | "json_object" | "json_schema", schemaText: string};

export type ChatDraft = {
    systemPrompt: string,
    messages: DraftMessage[],
    params: ParamValues,
    /** The tools array as JSON text (Monaco); empty text sends no tools. */
    toolsText: string,
    toolChoice: ToolChoiceSetting,
    responseFormat: ResponseFormatSetting
};
