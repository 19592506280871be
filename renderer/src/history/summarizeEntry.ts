import type {HistoryEntry} from "./types.ts";

/** A one-line title for a history row: the last user text, the prompt, or the input. */
export function summarizeEntry(entry: HistoryEntry): string {
    const request = entry.request as Record<string, unknown>;
    if (entry.kind === "completions") return String(Array.isArray(request.prompt) ? request.prompt[0] : request.prompt ?? "");
    if (entry.kind === "responses") {
        if (typeof request.input === "string") return request.input;
        return textOf(JSON.stringify(request.input ?? ""));
    }
    const messages = Array.isArray(request.messages) ? request.messages as Array<Record<string, unknown>> : [];
    const last = [...messages].reverse().find((message) => message.role === "user") ?? messages[messages.length - 1];
    if (!last) return "(no messages)";
    if (typeof last.content === "string") return last.content;
    return textOf(JSON.stringify(last.content ?? ""));
}

function textOf(json: string): string {
    const texts = [...json.matchAll(/"text":"((?:[^"\\]|\\.)*)"/g)].map((match) => JSON.parse(`"${match[1]}"`) as string);
    return texts.join(" ") || "(image input)";
}
