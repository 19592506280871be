import {appDataLimits, type SavedRun} from "../../protocol/gateway/contract.ts";
import {GatewayError} from "../api/answers.ts";
import type {AppDatabase} from "./AppDatabase.ts";
import {keptAsideSentences, leftOutSentence} from "./itemProblems.ts";
import {boundedJson, checkName, isName, parsedJson} from "./storedNames.ts";

/** A page of the history, newest first: `next` is the cursor of the page after it (null: none). */
export type RunPage = {entries: SavedRun[], next: string | null, total: number, problems: string[]};

/** Where a page starts: after the run created at `createdAt` with id `id`, in newest-first order. */
export type RunCursor = {createdAt: number, id: string};

const cursorPattern = /^(\d{1,16})-(.+)$/;

/**
 * The run history (playground and Decision studio runs) in the app's database, one row per run: the JSON the page
 * saved. Read a page at a time, newest first, through the index on (created_at, id), so a visit reads what it shows and
 * never the whole history. No bound on the number of runs or their total size: nothing is dropped but by the user.
 * Each write is one transaction, committed before it resolves. A stored run that does not have a run's shape is left
 * out of its page, where it is, and the page says so.
 */
export class RunHistory {
    private readonly database: () => Promise<AppDatabase>;

    public constructor(database: () => Promise<AppDatabase>) {
        this.database = database;
    }

    /** Saves a run (`id` a plain name, `createdAt` epoch milliseconds), replacing a saved run with the same id. */
    public async add(run: SavedRun): Promise<void> {
        if (run === null || typeof run !== "object" || Array.isArray(run))
            throw new GatewayError(400, "invalid_request", "invalid_request_error", "a run must be a JSON object");
        const id = checkName("a run id", run.id);
        if (!Number.isSafeInteger(run.createdAt) || run.createdAt < 0)
            throw new GatewayError(400, "invalid_request", "invalid_request_error", "createdAt: must be epoch milliseconds (a non-negative integer)");
        const text = boundedJson(`run ${id}`, run, appDataLimits.maxHistoryEntryBytes, "appDataLimits.maxHistoryEntryBytes");
        const db = await this.database();
        db.transaction(() => db.statement("INSERT INTO runs (id, created_at, value) VALUES (?, ?, ?) " +
            "ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, value = excluded.value").run(id, run.createdAt, text));
    }

    /**
     * Up to `limit` runs, newest first (by creation time, then id), after `after` (null: from the newest). The first page
     * also says what of the old history folder could not be moved in.
     */
    public async page(limit: number, after: RunCursor | null): Promise<RunPage> {
        const db = await this.database();
        const rows = (after === null
            ? db.statement("SELECT id, created_at, value FROM runs ORDER BY created_at DESC, id DESC LIMIT ?").all(limit + 1)
            : db.statement("SELECT id, created_at, value FROM runs WHERE (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?")
                .all(after.createdAt, after.id, limit + 1)) as Array<{id: string, created_at: number, value: string}>;
        const more = rows.length > limit;
        const shown = rows.slice(0, limit);
        const entries: SavedRun[] = [];
        const leftOut: string[] = [];
        for (const row of shown) {
            const run = readRun(row.value);
            if (run === null) leftOut.push(row.id);
            else entries.push(run);
        }
        const last = shown.at(-1);
        const total = Number(db.statement("SELECT count(*) FROM runs").pluck().get());
        const problems = [...leftOutSentence(db, "run", "runs", leftOut), ...after === null ? keptAsideSentences(db, "run") : []];
        return {entries, next: more && last !== undefined ? cursorText({createdAt: last.created_at, id: last.id}) : null, total, problems};
    }

    /** True when there was such a run. */
    public async remove(id: string): Promise<boolean> {
        checkName("a run id", id);
        const db = await this.database();
        return db.transaction(() => Number(db.statement("DELETE FROM runs WHERE id = ?").run(id).changes) > 0);
    }

    /** Deletes every run (those that could not be read too); answers how many there were. */
    public async clear(): Promise<number> {
        const db = await this.database();
        return db.transaction(() => Number(db.statement("DELETE FROM runs").run().changes));
    }
}

/** A page's cursor as the query carries it: `<createdAt>-<id>`. */
export function cursorText(cursor: RunCursor): string {
    return `${cursor.createdAt}-${cursor.id}`;
}

/** The cursor a query names (`after`), null for none; a 400 when it is no cursor. */
export function parseCursor(text: string | null): RunCursor | null {
    if (text === null || text === "") return null;
    const match = cursorPattern.exec(text);
    if (match === null || !isName(match[2]))
        throw new GatewayError(400, "invalid_request", "invalid_request_error", `after: must be a page's cursor (<createdAt>-<id>), got ${JSON.stringify(text.slice(0, 80))}`);
    return {createdAt: Number(match[1]), id: match[2]};
}

/** A stored run's JSON when it has a run's shape (an object with an id and a creation time), else null. */
export function readRun(text: string): SavedRun | null {
    const value = parsedJson(text);
    return isRun(value) ? value : null;
}

export function isRun(value: unknown): value is SavedRun {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
    const {id, createdAt} = value as Record<string, unknown>;
    return isName(id) && Number.isSafeInteger(createdAt) && (createdAt as number) >= 0;
}
