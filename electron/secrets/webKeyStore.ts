// Browser mode's (`npm run web`) keys: the app's own workspace key is kept in the app's data folder, so a restart of
// the gateway keeps using it (its secret was shown once: losing it at every restart would cost a rotation, breaking
// every other client of that key). Every other key (the env remote's) stays in memory, as before: nothing a user put in
// the environment is written to disk.
import path from "node:path";
import {mkdir} from "node:fs/promises";
import {localConnectionId} from "../connections/ConnectionStore.ts";
import {KeyVault, MemoryKeyVault, type EncryptionBackend, type KeyStore, type KeyVaultRecovery} from "./KeyVault.ts";

/**
 * No OS keyring is asked in browser mode (there is no Electron safeStorage): the key is stored as it is, in a file only
 * its owner may read (0600, as the engine's own service.db), and the docs say so.
 */
export function fileOnlyBackend(): EncryptionBackend {
    return {
        isAvailable: () => true,
        backendName: () => "file-0600",
        usePlainTextEncryption: () => undefined,
        encrypt: (text) => Buffer.from(text, "utf8"),
        decrypt: (data) => data.toString("utf8")
    };
}

/** The app's workspace key in `<dataDir>/web-keys.json`; every other key in memory. */
export class WebKeyStore implements KeyStore {
    public readonly persistent = true;
    private readonly memory = new MemoryKeyVault();

    private constructor(private readonly file: KeyVault) {}

    public static async open(dataDir: string): Promise<WebKeyStore> {
        await mkdir(dataDir, {recursive: true});
        return new WebKeyStore(await KeyVault.open({filePath: path.join(dataDir, "web-keys.json"), backend: fileOnlyBackend()}));
    }

    public get recovery(): KeyVaultRecovery | undefined {
        return this.file.recovery;
    }

    private storeOf(id: string): KeyStore {
        return id === localConnectionId ? this.file : this.memory;
    }

    public has(id: string): boolean {
        return this.storeOf(id).has(id);
    }

    public get(id: string): string | undefined {
        return this.storeOf(id).get(id);
    }

    public set(id: string, key: string): Promise<void> {
        return this.storeOf(id).set(id, key);
    }

    public delete(id: string): Promise<void> {
        return this.storeOf(id).delete(id);
    }
}
