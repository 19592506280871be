import {chmod, mkdir, rename, rm, writeFile} from "node:fs/promises";
import path from "node:path";

/**
 * Writes beside the target and renames over it, so a crash mid-write never leaves a torn settings or key file.
 * `mode` is applied to the new file and again after the rename (an older file may have looser bits).
 */
export async function writeFileAtomic(filePath: string, text: string, mode = 0o644) {
    await mkdir(path.dirname(filePath), {recursive: true, mode: 0o700});
    const temporaryPath = `${filePath}.${process.pid}.${Date.now()}.tmp`;
    try {
        await writeFile(temporaryPath, text, {mode});
        await chmod(temporaryPath, mode);
        await rename(temporaryPath, filePath);
    } finally {
        await rm(temporaryPath, {force: true});
    }
}

/** JSON settings written atomically (4-space indent, trailing newline). */
export function writeJsonAtomic(filePath: string, value: unknown): Promise<void> {
    return writeFileAtomic(filePath, JSON.stringify(value, null, 4) + "\n");
}
