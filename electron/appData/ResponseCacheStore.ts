import {createHash} from "node:crypto";
import {readdir, readFile, rm, stat, utimes} from "node:fs/promises";
import path from "node:path";
import {writeFileAtomic} from "../../base/node/writeFileAtomic.ts";
import {defaultResponseCacheBytes, type CachedResponse, type ResponseCache} from "../../client/scoring/responseCache.ts";
import {SerialQueue} from "./serialQueue.ts";

const entryName = /^[0-9a-f]{64}\.json$/;

export type ResponseCacheStoreOptions = {
    /** At most this many bytes of answers (their files' sizes); default defaultResponseCacheBytes. */
    maxBytes?: number
};

/**
 * The app's response cache (client/scoring/responseCache.ts) in the data folder, as plain files: the gateway runs in
 * Electron's main process, which loads no native module, so it cannot hold SQLite as the command line's cache does.
 * One file per answer, named by the SHA-256 of its key and written atomically. Beyond `maxBytes` the least recently
 * used answers (read or written) are deleted first; a read touches its file's time, so the order outlives a restart.
 * The folder is listed once, at the first call; a file that went missing since is a miss.
 */
export class ResponseCacheStore implements ResponseCache {
    public readonly dir: string;
    public readonly maxBytes: number;
    private readonly files = new SerialQueue();
    /** Each answer's file name and size, the least recently used first (a Map keeps insertion order). */
    private index: Promise<Map<string, number>> | null = null;
    private total = 0;

    public constructor(dir: string, options: ResponseCacheStoreOptions = {}) {
        this.dir = dir;
        this.maxBytes = options.maxBytes ?? defaultResponseCacheBytes;
    }

    public async get(key: string): Promise<CachedResponse | undefined> {
        const name = fileName(key);
        const index = await this.loaded();
        if (!index.has(name)) return undefined;
        let text: string;
        try {
            text = await this.files.run(name, () => readFile(this.file(name), "utf8"));
        } catch {
            this.forget(index, name);
            return undefined;
        }
        const bytes = index.get(name);
        if (bytes !== undefined) {
            index.delete(name);
            index.set(name, bytes);
        }
        const now = new Date();
        void utimes(this.file(name), now, now).catch(() => undefined);
        try {
            return JSON.parse(text) as CachedResponse;
        } catch {
            return undefined;
        }
    }

    public async put(key: string, value: CachedResponse): Promise<void> {
        await this.keep(key, value);
    }

    /** Keeps `value` under `key`; false when it alone is bigger than the bound (not kept). */
    public async keep(key: string, value: CachedResponse): Promise<boolean> {
        const name = fileName(key);
        const text = JSON.stringify(value);
        const bytes = Buffer.byteLength(text, "utf8");
        if (bytes > this.maxBytes) return false;
        const index = await this.loaded();
        await this.files.run(name, () => writeFileAtomic(this.file(name), text, 0o600));
        this.forget(index, name);
        index.set(name, bytes);
        this.total += bytes;
        await this.evict(index);
        return true;
    }

    /** Answers and bytes held now. */
    public async stats(): Promise<{entries: number, bytes: number}> {
        return {entries: (await this.loaded()).size, bytes: this.total};
    }

    private file(name: string): string {
        return path.join(this.dir, name);
    }

    private forget(index: Map<string, number>, name: string) {
        const bytes = index.get(name);
        if (bytes === undefined) return;
        index.delete(name);
        this.total -= bytes;
    }

    /** Deletes the least recently used answers until the total is within the bound. */
    private async evict(index: Map<string, number>) {
        const removals: Array<Promise<void>> = [];
        for (const [name, bytes] of index) {
            if (this.total <= this.maxBytes) break;
            index.delete(name);
            this.total -= bytes;
            removals.push(this.files.run(name, () => rm(this.file(name), {force: true})));
        }
        await Promise.all(removals);
    }

    /** The folder's answers, oldest use first, listed once. */
    private loaded(): Promise<Map<string, number>> {
        this.index ??= (async () => {
            const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
                if (error.code === "ENOENT") return [] as string[];
                throw error;
            });
            const entries: Array<{name: string, bytes: number, used: number}> = [];
            for (const name of names.filter((item) => entryName.test(item))) {
                const info = await stat(this.file(name)).catch(() => null);
                if (info?.isFile()) entries.push({name, bytes: info.size, used: info.mtimeMs});
            }
            entries.sort((a, b) => a.used - b.used);
            const index = new Map(entries.map((entry) => [entry.name, entry.bytes]));
            this.total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
            return index;
        })();
        // A listing that failed (no permission, say) is tried again at the next call.
        this.index.catch(() => this.index = null);
        return this.index;
    }
}

function fileName(key: string): string {
    return `${createHash("sha256").update(key).digest("hex")}.json`;
}
