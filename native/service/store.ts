import Database from "better-sqlite3";
import {mkdirSync} from "node:fs";
import path from "node:path";
import {migrations} from "./migrations.ts";

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
    public readonly db: Database.Database;
    public readonly filePath: string;
    private readonly statements = new Map<string, Database.Statement>();

    private constructor(db: Database.Database, filePath: string) {
        this.db = db;
        this.filePath = filePath;
    }

    /** Opens (creating) `<dataDir>/service.db` and brings its schema up to date. */
    public static open(dataDir: string): ServiceStore {
        mkdirSync(dataDir, {recursive: true});
        const filePath = path.join(path.resolve(dataDir), serviceDbFile);
        const db = new Database(filePath);
        try {
            db.pragma("journal_mode = WAL");
            db.pragma("synchronous = NORMAL");
            db.pragma("foreign_keys = ON");
            // The CLI and the server write the same file; a writer waits for the other's short transaction.
            db.pragma("busy_timeout = 5000");
            migrate(db);
        } catch (error) {
            db.close();
            throw error;
        }
        return new ServiceStore(db, filePath);
    }

    /** The prepared statement for `sql`, prepared once per connection: lookups run on every request's path. */
    public statement(sql: string): Database.Statement {
        let statement = this.statements.get(sql);
        if (statement == null) {
            statement = this.db.prepare(sql);
            this.statements.set(sql, statement);
        }
        return statement;
    }

    /** Runs `work` in one `BEGIN IMMEDIATE` transaction: all of it is committed, or none. */
    public transaction<T>(work: () => T): T {
        return this.db.transaction(work).immediate();
    }

    public close() {
        if (this.db.open) this.db.close();
    }
}

/**
 * Applies the migrations the file has not seen, each in its own transaction with its `user_version` bump, so a
 * crash mid-way leaves the file at the last complete version. A file from a newer engine is refused, not guessed at.
 */
export function migrate(db: Database.Database) {
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
