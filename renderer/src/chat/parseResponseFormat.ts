import {readResponseFormat} from "../../../protocol/chat/parseChatRequest.ts";
import {parseJsonText} from "../utils/parseJsonText.ts";
import type {ResponseFormatSetting} from "./types.ts";

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
