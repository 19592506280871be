import {createHash, type Hash} from "node:crypto";
import {createReadStream} from "node:fs";

/** Feeds a file's bytes into `hash` (the part already downloaded, before resuming). */
export async function hashFileInto(hash: Hash, filePath: string): Promise<void> {
    for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
}

export async function sha256File(filePath: string): Promise<string> {
    const hash = createHash("sha256");
    await hashFileInto(hash, filePath);
    return hash.digest("hex");
}
