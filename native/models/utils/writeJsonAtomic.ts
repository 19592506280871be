import {rename, rm, writeFile} from "node:fs/promises";

/** Writes JSON beside the target and renames it over, so a crash never leaves a half-written settings file. */
export async function writeJsonAtomic(filePath: string, value: unknown): Promise<void> {
    const temporary = `${filePath}.${process.pid}.${Date.now()}.tmp`;
    try {
        await writeFile(temporary, JSON.stringify(value, null, 4) + "\n");
        await rename(temporary, filePath);
    } finally {
        await rm(temporary, {force: true});
    }
}
