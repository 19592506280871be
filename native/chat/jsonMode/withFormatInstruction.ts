import type {ChatHistoryItem} from "node-llama-cpp";
import type {ResponseFormat} from "../../../protocol/chat/types.ts";

/**
 * Tells the model the JSON contract in a system message placed after the client's own system messages. The
 * schema is part of the prompt this way, so it counts toward `prompt_tokens` and the window (spec 2.7.3).
 */
export function withFormatInstruction(history: ChatHistoryItem[], format: ResponseFormat | undefined): ChatHistoryItem[] {
    if (format == null || format.type === "text") return history;
    const text = format.type === "json_object"
        ? "Reply with one JSON object only: no prose before or after it and no code fence."
        : "Reply with one JSON value only, with no prose and no code fence, that validates against this JSON Schema:\n" +
            JSON.stringify(format.json_schema.schema ?? {});
    const at = history.findIndex((item) => item.type !== "system");
    const index = at < 0 ? history.length : at;
    return [...history.slice(0, index), {type: "system", text}, ...history.slice(index)];
}
