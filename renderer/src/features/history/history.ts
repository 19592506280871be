// Reading saved runs: search, a one-line summary, the reply text.
import type {HistoryEntry} from "../playground/runs.ts";

/**
 * Entries matching every word of `query` (case-insensitive) anywhere in their request, reply, error,
 * kind, status or connection name. Image data is not searched: base64 would match almost anything.
 */
export function searchHistory(entries: HistoryEntry[], query: string): HistoryEntry[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return entries;
    return entries.filter((entry) => {
        const text = searchableText(entry);
        return words.every((word) => text.includes(word));
    });
}

function searchableText(entry: HistoryEntry): string {
    const json = JSON.stringify([entry.kind, entry.status, entry.connectionName, entry.request, entry.reply, entry.error], (_key, value) =>
        typeof value === "string" && value.startsWith("data:") ? "" : value);
    return json.toLowerCase();
}

/** A one-line title for a history row: the last user text, the prompt, the input, or a decision run's input and questions. */
export function summarizeEntry(entry: HistoryEntry): string {
    const request = entry.request as Record<string, unknown>;
    if (entry.kind === "decisions" || entry.kind === "systemone") {
        const questions = Array.isArray(request.questions) ? request.questions.length : Object.keys(request.questions ?? {}).length;
        const input = entry.kind === "decisions" ? request.input : request.state;
        const text = typeof input === "string" ? input : Array.isArray(input) ? textOf(JSON.stringify(input)) : JSON.stringify(input ?? "");
        return `${questions} question${questions === 1 ? "" : "s"} · ${text}`;
    }
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

/** The answer text a stored run got (first choice, or the Responses output text). */
export function replyText(entry: HistoryEntry): string {
    const reply = entry.reply as {choices?: Array<{content?: string}>, outputText?: string} | null;
    if (!reply) return "";
    if (typeof reply.outputText === "string") return reply.outputText;
    return reply.choices?.[0]?.content ?? "";
}
