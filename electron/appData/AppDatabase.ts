import {closeSync, mkdirSync, openSync} from "node:fs";
import path from "node:path";
import {StatementCache} from "../../base/node/sqliteStatements.ts";
import type {SqliteBinding, SqliteDatabase, SqliteStatement} from "../../base/node/sqlite.ts";
import {GatewayError} from "../api/answers.ts";

/** The app's database, in the app's data folder. */
export const appDatabaseFile = "app.sqlite";

/**
 * Loads the SQLite binding. A dynamic import, never a static one: the Electron main process must start, and show its
 * window, even when a native addon cannot load there (electron/build/bundle.ts refuses a static import), so the binding
 * is loaded at the first call that needs the database and its failure is that call's.
 */
export async function loadSqliteBinding(): Promise<SqliteBinding> {
    return await import("@photostructure/sqlite");
}

/**
 * The schema, one entry per version: entry `n` takes the file from version `n` to `n + 1`, in the same transaction as
 * the bump of `schema_version`. Never edit a shipped entry; add one.
 */
export const appDatabaseMigrations: readonly string[] = [
    `
    -- The renderer's saved documents (settings, presets, the datasets' list and rows, prompt versions ...), one row per
    -- key: the JSON text the page sent, and the revision a write must be based on (revision_counter's value when it was
    -- written, so a key deleted and made again never gets back a revision a page may still hold).
    CREATE TABLE documents (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        revision INTEGER NOT NULL,
        updated_at INTEGER
    );
    CREATE TABLE revision_counter (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        last INTEGER NOT NULL
    );
    INSERT INTO revision_counter (id, last) VALUES (1, 0);
    -- Text that did not parse as JSON, kept instead of being dropped: a stored value a save was about to replace
    -- (revision: the one it had), or a file of the old documents folder (kept_in: that file, relative to the data folder).
    -- Reported to the page until acknowledged.
    CREATE TABLE documents_unreadable (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        revision INTEGER,
        kept_in TEXT,
        found_at INTEGER NOT NULL,
        acknowledged_at INTEGER
    );
    -- The old documents folders (documents.migrated-<time>, relative to the data folder) already copied into documents.
    CREATE TABLE imported_folders (
        folder TEXT PRIMARY KEY,
        imported_at INTEGER NOT NULL,
        documents INTEGER NOT NULL,
        unreadable INTEGER NOT NULL
    );
    `,
    `
    -- The saved datasets: what the list shows (info: columns, their types, label and model-visible columns, as JSON) and
    -- each row in a row of its own, by position, so a screen reads a page of rows and an edit writes one. A dataset's
    -- revision is bumped by every write to it or its rows; a write based on an older one is refused (409).
    CREATE TABLE datasets (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        info TEXT NOT NULL,
        row_count INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        revision INTEGER NOT NULL
    );
    CREATE TABLE dataset_rows (
        dataset_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        cells TEXT NOT NULL,
        PRIMARY KEY (dataset_id, position)
    ) WITHOUT ROWID;
    `,
    `
    -- The run history (playground and Decision studio runs): the JSON the page saved, by id, read a page at a time,
    -- newest first (created_at, then id, descending, through runs_by_time).
    CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        value TEXT NOT NULL
    );
    CREATE INDEX runs_by_time ON runs (created_at, id);
    -- Scoring jobs and experiments (kind), each with its record (JSON: status, totals, spec), the table it scores
    -- (job_tables; none for a job the runner made without one) and one result per row index (job_results; for an
    -- experiment one per cell), the first kept. Nothing is removed but by a delete the user asked for. A job's id is never
    -- given again (AUTOINCREMENT), so rows another program left behind a job it deleted never become a new job's.
    CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('scoring', 'experiment')),
        job_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        record TEXT NOT NULL,
        UNIQUE (kind, job_id)
    );
    CREATE INDEX jobs_by_time ON jobs (kind, created_at, job_id);
    CREATE TABLE job_tables (
        job INTEGER PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE job_results (
        job INTEGER NOT NULL,
        row_index INTEGER NOT NULL,
        ok INTEGER NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (job, row_index)
    );
    CREATE INDEX job_results_by_outcome ON job_results (job, ok);
    -- The old folders of runs, scoring jobs and experiments (<name>.migrated-<time>, relative to the data folder) already
    -- copied in, and what in them could not be read: the file stays there (kept_in), reported until acknowledged.
    CREATE TABLE imported_item_folders (
        folder TEXT PRIMARY KEY,
        imported_at INTEGER NOT NULL,
        items INTEGER NOT NULL,
        unreadable INTEGER NOT NULL
    );
    CREATE TABLE items_unreadable (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('run', 'scoring', 'experiment')),
        kept_in TEXT NOT NULL,
        reason TEXT NOT NULL,
        found_at INTEGER NOT NULL,
        acknowledged_at INTEGER
    );
    `,
    `
    -- The origins (http://127.0.0.1:<port>) whose browser storage earlier versions of the app used, already moved in:
    -- each once, with what it held.
    CREATE TABLE imported_origins (
        port INTEGER PRIMARY KEY,
        imported_at INTEGER NOT NULL,
        summary TEXT NOT NULL
    );
    `,
    `
    -- Saved prompts and question sets (items) and their versions. A version is never changed once saved, and its
    -- number is given here, the item's latest plus one, so two windows saving at once both keep theirs.
    CREATE TABLE prompt_items (
        item_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        latest INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    );
    CREATE TABLE prompt_versions (
        item_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        note TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (item_id, version)
    ) WITHOUT ROWID;
    `
];

