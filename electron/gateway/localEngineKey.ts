// Which credential the gateway sends to the app's own engine. The engine takes its per-launch key as a
// static key and as its admin key (native/cli/main.ts); once its store holds a workspace, every model request needs
// a workspace key (`ck_...`) instead, so the user chooses one on the Workspace screen and the gateway keeps it.
import {isEngineAdminPath} from "../../protocol/admin/routes.ts";
import {keyLookup, keyPrefix} from "../../protocol/admin/contract.ts";
import {GatewayError} from "../api/answers.ts";
import type {KeyStore} from "../secrets/KeyVault.ts";
import {localConnectionId} from "../connections/ConnectionStore.ts";

/** The vault entry of the app's workspace key: the local profile's id, as a remote key sits under its profile's id. */
const localKeyId = localConnectionId;

/**
 * A workspace key's public start, `ck_<lookup>_` (the admin contract's `hint`, which the key list shows), or undefined
 * when `secret` is not shaped like a workspace key (spec §5 rule 1: keys start with `ck_`).
 */
export function workspaceKeyHint(secret: string): string | undefined {
    // The engine's own rule: a secret it would refuse as malformed is never stored as the app's key.
    const lookup = keyLookup(secret);
    return lookup === undefined ? undefined : `${keyPrefix}${lookup}_`;
}

/**
 * The app's workspace key, in the key vault (encrypted in the app, in the data folder's web-keys.json with `npm run web`), never returned to
 * the renderer: the gateway sends it as `Authorization` on `/local` model requests, and the launch key on the
 * engine's admin routes and whenever no workspace key is chosen (then a workspace-mode engine answers 401).
 */
export class LocalEngineKey {
    private readonly vault: KeyStore;
    /** The stored key's hint, read once: the state is polled, and decrypting on each poll would ask the OS keyring each time. */
    private cachedHint?: {hint: string | undefined};

    public constructor(vault: KeyStore) {
        this.vault = vault;
    }

    public hint(): string | undefined {
        if (this.cachedHint == null) {
            let hint: string | undefined;
            try {
                hint = this.vault.has(localKeyId) ? workspaceKeyHint(this.vault.get(localKeyId) ?? "") : undefined;
            } catch {
                // A key the keyring can no longer decrypt is no key: the launch key goes, and the screen offers to choose again.
            }
            this.cachedHint = {hint};
        }
        return this.cachedHint.hint;
    }

    /** `store` saves the key (the gateway's, which may ask the user about plaintext storage first). */
    public async set(secret: unknown, store: (id: string, key: string) => Promise<void>) {
        const hint = typeof secret === "string" ? workspaceKeyHint(secret) : undefined;
        if (hint == null)
            throw new GatewayError(400, "invalid_request", "invalid_request_error",
                "secret: a workspace key as the engine issued it is required (it starts with ck_; create one on the Workspace screen)");
        await store(localKeyId, secret as string);
        this.cachedHint = {hint};
    }

    public async clear() {
        await this.vault.delete(localKeyId);
        this.cachedHint = {hint: undefined};
    }

    /**
     * The `Authorization` value for `path` (below `/local`): the engine's admin key for its admin routes, else the
     * chosen workspace key if any, else the launch key.
     */
    public authorization(path: string, keys: {launch: string, admin: string}): string {
        if (isEngineAdminPath(path)) return keys.admin;
        if (this.hint() == null) return keys.launch;
        return `Bearer ${this.vault.get(localKeyId)}`;
    }
}
