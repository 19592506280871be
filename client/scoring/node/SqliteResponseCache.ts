import {createHash} from "node:crypto";
import {mkdir} from "node:fs/promises";
import path from "node:path";
import {openSqlite, type SqliteDatabase, type SqliteStatement} from "../../../base/node/sqlite.ts";
import {userCacheDir} from "../../../base/node/userDataDir.ts";
import {defaultResponseCacheBytes, type CachedResponse, type ResponseCache} from "../responseCache.ts";

export type SqliteResponseCacheOptions = {
    /**
     * At most this many bytes of answers (each counted as its key's hash and its JSON, in UTF-8); putting one more
     * drops the least recently used (read or put) first. Default defaultResponseCacheBytes. An answer larger than
     * the bound is not kept. The file stays about that size: the pages of evicted answers are reused.
     */
    maxBytes?: number
};

const schema = `
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    used INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS responses_used ON responses (used);
CREATE TABLE IF NOT EXISTS totals (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    bytes INTEGER NOT NULL,
    clock INTEGER NOT NULL
);
INSERT OR IGNORE INTO totals (id, bytes, clock) VALUES (1, 0, 0);
`;

/**
 * ResponseCache in a SQLite file (Node only), bounded by size with least-recently-used eviction. Rows are keyed
 * by the SHA-256 of the cache key (keys hold whole request bodies); `used` is a counter bumped by every read and
 * put, so eviction order is exact even within one millisecond, and the byte total is kept in the same
 * transaction as each change. Several processes may share the file (WAL, busy timeout); a lost last write on a
 * power cut costs only a request (synchronous NORMAL).
 */
export class SqliteResponseCache implements ResponseCache {
    public readonly filePath: string;
    public readonly maxBytes: number;
    private readonly db: SqliteDatabase;
    private readonly select: SqliteStatement;
    private readonly tick: SqliteStatement;
    private readonly touch: SqliteStatement;
    private readonly sizeOf: SqliteStatement;
    private readonly upsert: SqliteStatement;
    private readonly addBytes: SqliteStatement;
    private readonly total: SqliteStatement;
    private readonly oldest: SqliteStatement;
    private readonly remove: SqliteStatement;

    public constructor(filePath: string, options: SqliteResponseCacheOptions = {}) {
        this.filePath = filePath;
        this.maxBytes = options.maxBytes ?? defaultResponseCacheBytes;
        if (!(this.maxBytes > 0)) throw new RangeError(`maxBytes must be above 0, got ${this.maxBytes}`);
        this.db = openSqlite(filePath);
        this.db.pragma("journal_mode = WAL");
        this.db.pragma("synchronous = NORMAL");
        this.db.pragma("busy_timeout = 5000");
        this.db.exec(schema);
        this.select = this.db.prepare("SELECT value FROM responses WHERE key = ?").pluck();
        this.tick = this.db.prepare("UPDATE totals SET clock = clock + 1 WHERE id = 1 RETURNING clock").pluck();
        this.touch = this.db.prepare("UPDATE responses SET used = ? WHERE key = ?");
        this.sizeOf = this.db.prepare("SELECT bytes FROM responses WHERE key = ?").pluck();
        this.upsert = this.db.prepare("INSERT INTO responses (key, value, bytes, used) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, bytes = excluded.bytes, used = excluded.used");
        this.addBytes = this.db.prepare("UPDATE totals SET bytes = bytes + ? WHERE id = 1");
        this.total = this.db.prepare("SELECT bytes FROM totals WHERE id = 1").pluck();
        this.oldest = this.db.prepare("SELECT key, bytes FROM responses ORDER BY used LIMIT 64");
        this.remove = this.db.prepare("DELETE FROM responses WHERE key = ?");
    }

    public async get(key: string): Promise<CachedResponse | undefined> {
        const hash = hashKey(key);
        const read = this.db.transaction(() => {
            const value = this.select.get(hash) as string | undefined;
            if (value !== undefined) this.touch.run(this.tick.get() as number, hash);
            return value;
        });
        const value = read.immediate();
        return value === undefined ? undefined : JSON.parse(value) as CachedResponse;
    }

    public async put(key: string, value: CachedResponse): Promise<void> {
        const hash = hashKey(key);
        const text = JSON.stringify(value);
        const bytes = hash.length + Buffer.byteLength(text, "utf8");
        if (bytes > this.maxBytes) return;
        const write = this.db.transaction(() => {
            const previous = (this.sizeOf.get(hash) as number | undefined) ?? 0;
            this.upsert.run(hash, text, bytes, this.tick.get() as number);
            this.addBytes.run(bytes - previous);
            this.evict();
        });
        write.immediate();
    }

    /** Entries and bytes held now. */
    public stats(): {entries: number, bytes: number} {
        const entries = this.db.prepare("SELECT COUNT(*) FROM responses").pluck().get() as number;
        return {entries, bytes: this.total.get() as number};
    }

    public close() {
        if (this.db.isOpen) this.db.close();
    }

    /** Drops the least recently used entries until the total is within the bound (inside the caller's transaction). */
    private evict() {
        let total = this.total.get() as number;
        while (total > this.maxBytes) {
            const rows = this.oldest.all() as Array<{key: string, bytes: number}>;
            if (rows.length === 0) break;
            for (const row of rows) {
                if (total <= this.maxBytes) break;
                this.remove.run(row.key);
                total -= row.bytes;
                this.addBytes.run(-row.bytes);
            }
        }
    }
}

function hashKey(key: string): string {
    return createHash("sha256").update(key).digest("hex");
}

/** The CLIs' default cache file: `responses.sqlite` in the user's cache folder (userCacheDir). */
export function defaultResponseCacheFile(env: NodeJS.ProcessEnv = process.env): string {
    return path.join(userCacheDir(env), "responses.sqlite");
}

/**
 * The response cache of `eval` and `score`: none with --no-cache; the --cache file, which must open (else this
 * throws); or the default file, its folder created, skipped with a warning when it cannot be opened (a read-only
 * home folder costs requests, not the run).
 */
export async function openCliResponseCache(flags: {cache: string | undefined, noCache: boolean}, warn: (line: string) => void): Promise<SqliteResponseCache | null> {
    if (flags.noCache) return null;
    if (flags.cache !== undefined) return new SqliteResponseCache(flags.cache);
    const file = defaultResponseCacheFile();
    try {
        await mkdir(path.dirname(file), {recursive: true});
        return new SqliteResponseCache(file);
    } catch (error) {
        warn(`the response cache ${file} cannot be opened (${error instanceof Error ? error.message : String(error)}): every request is sent; --cache <file> names another`);
        return null;
    }
}
