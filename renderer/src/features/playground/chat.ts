// The chat playground's model: the draft, the request it builds (and reads back), and the reply as it streams in.
import type {JsonBody} from "../../../../client/sdk/index.ts";
import {readTools, readResponseFormat, refuseForcedCallOnStream, refuseFormatOnStream} from "../../../../protocol/chat/parseChatRequest.ts";
import type {ChatTool, ChatToolChoice} from "../../../../protocol/chat/types.ts";
import {modelIds} from "../../../../protocol/limits.ts";
import {newId} from "../../ui/browser.ts";
import type {DraftImage} from "../../ui/images.tsx";
import {type ParamValues, applyParams, chatParamSpecs, readParams} from "./params.ts";
import {readTokenScores, type TokenScore} from "./probabilities.ts";

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

export type ChoiceState = {
    index: number,
    content: string,
    /** Separated reasoning (spec 2.6); null when the server sent `reasoning: null` (include_reasoning false). */
    reasoning: string | null,
    toolCalls: ToolCall[],
    finishReason: string | null,
    /** Token scores, when the request asked for logprobs and the server returned them (the probabilities view). */
    tokens?: TokenScore[]
};

export type Usage = Record<string, unknown>;

/** A chat or legacy completion reply, the same shape whether it was streamed or not. */
export type ChatReply = {
    id?: string,
    model?: string,
    choices: ChoiceState[],
    usage?: Usage,
    /** Chunks received (streams only); shows the stream is alive. */
    chunks: number
};

export const emptyReply = (): ChatReply => ({choices: [], chunks: 0});

/**
 * The part chat and legacy completion streams share: each `choices[]` entry updates the choice of its index
 * (created on first sight) through `applyChoice`, `finish_reason` is kept, and the chunk's id, model and usage
 * fill the reply. Returns a new reply; the input is not changed.
 */
export function foldStreamChunk(reply: ChatReply, chunk: JsonBody, applyChoice: (choice: ChoiceState, raw: JsonBody) => ChoiceState): ChatReply {
    const choices = reply.choices.slice();
    for (const raw of Array.isArray(chunk.choices) ? chunk.choices as JsonBody[] : []) {
        const index = typeof raw.index === "number" ? raw.index : 0;
        const position = choices.findIndex((choice) => choice.index === index);
        const current: ChoiceState = position >= 0 ? choices[position] : {index, content: "", reasoning: "", toolCalls: [], finishReason: null};
        const next = applyChoice(current, raw);
        if (typeof raw.finish_reason === "string") next.finishReason = raw.finish_reason;
        const scores = readTokenScores(raw.logprobs);
        if (scores.length > 0) next.tokens = [...(current.tokens ?? []), ...scores];
        if (position >= 0) choices[position] = next;
        else choices.push(next);
    }
    choices.sort((a, b) => a.index - b.index);
    return {
        id: reply.id ?? (typeof chunk.id === "string" ? chunk.id : undefined),
        model: reply.model ?? (typeof chunk.model === "string" ? chunk.model : undefined),
        choices,
        usage: chunk.usage && typeof chunk.usage === "object" ? chunk.usage as JsonBody : reply.usage,
        chunks: reply.chunks + 1
    };
}

type ToolCallDelta = {index?: number, id?: string, type?: string, function?: {name?: string, arguments?: string}};

/**
 * Folds one chat stream chunk (spec 6.1) into the reply: content and reasoning deltas are appended per
 * choice, tool-call fragments are joined by their index, and a chunk with `usage` (the last one when
 * `include_usage` is on) sets the usage. Returns a new reply; the input is not changed.
 */
export function applyChatChunk(reply: ChatReply, chunk: JsonBody): ChatReply {
    return foldStreamChunk(reply, chunk, (choice, raw) => applyDelta(choice, (raw.delta ?? {}) as JsonBody));
}

function applyDelta(choice: ChoiceState, delta: JsonBody): ChoiceState {
    const next: ChoiceState = {...choice, toolCalls: choice.toolCalls.slice()};
    if (typeof delta.content === "string") next.content += delta.content;
    if (typeof delta.reasoning === "string") next.reasoning = (next.reasoning ?? "") + delta.reasoning;
    else if (delta.reasoning === null && next.reasoning === "") next.reasoning = null;
    if (Array.isArray(delta.tool_calls)) for (const fragment of delta.tool_calls as ToolCallDelta[]) joinToolCall(next, fragment);
    return next;
}

