import type {HistoryEntry} from "./types.ts";

/** The answer text a stored run got (first choice, or the Responses output text). */
export function replyText(entry: HistoryEntry): string {
    const reply = entry.reply as {choices?: Array<{content?: string}>, outputText?: string} | null;
    if (!reply) return "";
    if (typeof reply.outputText === "string") return reply.outputText;
    return reply.choices?.[0]?.content ?? "";
}
