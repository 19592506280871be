import {readdir, readFile, rename, stat} from "node:fs/promises";
import path from "node:path";
import type {ErrorEnvelope} from "../../protocol/errors.ts";
import type {SavedDocuments} from "../../protocol/gateway/contract.ts";
import {GatewayError} from "../api/answers.ts";
import type {AppDatabase} from "./AppDatabase.ts";
import {checkName} from "./storedNames.ts";

/** What a write of a document is based on. */
export type DocumentWrite = {
    /** The revision the writer read (0 or absent: the key is new to it). */
    revision?: number,
    /**
     * Who writes (one page) and its count of writes. A page's own writes may overtake each other (a closing page sends
     * at once): one based on a revision this writer replaced itself is taken, and one older than the writer's last is
     * dropped (`saved: false`), rather than either being refused as another window's.
     */
    writer?: {id: string, sequence: number}
};

/** A write refused because another writer changed the document since the revision it was based on. */
export class RevisionConflict extends GatewayError {
    /** The revision the database holds (0: the document was deleted). */
    public readonly revision: number;

    /** `what`: the record, for the message ("document svc-studio-presets", "dataset Reviews"). */
    public constructor(what: string, based: number, revision: number) {
        super(409, "revision_conflict", "invalid_request_error", revision === 0
            ? `${what} was deleted by another window since revision ${based}, which this write is based on; nothing was changed`
            : `${what} was changed by another window: it is at revision ${revision}, this write is based on ${based === 0 ? "no revision (a new record)" : `revision ${based}`}; nothing was changed`);
        this.revision = revision;
    }

    public override toEnvelope(): ErrorEnvelope {
        const envelope = super.toEnvelope();
        return {...envelope, error: {...envelope.error, revision: this.revision} as ErrorEnvelope["error"]};
    }
}

/** The old store's folder of documents (`<key>.json` each), and the name it is moved aside to once copied. */
const legacyFolder = "documents";
const movedAsidePrefix = "documents.migrated-";
/** At most this many keys are named in a problem's sentence. */
const namedKeys = 5;

/**
 * The renderer's documents (theme, presets, question sets, the datasets' list and rows, prompt versions ...) in the
 * app's database: one row per key with its JSON text and revision. Each write is one transaction, committed before
 * it answers, and names the revision it is based on: a write based on an older one than the database holds (another
 * window wrote since) is refused with a 409, so no window silently replaces another's change. No bound on the number
 * of documents or their size but the gateway's request body limit. Text that does not parse is never dropped: it is
 * left out of what the page reads, reported, and copied to `documents_unreadable` before a write replaces it.
 */
export class DocumentStore {
    private readonly database: () => Promise<AppDatabase>;
    /** Each key's last write through this store: whose, which of its writes, and the revision it made. */
    private readonly lastWrites = new Map<string, {writer: string, sequence: number, revision: number}>();

    /** `database` opens the app's database (and copies the old folder of documents into it) at the first call. */
    public constructor(database: () => Promise<AppDatabase>) {
        this.database = database;
    }

    /** Every document with its revision, and what could not be read (sentences for the page). */
    public async read(): Promise<SavedDocuments> {
        const db = await this.database();
        const documents: Record<string, unknown> = {};
        const revisions: Record<string, number> = {};
        const unreadable: string[] = [];
        const rows = db.statement("SELECT key, value, revision FROM documents ORDER BY key").all() as Array<{key: string, value: string, revision: number}>;
        for (const row of rows) {
            revisions[row.key] = row.revision;
            try {
                documents[row.key] = JSON.parse(row.value);
            } catch {
                unreadable.push(row.key);
            }
        }
        return {documents, revisions, problems: problemsOf(db, unreadable)};
    }

    /** Every document that parses, by key. */
    public async all(): Promise<Record<string, unknown>> {
        return (await this.read()).documents;
    }

