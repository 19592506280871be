// The playgrounds' drafts as saved in the app's data folder, read back field by field: a document from another version,
// or edited by hand, can hold anything, and a field that does not read as its type takes the fresh draft's value instead
// of breaking the screen.
import {newId} from "../../ui/browser.ts";
import type {DraftImage} from "../../ui/images.tsx";
import type {ChatDraft, DraftMessage, DraftRole, ResponseFormatSetting, ToolCall, ToolChoiceSetting} from "./chat.ts";
import type {CompletionsDraft} from "./completions.ts";
import type {ParamValue, ParamValues} from "./params.ts";
import type {ResponsesDraft, ResponsesPart} from "./responses.ts";

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => value !== null && typeof value === "object" && !Array.isArray(value);
const text = (value: unknown, fallback: string): string => typeof value === "string" ? value : fallback;
const list = (value: unknown): unknown[] | undefined => Array.isArray(value) ? value : undefined;

/** Parameter values as the panel holds them; anything else is dropped (the parameter is then not sent). */
export function readParamValues(value: unknown, fallback: ParamValues): ParamValues {
    if (!isObject(value)) return fallback;
    const params: ParamValues = {};
    for (const [key, item] of Object.entries(value)) {
        const ok = typeof item === "number" || typeof item === "boolean" || typeof item === "string"
            || Array.isArray(item) && item.every((entry) => typeof entry === "string");
        if (ok) params[key] = item as ParamValue;
    }
    return params;
}

function readImage(value: unknown): DraftImage | undefined {
    if (!isObject(value) || typeof value.dataUrl !== "string") return undefined;
    return {id: text(value.id, newId()), name: text(value.name, "image"), dataUrl: value.dataUrl};
}

const readImages = (value: unknown): DraftImage[] => (list(value) ?? []).map(readImage).filter((image) => image != null);

const roles: readonly DraftRole[] = ["system", "user", "assistant", "tool"];

function readToolCall(value: unknown): ToolCall | undefined {
    if (!isObject(value) || !isObject(value.function)) return undefined;
    return {id: text(value.id, ""), type: "function", function: {name: text(value.function.name, ""), arguments: text(value.function.arguments, "")}};
}

function readMessage(value: unknown): DraftMessage | undefined {
    if (!isObject(value) || !roles.includes(value.role as DraftRole)) return undefined;
    const message: DraftMessage = {id: text(value.id, newId()), role: value.role as DraftRole, content: text(value.content, ""), images: readImages(value.images)};
    if (typeof value.toolCallId === "string") message.toolCallId = value.toolCallId;
    const calls = list(value.toolCalls)?.map(readToolCall).filter((call) => call != null);
    if (calls != null && calls.length > 0) message.toolCalls = calls;
    return message;
}

function readToolChoice(value: unknown, fallback: ToolChoiceSetting): ToolChoiceSetting {
    if (value === "" || value === "auto" || value === "none" || value === "required") return value;
    return typeof value === "string" && value.startsWith("function:") ? value as ToolChoiceSetting : fallback;
}

function readResponseFormat(value: unknown, fallback: ResponseFormatSetting): ResponseFormatSetting {
    if (!isObject(value) || !["none", "json_object", "json_schema"].includes(value.mode as string)) return fallback;
    return {mode: value.mode as ResponseFormatSetting["mode"], schemaText: text(value.schemaText, fallback.schemaText)};
}

/** A saved chat draft, or the parts of `fallback` (the fresh draft) for what does not read. */
export function readChatDraft(saved: unknown, fallback: ChatDraft): ChatDraft {
    if (!isObject(saved)) return fallback;
    const messages = list(saved.messages)?.map(readMessage).filter((message) => message != null);
    return {
        systemPrompt: text(saved.systemPrompt, fallback.systemPrompt),
        messages: messages ?? fallback.messages,
        params: readParamValues(saved.params, fallback.params),
        toolsText: text(saved.toolsText, fallback.toolsText),
        toolChoice: readToolChoice(saved.toolChoice, fallback.toolChoice),
        responseFormat: readResponseFormat(saved.responseFormat, fallback.responseFormat)
    };
}

function readPart(value: unknown): ResponsesPart | undefined {
    if (!isObject(value)) return undefined;
    if (value.type === "input_text") return {id: text(value.id, newId()), type: "input_text", text: text(value.text, "")};
    const image = value.type === "input_image" ? readImage(value) : undefined;
    return image && {...image, type: "input_image"};
}

/** A saved Responses draft, or the parts of `fallback` for what does not read. */
export function readResponsesDraft(saved: unknown, fallback: ResponsesDraft): ResponsesDraft {
    if (!isObject(saved)) return fallback;
    return {
        instructions: text(saved.instructions, fallback.instructions),
        parts: list(saved.parts)?.map(readPart).filter((part) => part != null) ?? fallback.parts,
        params: readParamValues(saved.params, fallback.params)
    };
}

/** A saved completions draft, or the parts of `fallback` for what does not read. */
export function readCompletionsDraft(saved: unknown, fallback: CompletionsDraft): CompletionsDraft {
    if (!isObject(saved)) return fallback;
    return {prompt: text(saved.prompt, fallback.prompt), params: readParamValues(saved.params, fallback.params)};
}
