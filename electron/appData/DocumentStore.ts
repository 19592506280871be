import {readdir, readFile, rm} from "node:fs/promises";
import path from "node:path";
import {appDataLimits} from "../../protocol/gateway/contract.ts";
import {writeFileAtomic} from "../../base/node/writeFileAtomic.ts";
import {GatewayError} from "../api/answers.ts";
import {SerialQueue} from "./serialQueue.ts";
import {boundedJson, checkName} from "./storedNames.ts";

/**
 * The renderer's small documents (theme, presets, question sets, the chosen View-code key ...), one JSON file per key
 * in `dir` (`<key>.json`), each replaced whole and atomically (written beside it, then renamed over it), so a crash
 * leaves either the old document or the new one. The page reads them all once as it starts.
 */
export class DocumentStore {
    private readonly dir: string;
    private readonly writes = new SerialQueue();

    public constructor(dir: string) {
        this.dir = dir;
    }

    /** Every document by key; a file that does not parse (edited by hand, say) is left out and logged. */
    public async all(): Promise<Record<string, unknown>> {
        const documents: Record<string, unknown> = {};
        for (const key of await this.keys()) {
            try {
                documents[key] = JSON.parse(await readFile(this.file(key), "utf8"));
            } catch (error) {
                // Deleted since the listing, or unreadable: the page starts without it rather than not at all.
                if ((error as NodeJS.ErrnoException).code !== "ENOENT") console.warn(`app data: document ${key} left out:`, (error as Error).message);
            }
        }
        return documents;
    }

    /** Replaces (or creates) the document `key`; refused when the key is no file name, the value too big, or too many documents exist. */
    public async put(key: string, value: unknown): Promise<void> {
        checkName("a document key", key);
        const text = boundedJson(`document ${key}`, value, appDataLimits.maxDocumentBytes);
        await this.writes.run(key, async () => {
            const keys = await this.keys();
            if (!keys.includes(key) && keys.length >= appDataLimits.maxDocuments)
                throw new GatewayError(409, "too_many_documents", "invalid_request_error",
                    `the app keeps at most ${appDataLimits.maxDocuments} documents; delete one before adding ${key}`);
            await writeFileAtomic(this.file(key), text + "\n", 0o600);
        });
    }

    /** True when there was such a document. */
    public async remove(key: string): Promise<boolean> {
        checkName("a document key", key);
        return this.writes.run(key, async () => {
            const existed = (await this.keys()).includes(key);
            await rm(this.file(key), {force: true});
            return existed;
        });
    }

    private async keys(): Promise<string[]> {
        const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
            if (error.code === "ENOENT") return [] as string[];
            throw error;
        });
        // Temporary files of a write a crash cut short end in `.tmp`, not `.json`: never read as documents.
        return names.filter((name) => name.endsWith(".json")).map((name) => name.slice(0, -".json".length)).sort();
    }

    private file(key: string): string {
        return path.join(this.dir, `${key}.json`);
    }
}
