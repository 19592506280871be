import type {ServiceBackend} from "./backend.ts";
import {SqliteBackend} from "./sqliteBackend.ts";

/**
 * The service store of `serve` and `admin`: the PostgreSQL database at `databaseUrl` when one is given (several
 * fronts share it), else `<dataDir>/service.db` (one server). `server` moves SQLite's checkpoints off the request
 * path (store.ts); `front` names the process on PostgreSQL.
 */
export async function openServiceBackend({dataDir, databaseUrl, server = false, front}: {
    dataDir: string, databaseUrl?: string, server?: boolean, front?: string
}): Promise<ServiceBackend> {
    // Loaded only when asked for: a server on SQLite never loads the PostgreSQL driver.
    if (databaseUrl != null) return (await import("./postgres/PostgresBackend.ts")).PostgresBackend.open(databaseUrl, {front});
    return SqliteBackend.open(dataDir, {backgroundCheckpoints: server});
}
