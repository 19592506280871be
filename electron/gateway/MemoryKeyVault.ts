import type {KeyStore} from "./KeyStore.ts";

/**
 * Browser mode's key store: keys live in the gateway process only (from `SVC_REMOTE_API_KEY` or added over the
 * API) and are gone at exit; nothing is written to disk, so no encryption is involved.
 */
export class MemoryKeyVault implements KeyStore {
    public readonly persistent = false;
    private readonly keys = new Map<string, string>();

    public has(id: string): boolean {
        return this.keys.has(id);
    }

    public get(id: string): string | undefined {
        return this.keys.get(id);
    }

    public async set(id: string, key: string): Promise<void> {
        this.keys.set(id, key);
    }

    public async delete(id: string): Promise<void> {
        this.keys.delete(id);
    }
}
