import {fail, optional, readObject, readString, rejectUnknownFields, required} from "../../protocol/validation.ts";
import {randomBytes} from "node:crypto";
import {readFile, rename} from "node:fs/promises";
import {ApiError} from "../../protocol/errors.ts";
import {writeFileAtomic} from "../../base/node/writeFileAtomic.ts";
import type {KeyStore} from "../secrets/KeyVault.ts";

export type RemoteProfileInput = {name: string, baseUrl: string, apiKey?: string};

const maxNameLength = 100;
const maxKeyLength = 4096;

/** Checks `POST /gateway/api/connections` `{name, baseUrl, apiKey?}`; the base URL comes back normalised. */
export function readRemoteProfileInput(body: unknown): RemoteProfileInput {
    const object = readObject(body, []);
    rejectUnknownFields(object, [], ["name", "baseUrl", "apiKey"]);
    const name = required(object, "name", [], readString).trim();
    if (name === "" || name.length > maxNameLength) fail(["name"], `must be 1 to ${maxNameLength} characters`);
    const baseUrl = normaliseBaseUrl(required(object, "baseUrl", [], readString), ["baseUrl"]);
    const apiKey = optional(object, "apiKey", [], readString);
    // The key becomes a header value: anything outside visible ASCII would break or split the header.
    if (apiKey != null && (apiKey.length === 0 || apiKey.length > maxKeyLength || !/^[\x21-\x7e]+$/.test(apiKey)))
        fail(["apiKey"], `must be 1 to ${maxKeyLength} visible ASCII characters without spaces`);
    return {name, baseUrl, apiKey};
}

