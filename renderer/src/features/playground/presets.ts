// Presets: a saved prompt with everything its playground sends (the system prompt or instructions, the messages or
// input, tools, tool_choice, response_format, and the parameters), how one is read from a saved document or file, and
// how a preset of one playground is used in another where the request can say the same thing.
import type {JsonBody} from "../../../../client/sdk/index.ts";
import {readResponseFormat, readTools} from "../../../../protocol/chat/parseChatRequest.ts";
import {newId} from "../../ui/browser.ts";
import {buildChatRequest, type ChatDraft} from "./chat.ts";
import type {CompletionsDraft} from "./completions.ts";
import {paramSpecsFor, type ParamValues, type PlaygroundKind} from "./params.ts";
import {buildResponsesRequest, type ResponsesDraft} from "./responses.ts";

/**
 * A saved preset. `prompt` is the rest of the request in its wire shape: chat `{messages, tools?, tool_choice?,
 * response_format?}`, Responses `{instructions?, input}`, completions `{prompt}`. A preset saved before presets held
 * prompts has none and sets the parameters only.
 */
export type Preset = {id: string, name: string, kind: PlaygroundKind, params: ParamValues, prompt?: JsonBody, createdAt: number};

export const playgroundNames: Record<PlaygroundKind, string> = {chat: "Chat", responses: "Responses", completions: "Completions"};

/** The request fields a preset's prompt holds, by playground: everything the body has beyond the model and parameters. */
const promptFields: Record<PlaygroundKind, readonly string[]> = {
    chat: ["messages", "tools", "tool_choice", "response_format"],
    responses: ["instructions", "input"],
    completions: ["prompt"]
};

const pick = (body: JsonBody, fields: readonly string[]): JsonBody =>
    Object.fromEntries(fields.filter((field) => body[field] !== undefined).map((field) => [field, body[field]]));

export type PresetDraft = {kind: "chat", draft: ChatDraft} | {kind: "responses", draft: ResponsesDraft} | {kind: "completions", draft: CompletionsDraft};

/**
 * A preset of a playground's draft as it would be sent now; refused (with the editor's message) while a JSON field
 * does not read, as the request would leave that field out and the preset would silently lose it.
 */
export function presetFromDraft(name: string, source: PresetDraft): Preset | {error: string} {
    let body: JsonBody;
    if (source.kind === "chat") {
        const {body: chat, errors: {stream: _stream, ...errors}} = buildChatRequest(source.draft);
        const problems = Object.values(errors);
        if (problems.length > 0) return {error: `Fix the request first: ${problems.join("; ")}`};
        body = chat;
    } else body = source.kind === "responses" ? buildResponsesRequest(source.draft) : {prompt: source.draft.prompt};
    return {id: newId(), name, kind: source.kind, params: {...source.draft.params}, prompt: pick(body, promptFields[source.kind]), createdAt: Date.now()};
}

