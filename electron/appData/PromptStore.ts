import type {NewPromptVersion, SavedPromptItem, SavedPromptVersion} from "../../protocol/gateway/contract.ts";
import {GatewayError} from "../api/answers.ts";
import type {AppDatabase} from "./AppDatabase.ts";
import {checkName} from "./storedNames.ts";

const kinds = new Set(["chat", "responses", "decision"]);

type ItemRow = {item_id: string, name: string, kind: string, latest: number, updated_at: number};
type VersionRow = {version: number, created_at: number, note: string, body: string};

/**
 * Saved prompts and question sets with their versions, in the app's database: the list of items is read as the app
 * starts; an item's versions (a chat prompt may hold images) only when it is opened or run. A version is never changed:
 * a new one gets the item's next number inside the transaction that saves it, so no window's version replaces another's.
 */
export class PromptStore {
    private readonly database: () => Promise<AppDatabase>;

    public constructor(database: () => Promise<AppDatabase>) {
        this.database = database;
    }

    /** Every item, the most recently changed first. */
    public async list(): Promise<SavedPromptItem[]> {
        const db = await this.database();
        return (db.statement("SELECT * FROM prompt_items ORDER BY updated_at DESC, item_id").all() as ItemRow[]).map(itemOf);
    }

    /** An item's versions, newest first, and sentences about any that could not be read (left out). */
    public async versions(itemId: string): Promise<{versions: SavedPromptVersion[], problems: string[]}> {
        checkName("the item id", itemId);
        const db = await this.database();
        const item = db.statement("SELECT * FROM prompt_items WHERE item_id = ?").get(itemId) as ItemRow | undefined;
        if (item === undefined) throw new GatewayError(404, "prompt_not_found", "invalid_request_error", `no saved prompt ${itemId}`);
        const versions: SavedPromptVersion[] = [];
        const unreadable: number[] = [];
        for (const row of db.statement("SELECT version, created_at, note, body FROM prompt_versions WHERE item_id = ? ORDER BY version DESC").all(itemId) as VersionRow[]) {
            try {
                versions.push({itemId, itemName: item.name, version: row.version, note: row.note, createdAt: row.created_at, prompt: JSON.parse(row.body) as unknown});
            } catch {
                unreadable.push(row.version);
            }
        }
        const problems = unreadable.length === 0 ? [] : [`Version${unreadable.length === 1 ? "" : "s"} ${unreadable.join(", ")} of "${item.name}" could not be read and ` +
            `${unreadable.length === 1 ? "is" : "are"} left out; ${unreadable.length === 1 ? "it stays" : "they stay"} in ${db.filePath}, table prompt_versions.`];
        return {versions, problems};
    }

    /** Saves the next version of `itemId` (making the item when it is new) and answers it, numbered. */
    public async add(itemId: string, input: NewPromptVersion): Promise<SavedPromptVersion> {
        checkName("the item id", itemId);
        if (typeof input?.itemName !== "string" || input.itemName.trim() === "") throw invalid("itemName: must be a non-empty string");
        if (!kinds.has(input.kind)) throw invalid(`kind: must be "chat", "responses" or "decision", got ${JSON.stringify(input.kind)}`);
        if (input.prompt === null || typeof input.prompt !== "object") throw invalid("prompt: must be the prompt or question set, a JSON object");
        const body = JSON.stringify(input.prompt);
        const note = typeof input.note === "string" ? input.note : "";
        const db = await this.database();
        return db.transaction(() => {
            const item = db.statement("SELECT * FROM prompt_items WHERE item_id = ?").get(itemId) as ItemRow | undefined;
            if (item !== undefined && item.kind !== input.kind)
                throw new GatewayError(409, "prompt_kind_mismatch", "invalid_request_error", `"${item.name}" holds ${item.kind} versions; save this ${input.kind} prompt as a new item`);
            const name = item?.name ?? input.itemName.trim();
            const version = (item?.latest ?? 0) + 1;
            const createdAt = Math.max(Date.now(), (item?.updated_at ?? 0) + 1);
            db.statement("INSERT INTO prompt_versions (item_id, version, created_at, note, body) VALUES (?, ?, ?, ?, ?)").run(itemId, version, createdAt, note, body);
            db.statement("INSERT INTO prompt_items (item_id, name, kind, latest, updated_at) VALUES (?, ?, ?, ?, ?) " +
                "ON CONFLICT (item_id) DO UPDATE SET latest = excluded.latest, updated_at = excluded.updated_at").run(itemId, name, input.kind, version, createdAt);
            return {itemId, itemName: name, version, note, createdAt, prompt: input.prompt};
        });
    }

