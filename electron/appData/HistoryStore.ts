import {readdir, readFile, rm, stat} from "node:fs/promises";
import path from "node:path";
import {appDataLimits, type SavedRun} from "../../protocol/gateway/contract.ts";
import {writeFileAtomic} from "../../base/node/writeFileAtomic.ts";
import {GatewayError} from "../api/answers.ts";
import {SerialQueue} from "./serialQueue.ts";
import {boundedJson, checkName} from "./storedNames.ts";

/** A run's file: `<createdAt>-<id>.json`, so a listing of the folder is the history's order without reading a file. */
type RunFile = {name: string, id: string, createdAt: number};

export type HistoryBounds = {maxEntries: number, maxBytes: number};

const fileName = /^(\d{1,16})-(.+)\.json$/;

/**
 * The playground's run history: one JSON file per run in `dir`, written atomically. Runs hold images and long replies,
 * so the history is bounded by count (`maxHistoryEntries`) and by bytes (`maxHistoryBytes`; both by default): adding a
 * run drops the oldest ones beyond either bound.
 */
export class HistoryStore {
    private readonly dir: string;
    private readonly bounds: HistoryBounds;
    /** Adds, removals and trims one at a time: a trim never races a write it would count. */
    private readonly changes = new SerialQueue();

    public constructor(dir: string, bounds: HistoryBounds = {maxEntries: appDataLimits.maxHistoryEntries, maxBytes: appDataLimits.maxHistoryBytes}) {
        this.dir = dir;
        this.bounds = bounds;
    }

    /** Every run, newest first; a file that does not parse is left out and logged. */
    public async list(): Promise<SavedRun[]> {
        const runs: SavedRun[] = [];
        for (const file of (await this.files()).reverse()) {
            try {
                runs.push(JSON.parse(await readFile(path.join(this.dir, file.name), "utf8")) as SavedRun);
            } catch (error) {
                if ((error as NodeJS.ErrnoException).code !== "ENOENT") console.warn(`app data: run ${file.id} left out:`, (error as Error).message);
            }
        }
        return runs;
    }

    /**
     * Saves a run (`id` a file name, `createdAt` epoch milliseconds), replacing a saved run with the same id; answers
     * the ids of the oldest runs dropped to keep the history within its bounds.
     */
    public async add(run: SavedRun): Promise<string[]> {
        if (run === null || typeof run !== "object" || Array.isArray(run))
            throw new GatewayError(400, "invalid_request", "invalid_request_error", "a run must be a JSON object");
        const id = checkName("a run id", run.id);
        if (!Number.isSafeInteger(run.createdAt) || run.createdAt < 0)
            throw new GatewayError(400, "invalid_request", "invalid_request_error", "createdAt: must be epoch milliseconds (a non-negative integer)");
        const text = boundedJson(`run ${id}`, run, appDataLimits.maxHistoryEntryBytes);
        return this.changes.run("history", async () => {
            const previous = (await this.files()).filter((file) => file.id === id);
            const name = `${run.createdAt}-${id}.json`;
            await writeFileAtomic(path.join(this.dir, name), text, 0o600);
            for (const file of previous) if (file.name !== name) await rm(path.join(this.dir, file.name), {force: true});
            return this.trim();
        });
    }

    /** True when there was such a run. */
    public async remove(id: string): Promise<boolean> {
        checkName("a run id", id);
        return this.changes.run("history", async () => {
            const found = (await this.files()).filter((file) => file.id === id);
            for (const file of found) await rm(path.join(this.dir, file.name), {force: true});
            return found.length > 0;
        });
    }

    /** Deletes every run; answers how many there were. */
    public async clear(): Promise<number> {
        return this.changes.run("history", async () => {
            const files = await this.files();
            for (const file of files) await rm(path.join(this.dir, file.name), {force: true});
            return files.length;
        });
    }

    /** Drops the oldest runs beyond the count, then beyond the bytes; the newest run always stays. */
    private async trim(): Promise<string[]> {
        const files = await this.files();
        const dropped = files.slice(0, Math.max(0, files.length - this.bounds.maxEntries));
        const kept = files.slice(dropped.length);
        const sizes = await Promise.all(kept.map((file) => stat(path.join(this.dir, file.name)).then((info) => info.size, () => 0)));
        let total = sizes.reduce((sum, size) => sum + size, 0);
        for (let index = 0; index < kept.length - 1 && total > this.bounds.maxBytes; index++) {
            dropped.push(kept[index]);
            total -= sizes[index];
        }
        for (const file of dropped) await rm(path.join(this.dir, file.name), {force: true});
        return dropped.map((file) => file.id);
    }

    /** The runs' files, oldest first (by creation, then id). */
    private async files(): Promise<RunFile[]> {
        const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
            if (error.code === "ENOENT") return [] as string[];
            throw error;
        });
        const files: RunFile[] = [];
        for (const name of names) {
            const match = fileName.exec(name);
            if (match != null) files.push({name, id: match[2], createdAt: Number(match[1])});
        }
        return files.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    }
}
