import {readTools} from "../../../protocol/chat/parseChatRequest.ts";
import type {ChatTool} from "../../../protocol/chat/types.ts";
import {parseJsonText} from "../utils/parseJsonText.ts";

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
