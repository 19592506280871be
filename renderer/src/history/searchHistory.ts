import type {HistoryEntry} from "./types.ts";

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
