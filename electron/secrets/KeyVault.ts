import {chmod, lstat, readFile, rename} from "node:fs/promises";
import {writeFileAtomic} from "../../base/node/writeFileAtomic.ts";

export type KeyVaultErrorCode = "encryption_unavailable" | "plaintext_refused" | "decrypt_failed";

/** Why a key could not be stored or read; the gateway turns each code into a clear 409/500 for the renderer. */
export class KeyVaultError extends Error {
    public readonly code: KeyVaultErrorCode;

    public constructor(code: KeyVaultErrorCode, message: string) {
        super(message);
        this.name = "KeyVaultError";
        this.code = code;
    }
}

/** Where remote API keys live, by connection id: the encrypted KeyVault (app) or MemoryKeyVault (browser mode). */
export interface KeyStore {
    /** False when keys are lost at exit (browser mode). */
    readonly persistent: boolean,
    has(id: string): boolean,
    /** The key, or undefined when none is stored. Throws KeyVaultError when it cannot be decrypted. */
    get(id: string): string | undefined,
    /** Throws KeyVaultError (`plaintext_refused`, `encryption_unavailable`) when the key may not be stored. */
    set(id: string, key: string): Promise<void>,
    delete(id: string): Promise<void>,
    /** Records the user's consent to store keys without a real keyring (Linux `basic_text`). */
    acceptPlaintextFallback?(): Promise<void>,
    /** Set when the saved keys could not be read at start: what was lost, where the file went, what to do. */
    readonly recovery?: KeyVaultRecovery
}

/** A key file that could not be read, moved aside so the app could start without it. */
export type KeyVaultRecovery = {
    /** Why it could not be read, in words (empty, not a key file, the read error). */
    problem: string,
    /** Where the file is now; nothing was written over it. */
    movedTo: string,
    /** For the user: what was lost and what to do. */
    message: string
};

/**
 * The OS secret primitive the vault encrypts with: Electron's safeStorage in the app (Keychain, DPAPI,
 * libsecret/kwallet), a double in tests. `backendName()` is safeStorage's Linux backend name where it has one
 * (`basic_text` means no keyring: a fixed, well-known password, i.e. no real protection). As Electron's does, a
 * `basic_text` backend is unavailable (`isAvailable()` false, encrypt and decrypt throw) until
 * `usePlainTextEncryption(true)` has been called in this process.
 */
export interface EncryptionBackend {
    isAvailable(): boolean,
    backendName(): string,
    usePlainTextEncryption(use: boolean): void,
    encrypt(text: string): Buffer,
    decrypt(data: Buffer): string
}

export type KeyVaultOptions = {
    filePath: string,
    backend: EncryptionBackend,
    /** The user accepted that, without a keyring (`basic_text`), keys are only obfuscated on disk. */
    allowPlaintextFallback?: boolean,
    /** The clock that names a moved-aside unreadable file; default the system's. */
    now?: () => Date
};

/** The file: each key encrypted by the backend, base64; written with mode 0600. */
type StoredKeys = {
    version: 1,
    /** Backend that encrypted the keys: a later mismatch explains a decrypt failure. */
    backend: string,
    plaintextFallbackAccepted?: boolean,
    keys: Record<string, string>
};

/** Linux safeStorage's name for "no keyring found": encryption with a hard-coded password. */
const plaintextBackend = "basic_text";

/**
 * Remote API keys at rest, encrypted with the OS secret store through an EncryptionBackend, in a 0600 file apart
 * from the connection profiles. Refuses to store keys when the backend is unavailable, or is Linux `basic_text`
 * unless the user accepted that (`allowPlaintextFallback`, or `acceptPlaintextFallback()`, which is remembered).
 */
export class KeyVault implements KeyStore {
    public readonly persistent = true;
    public readonly recovery?: KeyVaultRecovery;
    private readonly filePath: string;
    private readonly backend: EncryptionBackend;
    private stored: StoredKeys;
    private plaintextAllowed: boolean;

    private constructor(options: KeyVaultOptions, stored: StoredKeys, recovery?: KeyVaultRecovery) {
        this.recovery = recovery;
        this.filePath = options.filePath;
        this.backend = options.backend;
        this.stored = stored;
        this.plaintextAllowed = options.allowPlaintextFallback === true || stored.plaintextFallbackAccepted === true;
        // Consent given at an earlier launch holds: keys saved then must decrypt now, and new ones be saved.
        if (this.plaintextAllowed) this.enablePlaintextBackend();
    }

    /**
     * Reads the key file. A missing one is an empty vault. One that cannot be read (empty after a crash or power
     * cut, not JSON, not this app's shape, a read error) must not keep the app from starting, as a broken
     * connections.json does not: it is moved aside under a timestamped name, never written over, and the vault
     * starts empty, with `recovery` saying so. The connections whose keys were in it then show as having no key.
     */
    public static async open(options: KeyVaultOptions): Promise<KeyVault> {
        const empty = (): StoredKeys => ({version: 1, backend: safeBackendName(options.backend), keys: {}});
        let problem: string | undefined;
        const text = await readFile(options.filePath, "utf8").catch((error: NodeJS.ErrnoException) => {
            if (error.code !== "ENOENT") problem = `it could not be read (${error.code ?? error.message})`;
            return undefined;
        });
        const stored = text == null ? undefined : parseStored(text);
        if (text != null && stored == null) problem = text.trim() === "" ? "it is empty" : "it is not a key file this app wrote";
        if (problem != null) {
            const recovery = await moveAside(options.filePath, problem, options.now?.() ?? new Date());
            console.warn(`keys: ${recovery.message}`);
            return new KeyVault(options, empty(), recovery);
        }
        // Tighten a file whose mode was loosened by hand or by an older version.
        if (text != null) await chmod(options.filePath, 0o600);
        return new KeyVault(options, stored ?? empty());
    }