export type AppDatabaseOptions = {
    /** Default loadSqliteBinding; tests pass one that fails. */
    loadBinding?: () => Promise<SqliteBinding>,
    migrations?: readonly string[]
};

/**
 * The app's SQLite database (`app.sqlite` in its data folder), opened by the gateway at the first call that needs it.
 * WAL, so a reader never waits for a writer; `synchronous = FULL`, so a transaction that has committed is on the disk
 * (WAL synced at every commit) and survives a power cut; a busy timeout, so a second gateway on the same folder waits
 * for the other's short transaction. Every statement runs on the main thread: a document is written and committed
 * before its route answers.
 */
export class AppDatabase {
    public readonly filePath: string;
    private readonly db: SqliteDatabase;
    private readonly statements: StatementCache<SqliteStatement>;

    private constructor(db: SqliteDatabase, filePath: string) {
        this.db = db;
        this.statements = new StatementCache(db);
        this.filePath = filePath;
    }

    /**
     * Opens (creating) `<dir>/app.sqlite` and applies the migrations it has not seen. A binding that does not load is a
     * 503 that says so; a file from a newer version of the app is refused, not guessed at.
     */
    public static async open(dir: string, options: AppDatabaseOptions = {}): Promise<AppDatabase> {
        let binding: SqliteBinding;
        try {
            binding = await (options.loadBinding ?? loadSqliteBinding)();
        } catch (error) {
            throw new GatewayError(503, "app_database_unavailable", "api_error",
                `the app's database could not be opened: its SQLite binding (@photostructure/sqlite) did not load (${(error as Error).message}). ` +
                "Saved settings, presets, datasets, prompt versions, run history, scoring jobs and experiments cannot be read or saved until it does: reinstall the app.");
        }
        try {
            mkdirSync(dir, {recursive: true, mode: 0o700});
        } catch (error) {
            // A file where the data folder should be: said as what it is.
            if ((error as NodeJS.ErrnoException).code === "EEXIST") throw Object.assign(new Error(`${dir} is not a folder`), {code: "ENOTDIR"});
            throw error;
        }
        const filePath = path.join(path.resolve(dir), appDatabaseFile);
        createPrivately(filePath);
        const db = binding.enhance(new binding.DatabaseSync(filePath));
        try {
            db.pragma("journal_mode = WAL");
            db.pragma("synchronous = FULL");
            db.pragma("busy_timeout = 5000");
            migrate(db, options.migrations ?? appDatabaseMigrations);
        } catch (error) {
            db.close();
            throw error;
        }
        return new AppDatabase(db, filePath);
    }

    /** The prepared statement for `sql`, prepared once per connection. */
    public statement(sql: string): SqliteStatement {
        return this.statements.get(sql);
    }

    /** Runs `work` in one `BEGIN IMMEDIATE` transaction: all of it is committed (and synced) when it returns, or none. */
    public transaction<T>(work: () => T): T {
        return this.db.transaction(work).immediate();
    }

    /** A pragma's value on this connection (`journal_mode`, `synchronous` ...). */
    public pragma(name: string): unknown {
        return this.db.pragma(name, {simple: true});
    }

    public schemaVersion(): number {
        return readVersion(this.db);
    }

    public get isOpen(): boolean {
        return this.db.isOpen;
    }

    /** Closes the connection; the last one to close folds the WAL back into the file. */
    public close(): void {
        if (this.db.isOpen) this.db.close();
    }
}

/**
 * Applies the migrations the file has not seen, each in its own transaction with its `schema_version` bump, so a crash
 * mid-way leaves the file at the last complete version, and two gateways opening the file at once apply each once.
 */
function migrate(db: SqliteDatabase, migrations: readonly string[]) {
    db.exec("CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)");
    db.exec("INSERT OR IGNORE INTO schema_version (id, version) VALUES (1, 0)");
    const version = readVersion(db);
    if (version > migrations.length)
        throw new GatewayError(500, "app_database_too_new", "api_error",
            `the app's database is at schema version ${version}, newer than this version of the app knows (${migrations.length}): update the app`);
    for (let next = version; next < migrations.length; next++) {
        db.transaction(() => {
            // Read again inside the transaction: another process may have applied it since.
            if (readVersion(db) !== next) return;
            db.exec(migrations[next]);
            db.prepare("UPDATE schema_version SET version = ? WHERE id = 1").run(next + 1);
        }).immediate();
    }
}

function readVersion(db: SqliteDatabase): number {
    return Number(db.prepare("SELECT version FROM schema_version WHERE id = 1").pluck().get());
}

/** An empty database file readable by its owner only, as the app's other files are; SQLite would create it 0644. */
function createPrivately(filePath: string) {
    try {
        closeSync(openSync(filePath, "wx", 0o600));
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
}
