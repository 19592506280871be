import * as fsPromises from "node:fs/promises";
import path from "node:path";

/** The file-system calls an atomic write makes; tests pass a recording wrapper around `node:fs/promises`. */
export interface AtomicWriteFs {
    mkdir: typeof fsPromises.mkdir;
    open: typeof fsPromises.open;
    chmod: typeof fsPromises.chmod;
    rename: typeof fsPromises.rename;
    rm: typeof fsPromises.rm;
}

/** Where the write runs: the file system and the platform (a folder cannot be opened to be synced on Windows). */
export interface AtomicWriteIo {
    fs: AtomicWriteFs;
    platform: NodeJS.Platform;
}

const nodeIo: AtomicWriteIo = {fs: fsPromises, platform: process.platform};

/**
 * Writes beside the target and renames over it, so a crash mid-write never leaves a torn settings or key file.
 * `mode` is applied to the new file and again after the rename (an older file may have looser bits).
 *
 * The new file's bytes are synced before the rename, and the folder after it: without the first, a power cut can
 * leave the renamed name pointing at an empty file (the rename reaches the disk before the data); without the
 * second, the rename itself can be lost. Windows cannot open a folder to sync it, so there the folder is not synced.
 */
export async function writeFileAtomic(filePath: string, text: string, mode = 0o644, io: AtomicWriteIo = nodeIo) {
    const {fs} = io;
    const folder = path.dirname(filePath);
    await fs.mkdir(folder, {recursive: true, mode: 0o700});
    const temporaryPath = `${filePath}.${process.pid}.${Date.now()}.tmp`;
    try {
        const file = await fs.open(temporaryPath, "w", mode);
        try {
            await file.writeFile(text);
            await file.sync();
        } finally {
            await file.close();
        }
        await fs.chmod(temporaryPath, mode);
        await fs.rename(temporaryPath, filePath);
    } finally {
        await fs.rm(temporaryPath, {force: true});
    }
    if (io.platform !== "win32") await syncFolder(fs, folder);
}

/** Syncs a folder's entries; a file system that cannot sync folders (EINVAL, ENOTSUP) is left as it is. */
async function syncFolder(fs: AtomicWriteFs, folder: string) {
    const handle = await fs.open(folder, "r");
    try {
        await handle.sync();
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "EINVAL" && code !== "ENOTSUP") throw error;
    } finally {
        await handle.close();
    }
}

/** JSON settings written atomically (4-space indent, trailing newline). */
export function writeJsonAtomic(filePath: string, value: unknown): Promise<void> {
    return writeFileAtomic(filePath, JSON.stringify(value, null, 4) + "\n");
}
