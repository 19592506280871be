// What of the run history, the scoring jobs and the experiments could not be read, said in sentences the page shows:
// stored rows that do not fit their shape (left out of what is read, and left where they are), and files of the old
// folders that were not moved in (kept in the folder moved aside, and recorded in items_unreadable until acknowledged).
import path from "node:path";
import type {SavedItemKind} from "../../protocol/gateway/contract.ts";
import type {AppDatabase} from "./AppDatabase.ts";

/** What an item is: a run of the history, a scoring job, an experiment (items_unreadable's kind). */
export type ItemKind = SavedItemKind;

export const itemKinds: readonly ItemKind[] = ["run", "scoring", "experiment"];

/** At most this many items are named in a sentence. */
const namedItems = 5;

const nouns: Record<ItemKind, [one: string, many: string]> = {
    run: ["saved run", "saved runs"],
    scoring: ["saved scoring job", "saved scoring jobs"],
    experiment: ["saved experiment", "saved experiments"]
};

/** "1 saved run", "3 saved experiments". */
export function countOf(kind: ItemKind, count: number): string {
    return `${count} ${nouns[kind][count === 1 ? 0 : 1]}`;
}

/** The sentence for stored rows of `table` left out of what was read (`what`: their ids, or what in them). */
export function leftOutSentence(db: AppDatabase, kind: ItemKind, table: string, what: string[]): string[] {
    if (what.length === 0) return [];
    return [`${countOf(kind, what.length)} in the app's database could not be read and ${what.length === 1 ? "is" : "are"} left out (${listed(what)}): ` +
        `${what.length === 1 ? "it stays" : "they stay"} in ${db.filePath}, table ${table}.`];
}

/** Records a file of an old folder that could not be moved in (`keptIn` relative to the data folder), with why. */
export function recordUnreadable(db: AppDatabase, kind: ItemKind, keptIn: string, reason: string, now: number): void {
    db.statement("INSERT INTO items_unreadable (kind, kept_in, reason, found_at) VALUES (?, ?, ?, ?)").run(kind, keptIn, reason, now);
}

/** The sentences about files of the old folders of `kind` that were kept aside and not yet acknowledged, by folder. */
export function keptAsideSentences(db: AppDatabase, kind: ItemKind): string[] {
    const rows = db.statement("SELECT kept_in, reason FROM items_unreadable WHERE kind = ? AND acknowledged_at IS NULL ORDER BY id").all(kind) as Array<{kept_in: string, reason: string}>;
    const byFolder = new Map<string, string[]>();
    for (const row of rows) {
        // kept_in: <folder moved aside>/<file, or job folder/file>.
        const [folder, ...rest] = row.kept_in.split("/");
        byFolder.set(folder, [...byFolder.get(folder) ?? [], `${rest.join("/")}: ${row.reason}`]);
    }
    return [...byFolder].map(([folder, items]) => `${countOf(kind, items.length)} could not be read and ${items.length === 1 ? "was" : "were"} kept in ` +
        `${path.join(path.dirname(db.filePath), folder)} (${listed(items)}).`);
}

/** The files of `kind` kept aside stop being reported (the files stay); how many were. */
export function acknowledgeKeptAside(db: AppDatabase, kind: ItemKind): number {
    return Number(db.transaction(() => db.statement("UPDATE items_unreadable SET acknowledged_at = ? WHERE kind = ? AND acknowledged_at IS NULL").run(Date.now(), kind).changes));
}

function listed(items: string[]): string {
    return items.length <= namedItems ? items.join(", ") : `${items.slice(0, namedItems).join(", ")} and ${items.length - namedItems} more`;
}
