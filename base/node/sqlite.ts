// SQLite for the engine's service store and the scoring CLI's result store, through @photostructure/sqlite: the
// `node:sqlite` API as a Node-API addon. Node-API is ABI-stable, so the one build that npm installs loads in Node
// (the CLI, `npm test`) and in Electron's Node mode (the app's engine) alike, with no rebuild per runtime: the
// better-sqlite3 addon it replaces is built for one Node ABI only, and Electron 41's (145) is not Node 20's (115).
// `enhance` adds better-sqlite3's `pragma()` and `transaction().immediate()` on top of `node:sqlite`'s API.
// The Electron main process must not load the binding at start-up: it imports only types from here and loads the
// binding itself with a dynamic import (electron/appData/AppDatabase.ts).
import {DatabaseSync, enhance, type DatabaseSyncInstance, type EnhancedDatabaseSync, type StatementSyncInstance} from "@photostructure/sqlite";

export type SqliteDatabase = EnhancedDatabaseSync<DatabaseSyncInstance>;
export type SqliteStatement = ReturnType<SqliteDatabase["prepare"]>;
export type {StatementSyncInstance};

/** The binding's two entry points: what a process that loads it with `await import(...)` opens a database with. */
export type SqliteBinding = {DatabaseSync: typeof DatabaseSync, enhance: typeof enhance};

/** The npm package that provides the binding; a worker thread opens its own connection through it (store.ts). */
export const sqliteDriver = "@photostructure/sqlite";

/** Opens (creating, unless `readOnly`) the database file at `filePath`. */
export function openSqlite(filePath: string, options: {readOnly?: boolean} = {}): SqliteDatabase {
    return enhance(new DatabaseSync(filePath, {readOnly: options.readOnly === true}));
}
