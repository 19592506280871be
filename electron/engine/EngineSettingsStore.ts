import {readFile} from "node:fs/promises";
import {writeJsonAtomic} from "../../base/node/writeFileAtomic.ts";
import {firstFreePort} from "./enginePort.ts";

/** The file's shape. */
type StoredEngineSettings = {version: 1, port?: number};

/**
 * The app's engine settings kept in its data folder (`engine-settings.json`), so they hold across launches: the port
 * the engine listens on. A missing or unreadable file is a first launch (an unreadable one is logged and replaced
 * at the next save).
 */
export class EngineSettingsStore {
    public readonly filePath: string;
    private stored: StoredEngineSettings;

    private constructor(filePath: string, stored: StoredEngineSettings) {
        this.filePath = filePath;
        this.stored = stored;
    }

    public static async open(filePath: string): Promise<EngineSettingsStore> {
        // A folder the app cannot read (its permissions, a file in its place) must not keep the app from starting: the
        // engine then gets a port for this launch, and the app-data routes report the folder's problem to the page.
        const text = await readFile(filePath, "utf8").catch((error: NodeJS.ErrnoException) => {
            if (error.code !== "ENOENT") console.warn(`engine settings: ${filePath} is not readable (${error.message}); starting from the defaults`);
            return undefined;
        });
        return new EngineSettingsStore(filePath, text == null ? {version: 1} : parseStored(filePath, text));
    }

    /** The saved port; undefined before one was chosen. */
    public get port(): number | undefined {
        return this.stored.port;
    }

    public async setPort(port: number): Promise<void> {
        this.stored = {...this.stored, version: 1, port};
        await writeJsonAtomic(this.filePath, this.stored);
    }

    /**
     * The port for this launch: `given` (a command-line flag, for this launch only) wins; else the saved one; else, at
     * the first launch, the first free port from 8081 on, saved so that every later launch and restart keeps it.
     */
    public async launchPort(given?: number): Promise<number> {
        if (given != null) return given;
        if (this.port != null) return this.port;
        const chosen = await firstFreePort();
        await this.setPort(chosen).catch((error: Error) =>
            console.warn(`engine settings: ${this.filePath} could not be saved (${error.message}); port ${chosen} holds for this launch only`));
        return chosen;
    }
}

function parseStored(filePath: string, text: string): StoredEngineSettings {
    try {
        const value = JSON.parse(text) as Partial<StoredEngineSettings>;
        const port = value.port;
        return {version: 1, ...(Number.isInteger(port) && port! >= 0 && port! <= 65535 ? {port} : {})};
    } catch (error) {
        console.warn(`engine settings: ${filePath} is not readable (${(error as Error).message}); starting from the defaults`);
        return {version: 1};
    }
}