    /** Deletes an item with its versions; false when there was none. */
    public async remove(itemId: string): Promise<boolean> {
        checkName("the item id", itemId);
        const db = await this.database();
        return db.transaction(() => {
            db.statement("DELETE FROM prompt_versions WHERE item_id = ?").run(itemId);
            return Number(db.statement("DELETE FROM prompt_items WHERE item_id = ?").run(itemId).changes) > 0;
        });
    }

    /** Puts back an item with the versions it had (an Undo of `remove`); refused when the item exists again. */
    public async restore(item: SavedPromptItem, versions: SavedPromptVersion[]): Promise<void> {
        checkName("the item id", item?.itemId);
        if (!kinds.has(item.kind) || typeof item.itemName !== "string") throw invalid("item: must be an item as the list gave it");
        const db = await this.database();
        db.transaction(() => {
            if (db.statement("SELECT 1 FROM prompt_items WHERE item_id = ?").get(item.itemId) !== undefined)
                throw new GatewayError(409, "prompt_exists", "invalid_request_error", `"${item.itemName}" exists again; nothing was changed`);
            const insert = db.statement("INSERT INTO prompt_versions (item_id, version, created_at, note, body) VALUES (?, ?, ?, ?, ?)");
            for (const version of versions) {
                if (!Number.isInteger(version?.version) || version.version < 1) throw invalid("versions: each must have its number");
                insert.run(item.itemId, version.version, version.createdAt, version.note ?? "", JSON.stringify(version.prompt));
            }
            const latest = Math.max(0, ...versions.map((version) => version.version));
            db.statement("INSERT INTO prompt_items (item_id, name, kind, latest, updated_at) VALUES (?, ?, ?, ?, ?)").run(item.itemId, item.itemName, item.kind, latest, item.updatedAt);
        });
    }
}

function itemOf(row: ItemRow): SavedPromptItem {
    return {itemId: row.item_id, itemName: row.name, kind: row.kind as SavedPromptItem["kind"], latest: row.latest, updatedAt: row.updated_at};
}

function invalid(message: string) {
    return new GatewayError(400, "invalid_request", "invalid_request_error", message);
}

/**
 * Moves the prompts of the documents layout (the list document and one document of versions per item) into the
 * tables, in one transaction, deleting the documents they came from. An item already in the tables is not replaced; a
 * document whose text does not parse is left where it is, and the documents table keeps reporting it.
 */
export function movePromptDocuments(db: AppDatabase): number {
    return db.transaction(() => {
        const listText = (db.statement("SELECT value FROM documents WHERE key = 'svc-studio-prompt-items'").get() as {value: string} | undefined)?.value;
        if (listText === undefined) return 0;
        let list: unknown;
        try {
            list = (JSON.parse(listText) as {state?: {items?: unknown}} | null)?.state?.items;
        } catch {
            return 0;
        }
        let moved = 0;
        for (const item of Array.isArray(list) ? list as Array<Partial<SavedPromptItem>> : []) {
            if (typeof item?.itemId !== "string" || typeof item.itemName !== "string" || !kinds.has(item.kind as string)) continue;
            const key = `svc-studio-prompt-${item.itemId}`;
            const text = (db.statement("SELECT value FROM documents WHERE key = ?").get(key) as {value: string} | undefined)?.value ?? "[]";
            let versions: Array<Partial<SavedPromptVersion>>;
            try {
                versions = JSON.parse(text) as Array<Partial<SavedPromptVersion>>;
                if (!Array.isArray(versions)) continue;
            } catch {
                continue;
            }
            if (db.statement("SELECT 1 FROM prompt_items WHERE item_id = ?").get(item.itemId) === undefined) {
                const kept = versions.filter((version) => Number.isInteger(version?.version) && version.prompt !== undefined);
                const insert = db.statement("INSERT OR IGNORE INTO prompt_versions (item_id, version, created_at, note, body) VALUES (?, ?, ?, ?, ?)");
                for (const version of kept) insert.run(item.itemId, version.version!, version.createdAt ?? 0, version.note ?? "", JSON.stringify(version.prompt));
                const latest = Math.max(0, ...kept.map((version) => version.version!));
                db.statement("INSERT INTO prompt_items (item_id, name, kind, latest, updated_at) VALUES (?, ?, ?, ?, ?)")
                    .run(item.itemId, item.itemName, item.kind!, latest, item.updatedAt ?? Date.now());
                moved++;
            }
            db.statement("DELETE FROM documents WHERE key = ?").run(key);
        }
        db.statement("DELETE FROM documents WHERE key = 'svc-studio-prompt-items'").run();
        return moved;
    });
}
