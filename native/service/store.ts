import {closeSync, mkdirSync, openSync} from "node:fs";
import path from "node:path";
import {StatementCache} from "../../base/node/sqliteStatements.ts";
import {createRequire} from "node:module";
import {openSqlite, sqliteDriver, type SqliteDatabase, type SqliteStatement} from "../../base/node/sqlite.ts";
import {Worker} from "node:worker_threads";

/** The file, in the data folder (`--data-dir`), that holds organizations, workspaces, keys, prices and the ledger. */
export const serviceDbFile = "service.db";

/** A store fault a person can act on (a newer schema, a broken file); `code` is stable. */
export class ServiceStoreError extends Error {
    public readonly code: "schema_too_new" | "not_found" | "conflict" | "invalid";

    public constructor(code: ServiceStoreError["code"], message: string) {
        super(message);
        this.name = "ServiceStoreError";
        this.code = code;
    }
}

/**
 * The service's SQLite database, shared by `svc-studio serve` and `svc-studio admin` (each process opens its own
 * connection). WAL lets the server read while the CLI writes. `synchronous = NORMAL` in WAL mode keeps every
 * committed transaction through a killed or crashed process (the SIGKILL test); only a power cut can take
 * back the last commits, a trade made so a charge costs no fsync on the request path (the 0.3 ms budget).
 */
export class ServiceStore {
    public readonly db: SqliteDatabase;
    public readonly filePath: string;
    private readonly statements: StatementCache<SqliteStatement>;
    private readonly checkpointer?: WalCheckpointer;

    private constructor(db: SqliteDatabase, filePath: string, checkpointer?: WalCheckpointer) {
        this.db = db;
        this.statements = new StatementCache(db);
        this.filePath = filePath;
        this.checkpointer = checkpointer;
    }

    /**
     * Opens (creating) `<dataDir>/service.db` and brings its schema up to date. The server passes
     * `backgroundCheckpoints`, so no request waits for a checkpoint's fsync (WalCheckpointer, below).
     */
    public static open(dataDir: string, {backgroundCheckpoints = false} = {}): ServiceStore {
        mkdirSync(dataDir, {recursive: true});
        const filePath = path.join(path.resolve(dataDir), serviceDbFile);
        createPrivately(filePath);
        const db = openSqlite(filePath);
        try {
            db.pragma("journal_mode = WAL");
            db.pragma("synchronous = NORMAL");
            db.pragma("foreign_keys = ON");
            // The CLI and the server write the same file; a writer waits for the other's short transaction.
            db.pragma("busy_timeout = 5000");
            migrate(db);
            if (backgroundCheckpoints) {
                db.pragma("wal_autocheckpoint = 0");
                // A second of charges can grow the WAL past SQLite's usual size; cut it back once checkpointed.
                db.pragma(`journal_size_limit = ${16 * 1024 * 1024}`);
            }
        } catch (error) {
            db.close();
            throw error;
        }
        return new ServiceStore(db, filePath, backgroundCheckpoints ? new WalCheckpointer(filePath) : undefined);
    }

    /** The prepared statement for `sql`, prepared once per connection: lookups run on every request's path. */
    public statement(sql: string): SqliteStatement {
        return this.statements.get(sql);
    }

    /** Runs `work` in one `BEGIN IMMEDIATE` transaction: all of it is committed, or none. */
    public transaction<T>(work: () => T): T {
        return this.db.transaction(work).immediate();
    }

    /**
     * Closes the connection. The promise settles once the checkpoint worker has closed its own connection too:
     * the last connection to close deletes the `-wal` and `-shm` files, so the folder is only settled then
     * (removing it earlier raced that deletion: ENOTEMPTY).
     */
    public close(): Promise<void> {
        if (this.db.isOpen) this.db.close();
        return this.checkpointer?.stop() ?? Promise.resolve();
    }
}

/**
 * Creates an empty database file readable by its owner only (0600), since it holds key hashes and the ledger; SQLite
 * would create it 0644, and gives its `-wal` and `-shm` files the main file's mode. An existing file is left as it is.
 */
