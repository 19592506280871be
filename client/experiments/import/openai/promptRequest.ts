import {bodyVariables} from "../../variables.ts";
import {ImportError, type ImportReport, type Place} from "../importProblems.ts";
import {isRecord, type FieldPath, type YamlFile} from "../yamlDocument.ts";
import {messageText} from "./evalTemplates.ts";

// One version of an OpenAI prompt object as the body of a saved Responses prompt: the Responses request fields a
// prompt fills in (instructions, input messages, model, sampling parameters, function tools, tool_choice) are kept
// in the endpoint's wire shape, `{{variable}}` as written (the app's `{{column}}` syntax is the same); every other
// field is listed as not imported. The model is the variant's, never the body's (a saved version holds no model).

/** Fields that say which prompt and version this is, read by importOpenAiPrompt.ts, not request fields. */
export const identityFields = ["object", "id", "version", "name", "description", "created_at", "is_default", "variables", "prompt"];

/** Request fields kept as they are, numbers the local engine's Responses endpoint takes. */
const numberFields = ["temperature", "top_p", "seed", "max_output_tokens"];

/** Why a field the Responses API has is not imported, for the fields a prompt commonly holds. */
const leftOutReasons: Record<string, string> = {
    store: "store is OpenAI's storage of the response; the local engine keeps none",
    truncation: "truncation has no counterpart: the local engine never drops input to fit",
    parallel_tool_calls: "parallel_tool_calls is not a field the local engine's Responses endpoint takes",
    metadata: "the prompt's metadata has no counterpart in a saved version",
    reasoning: "reasoning has no counterpart: the local engine's reasoning_effort takes other levels (low, medium, xhigh); set it in the playground",
    include: "include is not a field a saved version sends",
    previous_response_id: "previous_response_id: a saved version sends the whole input on every call"
};

export type PromptVersionContent = {body: Record<string, unknown>, model?: string, variables: string[]};

/**
 * The Responses body of the version at `at` in `source`; what is left out goes to `report`. A version with neither
 * instructions nor input messages is an ImportError at its place.
 */
export function promptVersionBody(source: YamlFile, at: FieldPath, version: Record<string, unknown>, report: ImportReport): PromptVersionContent {
    const place = (...path: Array<string | number>) => source.place([...at, ...path]);
    const body: Record<string, unknown> = {};
    let model: string | undefined;
    for (const [field, value] of Object.entries(version)) {
        if (identityFields.includes(field) || value === null || value === undefined) continue;
        if (field === "instructions") body.instructions = instructionsText(value, place(field));
        else if (field === "input") body.input = inputMessages(value, (...path) => place(field, ...path), report);
        else if (field === "model" && typeof value === "string") model = value;
        else if (numberFields.includes(field) && typeof value === "number") body[field] = value;
        else if (field === "tools" && Array.isArray(value)) {
            const tools = value.filter((tool, index) => {
                const kept = isRecord(tool) && tool.type === "function" && typeof tool.name === "string";
                if (!kept) report.notImported(place(field, index), `a ${JSON.stringify(isRecord(tool) ? tool.type : tool)} tool is not imported: the local engine runs function tools only`);
                return kept;
            });
            if (tools.length > 0) body.tools = tools;
        } else if (field === "tool_choice" && (["auto", "none", "required"].includes(value as string) || (isRecord(value) && value.type === "function" && typeof value.name === "string")))
            body.tool_choice = value;
        else if (field === "text" && isRecord(value)) textSettings(value, (key) => place(field, key), report);
        else if (field === "reasoning" && isRecord(value) && Object.values(value).every((setting) => setting === null)) continue;
        else report.notImported(place(field), leftOutReasons[field] ?? `${field} is not a field a saved Responses version sends`);
    }
    if (body.instructions === undefined && body.input === undefined)
        throw new ImportError(place(), "a prompt version holds instructions or input messages, and this one has neither");
    if (body.input === undefined) {
        // A prompt is used with the input its caller sends: here that is the row's `input` cell.
        body.input = "{{input}}";
        report.note("a version with no input messages sends {{input}} as its input: the dataset's input column is the message a caller would send with the prompt");
    }
    return {body, ...(model === undefined ? {} : {model}), variables: bodyVariables(body)};
}

/** Instructions as a string (a list of text messages, as a Response echoes them, joined). */
function instructionsText(value: unknown, at: Place): string {
    if (typeof value === "string") return value;
    const texts = Array.isArray(value) ? value.map((item) => isRecord(item) ? messageText(item.content) : null) : [null];
    if (texts.some((text) => text === null)) throw new ImportError(at, "instructions must be text, or a list of text messages");
    return texts.join("\n\n");
}

/** Input as a string or a list of text messages `{role, content}`; other items are listed and left out. */
function inputMessages(value: unknown, at: (...path: number[]) => Place, report: ImportReport): string | Array<{role: string, content: string}> | undefined {
    if (typeof value === "string") return value;
    if (!Array.isArray(value)) throw new ImportError(at(), "input must be text or a list of messages");
    const messages: Array<{role: string, content: string}> = [];
    value.forEach((item, index) => {
        const text = isRecord(item) && (item.type === undefined || item.type === "message") && typeof item.role === "string" ? messageText(item.content) : null;
        if (text === null || !isRecord(item)) report.notImported(at(index), "only text messages are imported (images, files and tool calls are not)");
        else messages.push({role: item.role as string, content: text});
    });
    return messages.length === 0 ? undefined : messages;
}

/** `text`: the plain text format is the default and needs nothing; a JSON format or verbosity is listed. */
function textSettings(text: Record<string, unknown>, at: (key: string) => Place, report: ImportReport) {
    for (const [key, setting] of Object.entries(text)) {
        if (setting === null || (key === "format" && isRecord(setting) && setting.type === "text")) continue;
        report.notImported(at(key), key === "format"
            ? `text.format ${JSON.stringify(isRecord(setting) ? setting.type : setting)} is not imported: the local engine's Responses endpoint has no JSON mode (a chat prompt's response_format does it)`
            : `text.${key} has no counterpart on the local engine`);
    }
}