/** An http(s) URL without credentials, query or fragment and without a trailing slash: `<base>/<model>/v1/...` is appended. */
export function normaliseBaseUrl(text: string, path: string[]): string {
    let url: URL;
    try {
        url = new URL(text.trim());
    } catch {
        fail(path, `must be an absolute http:// or https:// URL, got ${JSON.stringify(text)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") fail(path, `must use http:// or https://, got ${url.protocol}`);
    if (url.username !== "" || url.password !== "") fail(path, "must not contain credentials; send the key as apiKey");
    if (url.search !== "" || url.hash !== "") fail(path, "must not contain a query or fragment");
    return url.origin + url.pathname.replace(/\/+$/, "");
}

export type RemoteProfile = {id: string, name: string, baseUrl: string};

export type ConnectionProfile =
    | {id: "local", kind: "local", name: string}
    | {id: string, kind: "remote", name: string, baseUrl: string};

export const localConnectionId = "local";

const localProfile: ConnectionProfile = {id: localConnectionId, kind: "local", name: "Local engine"};

/** The file's shape; keys are never here (KeyVault holds them, under the same ids). */
type StoredConnections = {version: 1, activeId: string, remotes: RemoteProfile[]};

/**
 * The connection profiles: the local engine (id `local`, always there) and any number of remote servers, one of
 * them active. Persisted as JSON when opened on a file; in memory only for browser mode.
 */
export class ConnectionStore {
    private readonly filePath?: string;
    private remotes: RemoteProfile[];
    private activeConnectionId: string;

    private constructor(filePath: string | undefined, stored: StoredConnections) {
        this.filePath = filePath;
        this.remotes = stored.remotes;
        this.activeConnectionId = stored.remotes.some((remote) => remote.id === stored.activeId) ? stored.activeId : localConnectionId;
    }

    /** Reads `filePath`; a missing file is an empty store, a corrupt one is set aside (`.corrupt-<time>`) and replaced. */
    public static async open(filePath: string): Promise<ConnectionStore> {
        const text = await readFile(filePath, "utf8").catch((error: NodeJS.ErrnoException) => {
            if (error.code === "ENOENT") return undefined;
            throw error;
        });
        if (text == null) return new ConnectionStore(filePath, emptyStore());
        const stored = parseStored(text);
        if (stored == null) {
            const aside = `${filePath}.corrupt-${Date.now()}`;
            await rename(filePath, aside);
            console.warn(`connections: ${filePath} was not readable; moved to ${aside} and started empty`);
            return new ConnectionStore(filePath, emptyStore());
        }
        return new ConnectionStore(filePath, stored);
    }

    public static inMemory(): ConnectionStore {
        return new ConnectionStore(undefined, emptyStore());
    }

    public list(): ConnectionProfile[] {
        return [localProfile, ...this.remotes.map((remote) => ({kind: "remote" as const, ...remote}))];
    }

    public get(id: string): ConnectionProfile | undefined {
        return this.list().find((profile) => profile.id === id);
    }

    public activeId(): string {
        return this.activeConnectionId;
    }

    /** The active profile when it is a remote one: what `/remote/...` forwards to. */
    public activeRemote(): RemoteProfile | undefined {
        return this.remotes.find((remote) => remote.id === this.activeConnectionId);
    }

    /** A checked profile with a fresh id, not yet stored: its key can be saved under the id before it is added. */
    public createRemote(input: {name: string, baseUrl: string}): RemoteProfile {
        const name = input.name.trim();
        if (name === "") throw new ApiError(400, "invalid_request", "name: must not be empty");
        return {id: `remote-${randomBytes(6).toString("hex")}`, name, baseUrl: normaliseBaseUrl(input.baseUrl, ["baseUrl"])};
    }

    public async add(profile: RemoteProfile): Promise<void> {
        if (this.get(profile.id) != null) throw new ApiError(409, "connection_exists", `a connection with id ${profile.id} exists`);
        this.remotes = [...this.remotes, profile];
        await this.save();
    }

    /** Removes a remote profile; when it was active, the local engine becomes active. */
    public async remove(id: string): Promise<void> {
        this.require(id);
        if (id === localConnectionId) throw new ApiError(400, "invalid_request", "the local engine connection cannot be removed");
        this.remotes = this.remotes.filter((remote) => remote.id !== id);
        if (this.activeConnectionId === id) this.activeConnectionId = localConnectionId;
        await this.save();
    }

    public async activate(id: string): Promise<void> {
        this.require(id);
        this.activeConnectionId = id;
        await this.save();
    }

    private require(id: string) {
        if (this.get(id) == null) throw new ApiError(404, "not_found", `no connection with id ${JSON.stringify(id)}`);
    }

    private async save() {
        if (this.filePath == null) return;
        const stored: StoredConnections = {version: 1, activeId: this.activeConnectionId, remotes: this.remotes};
        await writeFileAtomic(this.filePath, JSON.stringify(stored, null, 4) + "\n", 0o600);
    }
}

function emptyStore(): StoredConnections {
    return {version: 1, activeId: localConnectionId, remotes: []};
}

/** The stored JSON, or undefined when it is not a file this code wrote (each remote is checked field by field). */
function parseStored(text: string): StoredConnections | undefined {
    try {
        const value = JSON.parse(text) as Partial<StoredConnections>;
        if (value?.version !== 1 || !Array.isArray(value.remotes) || typeof value.activeId !== "string") return undefined;
        const remotes = value.remotes.filter((remote): remote is RemoteProfile =>
            typeof remote?.id === "string" && remote.id !== localConnectionId && typeof remote.name === "string" && typeof remote.baseUrl === "string");
        return {version: 1, activeId: value.activeId, remotes: remotes.map(({id, name, baseUrl}) => ({id, name, baseUrl}))};
    } catch {
        return undefined;
    }
}

/**
 * Browser mode: with `SVC_REMOTE_BASE_URL` and `SVC_REMOTE_API_KEY` both set, adds the profile "remote (env)"
 * with that key (kept in the gateway's memory). Returns the profile, or undefined when the pair is not set.
 */
export async function seedEnvRemote(connections: ConnectionStore, vault: KeyStore, env: NodeJS.ProcessEnv): Promise<RemoteProfile | undefined> {
    const baseUrl = env.SVC_REMOTE_BASE_URL?.trim();
    const apiKey = env.SVC_REMOTE_API_KEY?.trim();
    if (!baseUrl || !apiKey) {
        if (baseUrl || apiKey) console.warn("svc-studio web: set both SVC_REMOTE_BASE_URL and SVC_REMOTE_API_KEY for a remote connection; ignoring the one given");
        return undefined;
    }
    const profile = connections.createRemote({name: "remote (env)", baseUrl});
    await vault.set(profile.id, apiKey);
    await connections.add(profile);
    return profile;
}