function createPrivately(filePath: string) {
    try {
        closeSync(openSync(filePath, "wx", 0o600));
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
}

/**
 * Applies the migrations the file has not seen, each in its own transaction with its `user_version` bump, so a
 * crash mid-way leaves the file at the last complete version. A file from a newer engine is refused, not guessed at.
 */
export function migrate(db: SqliteDatabase) {
    const version = db.pragma("user_version", {simple: true}) as number;
    if (version > migrations.length)
        throw new ServiceStoreError("schema_too_new", `the service database is at schema version ${version}, newer than this engine knows ` +
            `(${migrations.length}); use a newer svc-studio`);
    for (let next = version; next < migrations.length; next++) {
        db.transaction(() => {
            db.exec(migrations[next]);
            db.pragma(`user_version = ${next + 1}`);
        }).immediate();
    }
}

/** Epoch milliseconds as the ISO text the admin contract carries. */
export function isoTime(ms: number): string;
export function isoTime(ms: number | null): string | null;
export function isoTime(ms: number | null): string | null {
    return ms == null ? null : new Date(ms).toISOString();
}

/** A random id with a readable prefix (`ws_...`), as the admin contract shows them. */
export function newId(prefix: string): string {
    return `${prefix}_${globalThis.crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

// The service database's schema, as an append-only list: entry i takes `PRAGMA user_version` from i to i + 1
// (`migrate` above applies them). Never edit a shipped entry; add one. PostgreSQL applies the same list, its types
// translated (postgres/schema.ts), so write each entry in the SQL both understand.
//
// Money columns are integer micro-units (protocol/admin/money.ts); times are epoch milliseconds.

export const migrations: string[] = [
    // 1: organizations and workspaces (spec §1 rule 5), keys stored as hashes (§5), credits, prices (§2.3), rate
    // limits (§8) and the usage ledger (§7 "Charging").
    `
    CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id),
        name TEXT NOT NULL,
        activated_at INTEGER,
        -- Kept equal to SUM(credits) - SUM(usage.cost_micros) by every write (billing.ts), read on each request.
        balance_micros INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        UNIQUE (organization_id, name)
    );
    CREATE TABLE credits (
        id INTEGER PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        amount_micros INTEGER NOT NULL,
        note TEXT,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        name TEXT NOT NULL,
        owner_user TEXT,
        visibility TEXT NOT NULL CHECK (visibility IN ('private', 'shared')),
        -- The public part of the key, used to find its row; the secret is only ever stored as secret_hash.
        lookup TEXT NOT NULL UNIQUE,
        secret_hash BLOB NOT NULL,
        created_at INTEGER NOT NULL,
        issued_at INTEGER NOT NULL,
        revoked_at INTEGER
    );
    CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id);
    CREATE TABLE prices (
        model TEXT PRIMARY KEY,
        input_micros_per_million INTEGER NOT NULL,
        cached_input_micros_per_million INTEGER NOT NULL,
        output_micros_per_million INTEGER NOT NULL
    );
    CREATE TABLE rate_limits (
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        model TEXT NOT NULL,
        requests_per_minute INTEGER,
        tokens_per_minute INTEGER,
        PRIMARY KEY (workspace_id, model)
    );
    -- One row per charged request, written in the same transaction as the balance change: request_id is UNIQUE,
    -- so no request is charged twice.
    CREATE TABLE usage (
        id INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL UNIQUE,
        trace_id TEXT,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        key_id TEXT NOT NULL REFERENCES api_keys(id),
        model TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        day TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        uncached_input_tokens INTEGER NOT NULL,
        cached_input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        cost_micros INTEGER NOT NULL
    );
    CREATE INDEX usage_by_workspace_day ON usage (workspace_id, day);
    `,
    // 2: what several servers on one PostgreSQL database share (postgres/): the credit held by requests in flight,
    // a row per hold so that a killed server's holds expire, and the rate-limit buckets. A server on SQLite keeps
    // holds and buckets in its own memory and leaves these empty.
    `
    ALTER TABLE workspaces ADD COLUMN held_micros INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE holds (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        micros INTEGER NOT NULL,
        front TEXT NOT NULL,
        expires_at INTEGER NOT NULL
    );
    CREATE INDEX holds_by_expiry ON holds (expires_at);
    CREATE TABLE rate_buckets (
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        model TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('requests', 'tokens')),
        level DOUBLE PRECISION NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (workspace_id, model, kind)
    );
    `
];

/**
 * The worker's code, plain CommonJS so it runs as is from TypeScript sources and from the engine bundle alike (an
 * eval worker loads no file of ours). Its own connection checkpoints the WAL into the database file every
 * `intervalMs`; PASSIVE never waits for, nor blocks, the server's readers and writers.
 */
const workerSource = `
const {parentPort, workerData} = require("node:worker_threads");
const {DatabaseSync} = require(workerData.driver);
const db = new DatabaseSync(workerData.file);
db.exec("PRAGMA busy_timeout = 1000");
const timer = setInterval(() => {
    try {
        db.exec("PRAGMA wal_checkpoint(PASSIVE)");
    } catch {
        // Busy or locked: the next tick tries again; the WAL only grows meanwhile.
    }
}, workerData.intervalMs);
parentPort.once("message", () => {
    clearInterval(timer);
    db.close();
    parentPort.close();
});
`;

/**
 * Moves the WAL checkpoint off the request path. A checkpoint is what fsyncs (WAL with `synchronous = NORMAL`
 * commits without one), and SQLite's automatic checkpoint runs inside whichever commit crosses 1,000 pages: on
 * the server that is a request's charge, measured here at 5-120 ms on a request every few hundred. The server's
 * connection turns the automatic checkpoint off (`wal_autocheckpoint = 0`) and this worker thread checkpoints on
 * a timer instead, so the event loop never waits for the disk.
 */
export class WalCheckpointer {
    private readonly worker: Worker;

    public constructor(file: string, intervalMs = 1_000) {
        const driver = createRequire(import.meta.url).resolve(sqliteDriver);
        this.worker = new Worker(workerSource, {eval: true, workerData: {file, driver, intervalMs}});
        this.worker.unref();
        this.worker.on("error", (error) => console.error("WAL checkpoint worker failed:", error));
    }

    private stopped?: Promise<void>;

    /** Asks the worker to close its connection and end; settles when its thread has exited. */
    public stop(): Promise<void> {
        this.stopped ??= new Promise<void>((resolve) => {
            this.worker.once("exit", () => resolve());
            // Unreferenced while it works; waited for now, so it must keep the process alive until it has exited.
            this.worker.ref();
            // A worker that already ended (it failed to open the file) exits no more: terminate settles at once.
            this.worker.postMessage("close");
            if (this.worker.threadId === -1) resolve();
        });
        return this.stopped;
    }
}