    /**
     * Replaces (or creates) the document `key`, committed when it resolves with its new revision. A 409 RevisionConflict
     * when another writer changed it since `write.revision`; a 400 when the key is no plain name or the value no JSON.
     */
    public async put(key: string, value: unknown, write: DocumentWrite = {}): Promise<{saved: boolean, revision: number}> {
        checkName("a document key", key);
        const text = JSON.stringify(value);
        if (text === undefined) throw new GatewayError(400, "invalid_request", "invalid_request_error", `document ${key} must be a JSON value`);
        const db = await this.database();
        return db.transaction(() => {
            const current = this.current(db, key);
            // What the database holds already (two windows saving the same defaults): nothing to change, nothing to refuse.
            if (current !== undefined && current.value === text) {
                this.remember(key, write, current.revision);
                return {saved: true, revision: current.revision};
            }
            if (this.overtaken(key, current, write)) return {saved: false, revision: current?.revision ?? 0};
            this.keepIfUnreadable(db, key, current);
            const revision = nextRevision(db);
            db.statement("INSERT INTO documents (key, value, revision, updated_at) VALUES (?, ?, ?, ?) " +
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value, revision = excluded.revision, updated_at = excluded.updated_at")
                .run(key, text, revision, Date.now());
            this.remember(key, write, revision);
            return {saved: true, revision};
        });
    }

    /**
     * Deletes the document `key`; true when there was one. With `write.revision`, a 409 RevisionConflict when another
     * writer changed it since; without, whatever is there is deleted.
     */
    public async remove(key: string, write: DocumentWrite = {}): Promise<boolean> {
        checkName("a document key", key);
        const db = await this.database();
        return db.transaction(() => {
            const current = this.current(db, key);
            if (current === undefined) {
                this.remember(key, write, 0);
                return false;
            }
            if (write.revision !== undefined && this.overtaken(key, current, write)) return false;
            this.keepIfUnreadable(db, key, current);
            db.statement("DELETE FROM documents WHERE key = ?").run(key);
            this.remember(key, write, 0);
            return true;
        });
    }

    /** The problems `read` reports about text kept aside stop being reported (the text stays); how many were. */
    public async acknowledgeProblems(): Promise<number> {
        const db = await this.database();
        return Number(db.transaction(() => db.statement("UPDATE documents_unreadable SET acknowledged_at = ? WHERE acknowledged_at IS NULL").run(Date.now()).changes));
    }

    private current(db: AppDatabase, key: string): {revision: number, valid: boolean, value: string} | undefined {
        const row = db.statement("SELECT value, revision, json_valid(value) AS valid FROM documents WHERE key = ?").get(key) as {value: string, revision: number, valid: number} | undefined;
        // SQLite's json_valid is strict RFC 8259, as JSON.parse; only what it refuses (nesting deeper than it allows, say) is parsed again.
        return row === undefined ? undefined : {revision: row.revision, value: row.value, valid: row.valid === 1 || parses(row.value)};
    }

    /**
     * True when the write is an older one of the writer whose newer write the database holds (it is dropped); throws a
     * RevisionConflict when it is based on an older revision than the database holds, written by someone else.
     */
    private overtaken(key: string, current: {revision: number} | undefined, write: DocumentWrite): boolean {
        const held = current?.revision ?? 0;
        const based = write.revision ?? 0;
        const last = this.lastWrites.get(key);
        const own = write.writer !== undefined && last?.writer === write.writer.id && last.revision === held;
        if (own && last.sequence > write.writer!.sequence) return true;
        if (held !== based && !own) throw new RevisionConflict(`document ${key}`, based, held);
        return false;
    }

    private remember(key: string, write: DocumentWrite, revision: number) {
        if (write.writer === undefined) this.lastWrites.delete(key);
        else this.lastWrites.set(key, {writer: write.writer.id, sequence: write.writer.sequence, revision});
    }

    /** Text that does not parse is copied to `documents_unreadable` before it is replaced or deleted. */
    private keepIfUnreadable(db: AppDatabase, key: string, current: {revision: number, valid: boolean, value: string} | undefined) {
        if (current === undefined || current.valid) return;
        db.statement("INSERT INTO documents_unreadable (key, value, revision, found_at) VALUES (?, ?, ?, ?)").run(key, current.value, current.revision, Date.now());
    }
}

/**
 * Copies the documents of the old store (`<dataDir>/documents/<key>.json`) into the database, once. The folder is first
 * renamed aside (`documents.migrated-<time>`), never deleted; then each folder moved aside and not yet imported is
 * copied in one transaction, recorded in `imported_folders` in the same one. So a crash anywhere leaves either the
 * folder to import at the next start or its documents in the database, and two gateways starting on the folder import
 * it once. A file that does not parse stays in the folder moved aside and is recorded in `documents_unreadable`, which
 * the page is told about. A key the database already holds keeps its value, unless the file was written after it (an
 * earlier version of the app ran on the folder since).
 */
export async function importDocumentsFolder(db: AppDatabase, dataDir: string, now = new Date()): Promise<void> {
    try {
        await rename(path.join(dataDir, legacyFolder), path.join(dataDir, movedAsidePrefix + now.toISOString().replace(/[:.]/g, "-")));
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const folders = (await readdir(dataDir, {withFileTypes: true})).filter((entry) => entry.isDirectory() && entry.name.startsWith(movedAsidePrefix)).map((entry) => entry.name).sort();
    const imported = new Set((db.statement("SELECT folder FROM imported_folders").all() as Array<{folder: string}>).map((row) => row.folder));
    for (const folder of folders.filter((name) => !imported.has(name))) {
        const files = await readFolder(path.join(dataDir, folder));
        db.transaction(() => {
            if (db.statement("SELECT 1 FROM imported_folders WHERE folder = ?").get(folder) !== undefined) return;
            let documents = 0;
            let unreadable = 0;
            for (const file of files) {
                if (!parses(file.text)) {
                    db.statement("INSERT INTO documents_unreadable (key, value, kept_in, found_at) VALUES (?, ?, ?, ?)")
                        .run(file.key, file.text, `${folder}/${file.key}.json`, now.getTime());
                    unreadable++;
                    continue;
                }
                const held = db.statement("SELECT updated_at FROM documents WHERE key = ?").get(file.key) as {updated_at: number | null} | undefined;
                if (held !== undefined && (held.updated_at ?? 0) >= file.modifiedAt) continue;
                db.statement("INSERT INTO documents (key, value, revision, updated_at) VALUES (?, ?, ?, ?) " +
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value, revision = excluded.revision, updated_at = excluded.updated_at")
                    .run(file.key, JSON.stringify(JSON.parse(file.text)), nextRevision(db), Math.round(file.modifiedAt));
                documents++;
            }
            db.statement("INSERT INTO imported_folders (folder, imported_at, documents, unreadable) VALUES (?, ?, ?, ?)").run(folder, now.getTime(), documents, unreadable);
        });
    }
}

/** The `<key>.json` files of a folder of the old store, as text; temporary files a crash left (`.tmp`) are not documents. */
async function readFolder(dir: string): Promise<Array<{key: string, text: string, modifiedAt: number}>> {
    const names = (await readdir(dir)).filter((name) => name.endsWith(".json")).sort();
    return Promise.all(names.map(async (name) => {
        const file = path.join(dir, name);
        const [text, info] = await Promise.all([readFile(file, "utf8"), stat(file)]);
        return {key: name.slice(0, -".json".length), text, modifiedAt: info.mtimeMs};
    }));
}

/** The next revision of any record (documents and datasets share the counter, so none is ever handed out twice). */
export function nextRevision(db: AppDatabase): number {
    return Number(db.statement("UPDATE revision_counter SET last = last + 1 WHERE id = 1 RETURNING last").pluck().get());
}

function parses(text: string): boolean {
    try {
        JSON.parse(text);
        return true;
    } catch {
        return false;
    }
}

/** The sentences the page shows about documents that could not be read: left out now, or kept aside and not yet acknowledged. */
function problemsOf(db: AppDatabase, unreadableNow: string[]): string[] {
    const problems: string[] = [];
    if (unreadableNow.length > 0)
        problems.push(`${count(unreadableNow.length)} in the app's database could not be read and ${unreadableNow.length === 1 ? "was" : "were"} left out (${listed(unreadableNow)}): ` +
            `${unreadableNow.length === 1 ? "its text stays" : "their text stays"} in ${db.filePath}, and is kept in its table documents_unreadable if saved over.`);
    const kept = db.statement("SELECT key, kept_in FROM documents_unreadable WHERE acknowledged_at IS NULL ORDER BY id").all() as Array<{key: string, kept_in: string | null}>;
    const byFolder = new Map<string, string[]>();
    const replaced: string[] = [];
    for (const row of kept) {
        if (row.kept_in === null) replaced.push(row.key);
        else {
            const folder = path.join(path.dirname(db.filePath), path.dirname(row.kept_in));
            byFolder.set(folder, [...byFolder.get(folder) ?? [], row.key]);
        }
    }
    for (const [folder, keys] of byFolder) problems.push(`${count(keys.length)} could not be read and ${keys.length === 1 ? "was" : "were"} kept in ${folder} (${listed(keys)}).`);
    if (replaced.length > 0)
        problems.push(`${count(replaced.length)} that could not be read ${replaced.length === 1 ? "was" : "were"} saved over (${listed(replaced)}): ` +
            `the earlier text is kept in ${db.filePath}, table documents_unreadable.`);
    return problems;
}

function count(documents: number): string {
    return documents === 1 ? "1 saved document" : `${documents} saved documents`;
}

function listed(keys: string[]): string {
    const unique = [...new Set(keys)];
    return unique.length <= namedKeys ? unique.join(", ") : `${unique.slice(0, namedKeys).join(", ")} and ${unique.length - namedKeys} more`;
}
