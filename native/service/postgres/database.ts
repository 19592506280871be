import {createHash} from "node:crypto";
import pg from "pg";
import {ApiError} from "../../../protocol/errors.ts";
import {migrations, ServiceStoreError} from "../store.ts";

/**
 * How long a front waits on the database before answering 503: a connection (or a free one of the pool), a
 * statement on the server, a reply on the wire. Short, since a request waits on each of them.
 */
export const databaseTimeouts = {connectMs: 2_000, statementMs: 5_000, queryMs: 6_000, idleInTransactionMs: 10_000};

/** The money and time columns are BIGINT (and their sums NUMERIC): read as numbers, exact below 2^53. */
const types = {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC ? (text: string) => Number(text) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser
};

export type Queryable = {query<R>(text: string, values?: unknown[]): Promise<R[]>};

/**
 * A pool of connections to the service database (node-postgres): TLS as the URL's `sslmode` or `PGSSLMODE` says,
 * every statement prepared once per connection under a name derived from its text, and every fault that means
 * "the database cannot be reached now" turned into the spec's 503 `service_unavailable`, so a request never waits
 * past the timeouts above and the pool reconnects by itself once the database is back.
 */
export class PgDatabase implements Queryable {
    public readonly pool: pg.Pool;
    private readonly names = new Map<string, string>();

    public constructor(url: string, {max = 10, applicationName = "svc-studio"}: {max?: number, applicationName?: string} = {}) {
        this.pool = new pg.Pool({
            connectionString: url, max, types,
            connectionTimeoutMillis: databaseTimeouts.connectMs,
            statement_timeout: databaseTimeouts.statementMs,
            query_timeout: databaseTimeouts.queryMs,
            idle_in_transaction_session_timeout: databaseTimeouts.idleInTransactionMs,
            application_name: applicationName,
            keepAlive: true
        });
        // An idle connection the server closed (a restart) is dropped from the pool; nothing else to do.
        this.pool.on("error", () => {});
    }

    public async query<R>(text: string, values: unknown[] = []): Promise<R[]> {
        try {
            return (await this.pool.query({name: this.nameOf(text), text, values})).rows as R[];
        } catch (error) {
            throw asUnavailable(error);
        }
    }

    /** Runs `work` in one transaction on one connection: all of it is committed, or none. */
    public async transaction<T>(work: (client: Queryable) => Promise<T>): Promise<T> {
        const client = await this.pool.connect().catch((error: unknown) => {
            throw asUnavailable(error);
        });
        let broken = false;
        try {
            await client.query("BEGIN");
            // Without values, the simple protocol: a migration is several statements, which one prepared statement cannot hold.
            const result = await work({query: async <R>(text: string, values: unknown[] = []) =>
                (values.length === 0 ? await client.query(text) : await client.query({name: this.nameOf(text), text, values})).rows as R[]});
            await client.query("COMMIT");
            return result;
        } catch (error) {
            await client.query("ROLLBACK").catch(() => broken = true);
            throw asUnavailable(error);
        } finally {
            client.release(broken);
        }
    }

    /**
     * Brings the schema up to date: the migrations of store.ts in PostgreSQL's types, under an advisory lock, so
     * fronts starting together migrate once. A database from a newer engine is refused, as a newer SQLite file is.
     */
    public async migrate(): Promise<{from: number, to: number}> {
        return this.transaction(async (client) => {
            await client.query("SELECT pg_advisory_xact_lock(7265531)");
            await client.query("CREATE TABLE IF NOT EXISTS svc_schema_version (version INTEGER NOT NULL)");
            const [row] = await client.query<{version: number}>("SELECT version FROM svc_schema_version");
            if (row == null) await client.query("INSERT INTO svc_schema_version (version) VALUES (0)");
            const from = row?.version ?? 0;
            if (from > migrations.length)
                throw new ServiceStoreError("schema_too_new", `the service database is at schema version ${from}, newer than this engine knows ` +
                    `(${migrations.length}); use a newer svc-studio`);
            for (let next = from; next < migrations.length; next++) await client.query(postgresDialect(migrations[next]));
            await client.query("UPDATE svc_schema_version SET version = $1", [migrations.length]);
            return {from, to: migrations.length};
        });
    }

    public async close() {
        await this.pool.end();
    }

    private nameOf(text: string): string {
        let name = this.names.get(text);
        if (name == null) {
            name = `svc_${createHash("sha256").update(text).digest("hex").slice(0, 20)}`;
            this.names.set(text, name);
        }
        return name;
    }
}

/**
 * A migration of store.ts in PostgreSQL's types: 64-bit integers (money, epoch milliseconds), an identity column
 * for SQLite's rowid key, BYTEA for BLOB. The statements themselves are the SQL both databases understand.
 */
export function postgresDialect(sql: string): string {
    return sql.replace(/\bINTEGER PRIMARY KEY\b/g, "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
        .replace(/\bINTEGER\b/g, "BIGINT")
        .replace(/\bBLOB\b/g, "BYTEA");
}

/** SQLSTATE classes of a database that cannot serve now: connection, resources, shutdown, system errors. */
const unavailableClasses = /^(08|53|57|58)/;
const networkCodes = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** The spec's 503 for a database that cannot be reached now (§7: retry with backoff); any other error as it is. */
export function asUnavailable(error: unknown): unknown {
    if (error instanceof ApiError || error instanceof ServiceStoreError) return error;
    const code = (error as {code?: unknown}).code;
    const message = error instanceof Error ? error.message : String(error);
    const down = error instanceof pg.DatabaseError
        ? typeof code === "string" && unavailableClasses.test(code)
        : (typeof code === "string" && networkCodes.has(code)) || /connect|Connection terminated|timeout|not queryable|closed/i.test(message);
    if (!down) return error;
    return new ApiError(503, "service_unavailable", `the service database is unavailable (${message}); retry shortly`, {retryAfter: 1});
}