    /** Whether keys may be stored now, and if not, why: for a warning in the UI before the user types a key. */
    public storageProblem(): KeyVaultError | undefined {
        // Asked before availability: without consent a `basic_text` backend reports itself unavailable.
        if (safeBackendName(this.backend) === plaintextBackend && !this.plaintextAllowed)
            return new KeyVaultError("plaintext_refused", "no keyring (such as GNOME Keyring or KWallet) was found: an API key saved now " +
                "would only be obfuscated on disk, readable by any program running as you. Accept this to save keys anyway.");
        if (!this.backend.isAvailable())
            return new KeyVaultError("encryption_unavailable", "the operating system's secret storage is not available, so API keys cannot be saved");
        return undefined;
    }

    public plaintextFallbackAllowed(): boolean {
        return this.plaintextAllowed;
    }

    public async acceptPlaintextFallback(): Promise<void> {
        this.plaintextAllowed = true;
        this.enablePlaintextBackend();
        this.stored = {...this.stored, plaintextFallbackAccepted: true};
        await this.save();
    }

    public has(id: string): boolean {
        return Object.hasOwn(this.stored.keys, id);
    }

    public get(id: string): string | undefined {
        if (!this.has(id)) return undefined;
        try {
            return this.backend.decrypt(Buffer.from(this.stored.keys[id], "base64"));
        } catch (error) {
            throw new KeyVaultError("decrypt_failed", `the saved API key could not be decrypted (stored with ${this.stored.backend}, ` +
                `now ${safeBackendName(this.backend)}): ${(error as Error).message}; enter the key again`);
        }
    }

    public async set(id: string, key: string): Promise<void> {
        const problem = this.storageProblem();
        if (problem != null) throw problem;
        const encrypted = this.backend.encrypt(key).toString("base64");
        this.stored = {...this.stored, backend: this.backend.backendName(), keys: {...this.stored.keys, [id]: encrypted}};
        await this.save();
    }

    public async delete(id: string): Promise<void> {
        if (!this.has(id)) return;
        const {[id]: _removed, ...keys} = this.stored.keys;
        this.stored = {...this.stored, keys};
        await this.save();
    }

    /** Turns on `basic_text` encryption, which safeStorage keeps off until asked (a no-op with a real keyring). */
    private enablePlaintextBackend() {
        if (safeBackendName(this.backend) === plaintextBackend) this.backend.usePlainTextEncryption(true);
    }

    private async save() {
        await writeFileAtomic(this.filePath, JSON.stringify(this.stored, null, 4) + "\n", 0o600);
    }
}

/**
 * Renames the unreadable key file to `<file>.unreadable-<time>` (a free name: `-2`, `-3` ... when taken), so the
 * keys in it can still be recovered by hand and a new key file never replaces it. A failed rename is thrown: the
 * app must not start and later write over a file it could not read.
 */
async function moveAside(filePath: string, problem: string, now: Date): Promise<KeyVaultRecovery> {
    const stamp = now.toISOString().replaceAll(":", "-");
    let movedTo = `${filePath}.unreadable-${stamp}`;
    for (let suffix = 2; await exists(movedTo); suffix++) movedTo = `${filePath}.unreadable-${stamp}-${suffix}`;
    try {
        await rename(filePath, movedTo);
    } catch (error) {
        throw new KeyVaultError("decrypt_failed", `the key file ${filePath} cannot be read (${problem}) and could not be moved aside ` +
            `(${(error as Error).message}): move or delete it, then start Svc Studio again`);
    }
    return {
        problem,
        movedTo,
        message: `The saved API keys could not be read (${filePath}: ${problem}), so Svc Studio started without them. ` +
            `The file was moved to ${movedTo} and nothing was written over it. The keys of remote connections and the workspace key ` +
            `chosen for the local engine are no longer stored: remote connections show "no key" until you add them again with their key ` +
            `(Engine & connections), and the workspace key is chosen again on the Workspace screen.`
    };
}

async function exists(filePath: string): Promise<boolean> {
    return lstat(filePath).then(() => true, (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return false;
        throw error;
    });
}

function safeBackendName(backend: EncryptionBackend): string {
    try {
        return backend.backendName();
    } catch {
        return "unknown";
    }
}

function parseStored(text: string): StoredKeys | undefined {
    try {
        const value = JSON.parse(text) as Partial<StoredKeys>;
        if (value?.version !== 1 || value.keys == null || typeof value.keys !== "object" || Array.isArray(value.keys)) return undefined;
        const keys = Object.fromEntries(Object.entries(value.keys).filter(([, encrypted]) => typeof encrypted === "string"));
        return {version: 1, backend: String(value.backend ?? "unknown"), plaintextFallbackAccepted: value.plaintextFallbackAccepted === true, keys};
    } catch {
        return undefined;
    }
}

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
