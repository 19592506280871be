import {mkdir, open, rename, rm} from "node:fs/promises";
import path from "node:path";
import type {SqliteBinding} from "../../base/node/sqlite.ts";
import {ApiError} from "../../protocol/errors.ts";
import {GatewayError, type GatewayHandlers} from "../api/answers.ts";
import {appDatabaseFile, appDatabaseMigrations, type AppDatabase} from "./AppDatabase.ts";

/** The largest backup the app restores; a bigger file is refused with this bound named. */
export const maxBackupBytes = 16 * 1024 * 1024 * 1024;

/** The first 16 bytes of every SQLite database file. */
const sqliteHeader = "SQLite format 3\0";

/** A file name for a moment: `2026-11-28T12-00-00-000Z`. */
export function timestamp(now = new Date()): string {
    return now.toISOString().replace(/[:.]/g, "-");
}

/**
 * Writes a consistent copy of the whole database (`VACUUM INTO`: one read transaction, so a write under way is either
 * all in it or not at all) to a new file in `dir`, and answers its path.
 */
export function writeBackup(db: AppDatabase, dir: string): string {
    const file = path.join(dir, `backup-${timestamp()}.sqlite.tmp`);
    db.statement("VACUUM INTO ?").run(file);
    return file;
}

/**
 * Checks that `file` is a backup this version of the app can restore: a SQLite database, whole (`quick_check`), with
 * the app's schema at a version it knows. Anything else is a 400 that says what the file is, and nothing is changed.
 */
export async function checkBackup(file: string, binding: SqliteBinding): Promise<void> {
    const handle = await open(file, "r");
    const header = Buffer.alloc(16);
    try {
        await handle.read(header, 0, 16, 0);
    } finally {
        await handle.close();
    }
    if (header.toString("latin1") !== sqliteHeader) throw invalid("the file is not a Svc Studio data backup: it is not a SQLite database");
    let version: number;
    const db = binding.enhance(new binding.DatabaseSync(file, {readOnly: true}));
    try {
        const check = db.pragma("quick_check", {simple: true});
        if (check !== "ok") throw invalid(`the backup is damaged (SQLite's quick_check: ${String(check)})`);
        try {
            version = Number(db.prepare("SELECT version FROM schema_version WHERE id = 1").pluck().get());
        } catch {
            throw invalid("the file is a SQLite database but not a Svc Studio data backup: it has no schema_version table");
        }
    } catch (error) {
        if (error instanceof GatewayError) throw error;
        throw invalid(`the backup could not be read as a database (${(error as Error).message})`);
    } finally {
        db.close();
    }
    if (!(version >= 1)) throw invalid("the file is a SQLite database but not a Svc Studio data backup: its schema version is missing");
    if (version > appDatabaseMigrations.length)
        throw invalid(`the backup comes from a newer version of the app (schema version ${version}, this one knows ${appDatabaseMigrations.length}): update the app first`);
}

/**
 * Puts a checked backup in place of the database (closed by the caller): the current file is renamed aside, never
 * deleted, and answered; the next call opens the restored one (and migrates it when it is older).
 */
export async function replaceDatabase(dir: string, backup: string): Promise<string> {
    const current = path.join(dir, appDatabaseFile);
    const keptAs = `${appDatabaseFile}.replaced-${timestamp()}`;
    await rename(current, path.join(dir, keptAs)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
    });
    // The closed database leaves no WAL; one left by a crash belongs to the file moved aside.
    for (const suffix of ["-wal", "-shm"])
        await rename(current + suffix, path.join(dir, keptAs + suffix)).catch(() => rm(current + suffix, {force: true}));
    await rename(backup, current);
    return keptAs;
}

function invalid(message: string) {
    return new GatewayError(400, "invalid_backup", "invalid_request_error", `${message}; nothing was changed`);
}

/** What the backup routes need of the app-data store. */
export type BackupHost = {dir: string, database: () => Promise<AppDatabase>, loadBinding: () => Promise<SqliteBinding>, close: () => Promise<void>};

/**
 * "Export all data" (`GET /app-data/backup`: the database copied consistently, as a download) and "Import"
 * (`POST /app-data/backup` with that file as the body: checked, then put in place of the database, whose file is kept
 * aside).
 */
export function backupHandlers(hostOf: () => BackupHost): GatewayHandlers {
    return {
        exportAppData: async () => {
            const host = hostOf();
            const file = writeBackup(await host.database(), host.dir);
            return {status: 200, body: undefined, file: {path: file, name: `svc-studio-data-${timestamp()}.sqlite`, contentType: "application/vnd.sqlite3", removeAfter: true}};
        },
        importAppData: async ({saveBody}) => {
            const host = hostOf();
            if (saveBody === undefined) throw new GatewayError(400, "invalid_request", "invalid_request_error", "the backup file is the request body");
            await mkdir(host.dir, {recursive: true, mode: 0o700});
            const file = path.join(host.dir, `restore-${timestamp()}.sqlite.tmp`);
            await saveBody(file, maxBackupBytes).catch((error: unknown) => {
                throw error instanceof ApiError && error.status === 413 ? new GatewayError(413, "payload_too_large", "invalid_request_error",
                    `the backup is bigger than the largest the app restores, maxBackupBytes (${maxBackupBytes} bytes); nothing was changed`) : error;
            });
            try {
                await checkBackup(file, await host.loadBinding());
            } catch (error) {
                await rm(file, {force: true});
                throw error;
            }
            await host.close();
            return {status: 200, body: {restored: true, keptAs: await replaceDatabase(host.dir, file)}};
        }
    };
}