function joinToolCall(choice: ChoiceState, fragment: ToolCallDelta) {
    const index = fragment.index ?? choice.toolCalls.length;
    const existing = choice.toolCalls[index];
    const call = existing
        ? {...existing, function: {...existing.function}}
        : {id: "", type: "function" as const, function: {name: "", arguments: ""}};
    if (fragment.id) call.id = fragment.id;
    if (fragment.function?.name) call.function.name += fragment.function.name;
    if (fragment.function?.arguments) call.function.arguments += fragment.function.arguments;
    choice.toolCalls[index] = call;
}

/** A non-streamed chat completion (spec 2.2) in the reply shape the playground shows. */
export function replyFromCompletion(completion: JsonBody): ChatReply {
    const choices = (Array.isArray(completion.choices) ? completion.choices as JsonBody[] : []).map((choice, position): ChoiceState => {
        const message = (choice.message ?? {}) as JsonBody;
        const tokens = readTokenScores(choice.logprobs);
        return {
            index: typeof choice.index === "number" ? choice.index : position,
            content: typeof message.content === "string" ? message.content : "",
            reasoning: message.reasoning === null ? null : typeof message.reasoning === "string" ? message.reasoning : "",
            toolCalls: Array.isArray(message.tool_calls) ? message.tool_calls as ToolCall[] : [],
            finishReason: typeof choice.finish_reason === "string" ? choice.finish_reason : null,
            ...(tokens.length > 0 ? {tokens} : {})
        };
    });
    return {
        id: typeof completion.id === "string" ? completion.id : undefined,
        model: typeof completion.model === "string" ? completion.model : undefined,
        choices,
        usage: completion.usage && typeof completion.usage === "object" ? completion.usage as JsonBody : undefined,
        chunks: 0
    };
}

/** JSON.parse with the error as a one-line message for an inline hint ("Unexpected token } at 12"). */
export function parseJsonText(text: string): {value: unknown} | {error: string} {
    try {
        return {value: JSON.parse(text)};
    } catch (error) {
        return {error: `Invalid JSON: ${(error as Error).message}`};
    }
}

export type ToolsParse = {tools?: ChatTool[], error?: string};

/**
 * The tools editor's text, checked with the same reader the server uses, so the inline error names the
 * same path a 400 would (`tools[0].function.name: ...`). Empty text means "no tools".
 */
export function parseToolsText(text: string): ToolsParse {
    if (!text.trim()) return {};
    const json = parseJsonText(text);
    if ("error" in json) return {error: json.error};
    try {
        return {tools: readTools(json.value, ["tools"])};
    } catch (error) {
        return {error: (error as Error).message};
    }
}

export type ResponseFormatParse = {value?: Record<string, unknown>, error?: string};

/**
 * `response_format` from the panel: none, `{type: json_object}`, or `{type: json_schema, json_schema}`
 * where the editor holds the `json_schema` object (`{name, schema}`), checked as the server reads it.
 */
export function parseResponseFormat(setting: ResponseFormatSetting): ResponseFormatParse {
    if (setting.mode === "none") return {};
    if (setting.mode === "json_object") return {value: {type: "json_object"}};
    const json = parseJsonText(setting.schemaText);
    if ("error" in json) return {error: json.error};
    const value = {type: "json_schema", json_schema: json.value};
    try {
        readResponseFormat(value, ["response_format"]);
    } catch (error) {
        return {error: (error as Error).message};
    }
    return {value};
}

export type ChatRequestBuild = {
    body: JsonBody,
    /**
     * Problems that stop a run: JSON the server could not read (the body leaves those fields out), and `stream`, a
     * streamed request that forces a tool call or asks for JSON mode, which the server refuses with a 400 (spec 2.5, 2.7).
     */
    errors: {tools?: string, tool_choice?: string, response_format?: string, stream?: string}
};

/**
 * Why the server would refuse this body for streaming, in its own words (the same checks its parser runs: a forced
 * tool call, spec 2.5, or JSON mode, spec 2.7, on a streamed request), or null when it would not.
 */
export function streamConflict(body: JsonBody): string | null {
    try {
        refuseForcedCallOnStream(body.tool_choice as ChatToolChoice | undefined, body.stream === true);
        refuseFormatOnStream(body.response_format as {type: string} | undefined, body.stream === true);
        return null;
    } catch (error) {
        return (error as Error).message;
    }
}

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
    const conflict = streamConflict(body);
    if (conflict) errors.stream = conflict;
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