/** What a preset holds, in a few words: "system prompt · 3 messages · 1 tool · json_schema · 4 parameters". */
export function describePreset(preset: Preset): string {
    const params = Object.values(preset.params).filter((value) => value !== undefined).length;
    const parts: string[] = [];
    const prompt = preset.prompt;
    if (prompt == null) return `parameters only (${params})`;
    if (preset.kind === "chat") {
        const messages = Array.isArray(prompt.messages) ? prompt.messages as JsonBody[] : [];
        const system = messages[0]?.role === "system";
        if (system) parts.push("system prompt");
        parts.push(plural(messages.length - (system ? 1 : 0), "message"));
        if (Array.isArray(prompt.tools)) parts.push(plural(prompt.tools.length, "tool"));
        const format = (prompt.response_format as JsonBody | undefined)?.type;
        if (typeof format === "string") parts.push(format);
    } else if (preset.kind === "responses") {
        if (typeof prompt.instructions === "string") parts.push("instructions");
        parts.push("input");
    } else parts.push("prompt");
    parts.push(plural(params, "parameter"));
    return parts.join(" · ");
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** A preset as it applies to one playground: its parameters, its prompt in that playground's shape, what was left out. */
export type PresetUse = {params: ParamValues, prompt?: JsonBody, dropped: string[]};

/** Parameters of the same meaning under another name in the other playground. */
const renamed: Partial<Record<PlaygroundKind, Record<string, string>>> = {
    responses: {max_tokens: "max_output_tokens", max_completion_tokens: "max_output_tokens"},
    chat: {max_output_tokens: "max_tokens"}
};

/** Chat parameters with nothing to say in Responses: its stream always ends with the usage (spec 6.2). */
const impliedIn: Partial<Record<PlaygroundKind, readonly string[]>> = {responses: ["include_usage"]};

/**
 * The preset as `target` can use it, or why it cannot: chat and Responses presets carry over when the request says the
 * same there (a system prompt and one user message of text and images, no tools or response_format); a completions
 * prompt is plain text, which neither of the others takes. Parameters the target does not have are listed as dropped.
 */
export function presetFor(target: PlaygroundKind, preset: Preset): PresetUse | {unusable: string} {
    if (preset.kind === target) return {params: {...preset.params}, prompt: preset.prompt, dropped: []};
    if (target === "completions" || preset.kind === "completions")
        return {unusable: target === "completions" ? "holds messages; Completions takes plain text" : "a plain-text prompt; use it in Completions"};
    const converted = preset.prompt == null ? undefined : preset.kind === "chat" ? chatToResponses(preset.prompt) : responsesToChat(preset.prompt);
    if (typeof converted?.unusable === "string") return {unusable: converted.unusable};
    const prompt = converted as JsonBody | undefined;
    const params: ParamValues = {};
    const dropped: string[] = [];
    const keys = new Set(paramSpecsFor[target].map((spec) => spec.key));
    // max_completion_tokens wins over max_tokens in chat, so it is the one a single budget field takes.
    const entries = Object.entries(preset.params).sort(([a], [b]) => Number(b === "max_completion_tokens") - Number(a === "max_completion_tokens"));
    for (const [key, value] of entries) {
        if (value === undefined) continue;
        const name = renamed[target]?.[key] ?? key;
        if (keys.has(name)) params[name] ??= value;
        else if (!impliedIn[target]?.includes(key)) dropped.push(key);
    }
    return {params, prompt, dropped};
}

function chatToResponses(prompt: JsonBody): JsonBody | {unusable: string} {
    if (prompt.tools !== undefined || prompt.tool_choice !== undefined) return {unusable: "has tools, which the Responses playground does not send"};
    if (prompt.response_format !== undefined) return {unusable: "has response_format, which the Responses playground does not send"};
    const messages = Array.isArray(prompt.messages) ? prompt.messages as JsonBody[] : [];
    const system = messages[0]?.role === "system" && typeof messages[0].content === "string" ? messages[0].content : undefined;
    const rest = system === undefined ? messages : messages.slice(1);
    if (rest.length !== 1 || rest[0].role !== "user")
        return {unusable: `holds ${plural(rest.length, "message")} besides the system prompt; Responses sends one user message`};
    const content = rest[0].content;
    const input = typeof content === "string" ? content : (Array.isArray(content) ? content as JsonBody[] : []).map((part) => part.type === "image_url"
        ? {type: "input_image", image_url: String((part.image_url as JsonBody | undefined)?.url ?? ""), detail: "auto"}
        : {type: "input_text", text: String(part.text ?? "")});
    return {...(system !== undefined ? {instructions: system} : {}), input: typeof input === "string" ? input : [{role: "user", content: input}]};
}

function responsesToChat(prompt: JsonBody): JsonBody | {unusable: string} {
    const items = Array.isArray(prompt.input) ? prompt.input as JsonBody[] : [{role: "user", content: String(prompt.input ?? "")}];
    if (items.length !== 1 || (items[0].role ?? "user") !== "user") return {unusable: "its input holds several messages; the Chat playground's conversation is built message by message"};
    const content = items[0].content;
    const user = typeof content === "string" ? content : (Array.isArray(content) ? content as JsonBody[] : []).map((part) => part.type === "input_image"
        ? {type: "image_url", image_url: {url: String(part.image_url ?? "")}}
        : {type: "text", text: String(part.text ?? "")});
    const system = typeof prompt.instructions === "string" ? [{role: "system", content: prompt.instructions}] : [];
    return {messages: [...system, {role: "user", content: user}]};
}

/**
 * Reads one preset from a saved document or an imported file; throws with the preset's place and the field at fault.
 * Parameters are checked against the playground's (name and type), the prompt's shape against its request fields.
 */
export function readPreset(raw: unknown, where: string): Preset {
    const item = raw as {name?: unknown, kind?: unknown, params?: unknown, prompt?: unknown, createdAt?: unknown};
    if (typeof item?.name !== "string" || !item.name.trim()) throw new Error(`${where}.name: must be a non-empty string`);
    if (item.kind !== "chat" && item.kind !== "responses" && item.kind !== "completions") throw new Error(`${where}.kind: must be chat, responses or completions`);
    if (!isObject(item.params)) throw new Error(`${where}.params: must be an object`);
    const specs = paramSpecsFor[item.kind];
    const params: ParamValues = {};
    for (const [key, value] of Object.entries(item.params)) {
        const spec = specs.find((candidate) => candidate.key === key);
        if (!spec) throw new Error(`${where}.params.${key}: not a ${item.kind} parameter`);
        const expected = spec.kind === "integer" || spec.kind === "number" ? "number"
            : spec.kind === "boolean" || spec.kind === "include" ? "boolean" : spec.kind === "stopList" ? "string[]" : "string";
        const ok = expected === "string[]" ? Array.isArray(value) && value.every((entry) => typeof entry === "string") : typeof value === expected;
        if (!ok) throw new Error(`${where}.params.${key}: must be a ${expected}`);
        params[key] = value as ParamValues[string];
    }
    const prompt = item.prompt === undefined ? undefined : readPrompt(item.kind, item.prompt, `${where}.prompt`);
    return {
        id: typeof (raw as {id?: unknown}).id === "string" ? (raw as {id: string}).id : newId(),
        name: item.name.trim(),
        kind: item.kind,
        params,
        ...(prompt !== undefined ? {prompt} : {}),
        createdAt: typeof item.createdAt === "number" ? item.createdAt : Date.now()
    };
}

const isObject = (value: unknown): value is JsonBody => value !== null && typeof value === "object" && !Array.isArray(value);

const chatRoles = ["system", "user", "assistant", "tool"];

function readPrompt(kind: PlaygroundKind, value: unknown, where: string): JsonBody {
    if (!isObject(value)) throw new Error(`${where}: must be an object`);
    for (const key of Object.keys(value)) if (!promptFields[kind].includes(key)) throw new Error(`${where}.${key}: not a ${kind} prompt field`);
    const fail = (field: string, rule: string): never => {
        throw new Error(`${where}.${field}: ${rule}`);
    };
    const readWith = (field: string, read: (value: unknown, path: string[]) => unknown) => {
        try {
            read(value[field], [field]);
        } catch (error) {
            throw new Error(`${where}.${(error as Error).message}`);
        }
    };
    if (kind === "chat") {
        if (!Array.isArray(value.messages)) fail("messages", "must be an array");
        (value.messages as unknown[]).forEach((message, index) => {
            if (!isObject(message) || !chatRoles.includes(message.role as string)) fail(`messages[${index}].role`, `must be one of ${chatRoles.join(", ")}`);
            const content = (message as JsonBody).content;
            if (!(typeof content === "string" || content === null || Array.isArray(content))) fail(`messages[${index}].content`, "must be a string, null or an array of parts");
        });
        if (value.tools !== undefined) readWith("tools", readTools);
        if (value.response_format !== undefined) readWith("response_format", readResponseFormat);
        const choice = value.tool_choice;
        if (choice !== undefined && !["auto", "none", "required"].includes(choice as string)
            && typeof (choice as {function?: {name?: unknown}})?.function?.name !== "string")
            fail("tool_choice", "must be auto, none, required or {type: function, function: {name}}");
    } else if (kind === "responses") {
        if (value.instructions !== undefined && typeof value.instructions !== "string") fail("instructions", "must be a string");
        if (typeof value.input !== "string" && !(Array.isArray(value.input) && value.input.every(isObject))) fail("input", "must be a string or an array of messages");
    } else if (typeof value.prompt !== "string") fail("prompt", "must be a string");
    return value;
}
